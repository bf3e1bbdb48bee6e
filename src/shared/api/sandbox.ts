import { z } from 'zod'
import { CustomerId, QuoteId, UmaAddress } from './ids'
import { currencyCode, PositiveMinorUnits } from './money'

/** POST /sandbox/send body (spec 4.13). */
export const SandboxSendRequest = z.strictObject({
  quoteId: QuoteId,
  currencyCode: currencyCode('Currency'),
  currencyAmount: PositiveMinorUnits.optional()
})
export type SandboxSendRequest = z.infer<typeof SandboxSendRequest>

/** POST /sandbox/uma/receive body (spec 4.14): receiverUmaAddress or customerId, at least one. */
export const SandboxReceiveRequest = z
  .strictObject({
    senderUmaAddress: UmaAddress,
    receivingCurrencyCode: currencyCode('Currency'),
    receivingCurrencyAmount: PositiveMinorUnits,
    receiverUmaAddress: UmaAddress.optional(),
    customerId: CustomerId.optional()
  })
  .refine((r) => r.receiverUmaAddress !== undefined || r.customerId !== undefined, {
    error: 'Give the receiver’s UMA address or choose a customer: who receives the payment',
    path: ['receiverUmaAddress']
  })
export type SandboxReceiveRequest = z.infer<typeof SandboxReceiveRequest>

/** Sender addresses the real sandbox knows (reference README). */
export const SANDBOX_SENDER_ADDRESSES = [
  '$success.usd@sandbox.uma.money',
  '$success.eur@sandbox.uma.money',
  '$success.mxn@sandbox.uma.money',
  '$pending.long.usd@sandbox.uma.money',
  '$fail.compliance.usd@sandbox.uma.money'
] as const
