import { z } from 'zod'
import { ReceiverCustomerInfo } from '../approval-rules'

/**
 * A payment waiting for a person: the gate answered the service 202 and must approve or reject before the deadline.
 * At `fallbackAt` (the safety margin) the rule's fallback applies.
 */
export const Prompt = z.looseObject({
  transactionId: z.string(),
  webhookId: z.string(),
  customerId: z.string().nullable(),
  sender: z.string().nullable(),
  amount: z.number().int(),
  currency: z.string(),
  decimals: z.number().int(),
  requestedFields: z.array(z.looseObject({ name: z.string(), mandatory: z.boolean() })),
  /** What would be sent as receiverCustomerInfo on approval, by name only (values never leave the gate's store). */
  availableFields: z.array(z.string()),
  reasons: z.array(z.string()),
  receivedAt: z.string(),
  fallbackAt: z.string(),
  fallback: z.enum(['approve', 'reject'])
})
export type Prompt = z.infer<typeof Prompt>

/** An operator's answer to a prompt (POST /operator/prompts/{transactionId}). */
export const PromptAnswer = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('approve'),
    /** Fields the operator fills in; the gate's receiver information completes the rest. */
    receiverCustomerInfo: ReceiverCustomerInfo.optional()
  }),
  z.strictObject({ action: z.literal('reject'), reason: z.string().trim().min(1).max(200).optional() })
])
export type PromptAnswer = z.infer<typeof PromptAnswer>
