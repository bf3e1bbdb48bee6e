import { z } from 'zod'
import { Quote, QuoteCreateRequest, QuoteId, SandboxSendRequest, Transaction } from '../../api'
import { channel, NoInput } from '../define'
import { ProfileId } from '../../profile'
import { TransferRecord } from './data'

/** Execute a quote: one actionId per operator action (its Idempotency-Key), reused by every retry of it. */
export const QuoteExecuteInput = z.strictObject({
  actionId: z.uuid({ error: 'actionId must be a uuid made once per operator action' }),
  quoteId: QuoteId,
  /** Production profiles: the operator confirmed, a second time, that real money moves. */
  confirmProduction: z.boolean().optional()
})
export type QuoteExecuteInput = z.infer<typeof QuoteExecuteInput>

const QuoteResult = z.object({ profileId: ProfileId, quote: Quote })

export const QuoteExecuteResult = z.object({
  profileId: ProfileId,
  quote: Quote.nullable(),
  /** Null when the execution is known but its transaction could not be read yet (sync follows it). */
  transaction: Transaction.nullable(),
  record: TransferRecord
})
export type QuoteExecuteResult = z.infer<typeof QuoteExecuteResult>

export const quoteChannels = {
  'quotes.create': channel(QuoteCreateRequest, QuoteResult, 'Ask the service for a quote (rate, fees, both totals)'),
  'quotes.get': channel(z.strictObject({ quoteId: QuoteId }), QuoteResult, 'One quote, read from the service'),
  'quotes.execute': channel(QuoteExecuteInput, QuoteExecuteResult, 'Execute a quote, exactly once per operator action'),
  'quotes.open': channel(
    NoInput,
    z.object({ profileId: ProfileId, quotes: z.array(Quote) }),
    'Quotes this Paydesk created that are still PENDING and not past their expiry'
  ),
  'sandbox.send': channel(SandboxSendRequest, Transaction, 'Sandbox only: send funds against a quote (spec 4.13)')
}
