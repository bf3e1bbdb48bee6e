import { holdsItsPayment, paymentIntentKeys, type TransferRecord } from '../../shared/ipc/channels/data'
import { AppError } from '../infra/app-error'

/**
 * The one guard for money, for transfers and quote executions alike. A payment (its intent: accounts, amount, and for
 * a quote its request and the quote itself) is held by the record that attempts it from the moment that record is
 * prepared until its outcome is known. Another action for the same payment would carry another Idempotency-Key (and a
 * new quote another quote id), so the service could not tell it is the same payment: it is refused, pointing at the
 * record to review and retry instead. No clock is involved: a payment is released only by an answer of the service
 * (sent, refused) or by a check at the service that settles it.
 */

type Candidate = Parameters<typeof paymentIntentKeys>[0] & { actionId: string }

/** The record holding the same payment as `intent` (another action), if any. */
function holderOf<R extends TransferRecord>(records: Iterable<R>, intent: Candidate): R | undefined {
  const keys = new Set(paymentIntentKeys(intent))
  for (const r of records) {
    if (r.actionId === intent.actionId || !holdsItsPayment(r)) continue
    if (paymentIntentKeys(r).some((k) => keys.has(k))) return r
  }
  return undefined
}

/** Refuses `intent` while another record holds the same payment; called inside the journal's write sequence. */
export function refuseWhileHeld(records: Iterable<TransferRecord>, intent: Candidate): void {
  const holder = holderOf(records, intent)
  if (!holder) return
  const isQuote = (holder.kind ?? 'transfer-out') === 'quote-execute'
  const what = isQuote
    ? 'An execution of a quote for this same payment'
    : 'A transfer of the same amount from this account to the same destination'
  const where = isQuote ? 'Quotes executed from this Paydesk' : 'Transfers from this Paydesk'
  throw new AppError(
    'CONFLICT',
    `${what}, started ${holder.createdAt}, has no known outcome yet, and a new one could pay twice. Open that one ` +
      `with “Review and retry” (under ${where}): it checks the service first and then settles it.`,
    { actionId: holder.actionId }
  )
}
