import { z } from 'zod'
import { UPPER_SNAKE_PATTERN } from '../api/transaction'

/** Every refusal of the gate's operator API: a code a program can test and a sentence a person can read. */
export const GateError = z.looseObject({ code: z.string(), message: z.string() })
export type GateError = z.infer<typeof GateError>

/**
 * The gate's 422 to an operator's Approve (POST /operator/prompts/{id}, src/gate/http/operator-routes.ts): the
 * receiverCustomerInfo fields the sender marked mandatory that neither the gate nor the operator gave, by name.
 */
const MissingReceiverInfo = GateError.extend({
  code: z.literal('MISSING_RECEIVER_INFO'),
  missingFields: z.array(z.string().regex(UPPER_SNAKE_PATTERN)).min(1).max(100)
})
type MissingReceiverInfo = z.infer<typeof MissingReceiverInfo>

/** What the prompt card shows at a box the sender requires and nobody filled in (the gate's sentence is not shown). */
export const MISSING_FIELD_MESSAGE =
  'The sender requires this to approve, and the gate has no value for it: fill it in.'

/**
 * The 422's missing fields as the prompt's field errors, keyed by receiverCustomerInfo name (an address by its name:
 * the card puts it at the address's first box); null when the body is not that refusal.
 */
export function missingFieldErrors(body: unknown): Record<string, string[]> | null {
  const parsed = MissingReceiverInfo.safeParse(body)
  if (!parsed.success) return null
  return Object.fromEntries(parsed.data.missingFields.map((name) => [name, [MISSING_FIELD_MESSAGE]]))
}
