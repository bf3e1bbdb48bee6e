import { z } from 'zod'

const Minor = z.number().int().min(0).refine(Number.isSafeInteger, 'Amounts are whole minor units')

/**
 * An operator's approval of a payment before it arrives: for one customer, in one currency, within an amount range,
 * until it expires, optionally only from one sender. Used by the first payment it matches, once.
 */
export const PreApprovalCreateRequest = z
  .strictObject({
    customerId: z.string().trim().min(1).max(200),
    currency: z.string().regex(/^[A-Z0-9]{3,5}$/, 'Currency must be a code such as USD'),
    minAmount: Minor.default(0),
    maxAmount: Minor,
    /** A sender UMA address or source account id; absent: any sender. */
    sender: z.string().trim().min(1).max(300).optional(),
    expiresAt: z.iso.datetime({ offset: true, error: 'expiresAt must be an ISO date-time' })
  })
  .refine((p) => p.minAmount <= p.maxAmount, { error: 'minAmount must not be above maxAmount', path: ['minAmount'] })
export type PreApprovalCreateRequest = z.infer<typeof PreApprovalCreateRequest>

export const PreApproval = z.looseObject({
  id: z.string(),
  customerId: z.string(),
  currency: z.string(),
  minAmount: z.number().int(),
  maxAmount: z.number().int(),
  sender: z.string().nullable(),
  expiresAt: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  /** The transaction that used it; null while unused. */
  usedBy: z.string().nullable()
})
export type PreApproval = z.infer<typeof PreApproval>
