import { z } from 'zod'
import { closedEnum, openEnum } from './enums'
import { CustomerId, InternalAccountRef } from './ids'
import { QueryCursor, QueryLimit } from './list'
import { currencyCode, CurrencyAmount, PositiveMinorUnits } from './money'

/** Internal account types of the reference (not in the spec). */
const INTERNAL_ACCOUNT_TYPES = ['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET'] as const

/** One way to fund an internal account (spec 2.7). */
export const FundingPaymentInstruction = z.looseObject({
  accountOrWalletInfo: z.looseObject({
    accountType: z.string(),
    accountNumber: z.string().optional(),
    routingNumber: z.string().optional(),
    paymentRails: z.array(z.string()).optional(),
    reference: z.string().optional(),
    bankName: z.string().optional(),
    address: z.string().optional(),
    assetType: z.string().optional(),
    invoice: z.string().optional()
  }),
  instructionsNotes: z.string().optional(),
  isPlatformAccount: z.boolean().optional()
})
export type FundingPaymentInstruction = z.infer<typeof FundingPaymentInstruction>

/** Internal account of responses (spec 2.7). customerId absent or empty: a platform account. */
export const InternalAccount = z.looseObject({
  id: InternalAccountRef,
  type: openEnum(INTERNAL_ACCOUNT_TYPES).optional(),
  balance: CurrencyAmount,
  fundingPaymentInstructions: z.array(FundingPaymentInstruction).optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  customerId: z.string().nullable().optional()
})
export type InternalAccount = z.infer<typeof InternalAccount>

/** GET /customers/internal-accounts query (reference: currency, customerId, type, limit, cursor). */
export const InternalAccountQuery = z.strictObject({
  customerId: CustomerId.optional(),
  currency: currencyCode('currency').optional(),
  type: closedEnum(INTERNAL_ACCOUNT_TYPES, 'type').optional(),
  limit: QueryLimit,
  cursor: QueryCursor.optional()
})
export type InternalAccountQuery = z.infer<typeof InternalAccountQuery>

/** GET /platform/internal-accounts query: currency (spec 4.8) and the published API's `type`. */
export const PlatformInternalAccountQuery = z.strictObject({
  currency: currencyCode('currency').optional(),
  type: closedEnum(INTERNAL_ACCOUNT_TYPES, 'type').optional()
})
export type PlatformInternalAccountQuery = z.infer<typeof PlatformInternalAccountQuery>

/** Largest sandbox funding amount, in minor units (spec 4.12). */
export const MAX_SANDBOX_FUNDING_AMOUNT = 100_000_000_000

/** POST /sandbox/internal-accounts/{id}/fund body (spec 4.12). */
export const FundInternalAccountRequest = z.strictObject({
  amount: PositiveMinorUnits.refine((n) => n <= MAX_SANDBOX_FUNDING_AMOUNT, {
    error: `Sandbox funding amount must be at most ${MAX_SANDBOX_FUNDING_AMOUNT} minor units`
  })
})
export type FundInternalAccountRequest = z.infer<typeof FundInternalAccountRequest>
