import type { Transaction } from '../../../shared/api'
import { formatAmountInSentence } from '../../../shared/format/money'
import type { Names } from '../../../shared/labels'
import { paymentStatusTitle, type PaymentNoun } from '../../../shared/payment-status'
import { kindOf, type StoredTransferRecord } from '../transfer-journal'
import type { AppNotification } from './batch'

/**
 * What a profile's session notifies: transfers the operator started that reached an end. The services decide when to
 * notify; the sentences live here (the approval gate's are in gate-wording.ts).
 */

/** A notification before the backend adds the profile it is about. */
export type ProfileNotification = Omit<AppNotification, 'profileId'>

type SentTransaction = Transaction & {
  sentAmount?: { amount: number; currency: { code: string; decimals?: number } }
  failureReason?: string
}

/**
 * A transfer or a quote's payment the operator started reached a final status (`transaction`: as cached, when it is).
 * It is named for what the operator did, so a quote's payment is not reported as a transfer, and says where the money
 * went by the account's label ("Priya Raman · US bank …3210", from the cache's `names`), else by its id.
 */
export function transferSettled(
  record: Pick<StoredTransferRecord, 'amount' | 'destinationAccountId' | 'kind'>,
  transactionId: string,
  status: string,
  transaction: SentTransaction | undefined,
  names: Names = {}
): ProfileNotification {
  const to = names[record.destinationAccountId] ?? record.destinationAccountId
  // The amount the operator asked to send, in the currency of the source account.
  const money = transaction?.sentAmount
    ? formatAmountInSentence(
        record.amount,
        transaction.sentAmount.currency.code,
        transaction.sentAmount.currency.decimals ?? 2
      )
    : `${record.amount} minor units`
  const ok = status === 'COMPLETED'
  const reason = transaction?.failureReason
  return {
    id: `transfer:${transactionId}:${status}`,
    // The words every screen uses for this status (shared/payment-status.ts): the toast and the panel agree.
    title: paymentStatusTitle(paymentNounOf(record), status),
    body: ok
      ? `${money.trim()} reached ${to}.`
      : `${money.trim()} to ${to} did not go through${reason ? ` (${reason})` : ''}.`,
    route: 'transactions',
    targetId: transactionId
  }
}

/** What the operator started, named as every screen names it. */
function paymentNounOf(record: Pick<StoredTransferRecord, 'kind'>): PaymentNoun {
  return kindOf(record) === 'quote-execute' ? 'Quote payment' : 'Transfer'
}
