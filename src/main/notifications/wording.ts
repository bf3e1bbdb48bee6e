import type { Customer, IncomingTransaction, Transaction } from '../../shared/api'
import { formatAmountInSentence } from '../../shared/format/money'
import { senderIdentifiers } from '../../shared/approval-rules'
import { kindOf, type StoredTransferRecord } from '../services/transfer-journal'
import type { AppNotification } from './batch'

/**
 * What every notification of a profile says: payments awaiting approval or approved by the rules, and transfers the
 * operator started that reached an end. The services decide when to notify; the sentences live here.
 */

/** A notification before the backend adds the profile it is about. */
export type ProfileNotification = Omit<AppNotification, 'profileId'>

/** Amount, sender address and customer of an incoming payment, as one sentence. */
function describeIncoming(t: IncomingTransaction, customer: Customer | null): string {
  const m = t.receivedAmount
  const address = senderIdentifiers(t).find((x) => x.startsWith('$'))
  const from = address ? ` from ${address}` : ''
  return `${formatAmountInSentence(m.amount, m.currency.code, m.currency.decimals ?? 2)}${from} for ${customer?.fullName ?? t.customerId}.`
}

export function approvedAutomatically(t: IncomingTransaction, customer: Customer | null): ProfileNotification {
  return {
    id: `approval:${t.id}`,
    title: 'Payment approved automatically',
    body: `${describeIncoming(t, customer)} matched the approval rules.`,
    route: 'approvals',
    targetId: t.id
  }
}

export function awaitingApproval(
  t: IncomingTransaction,
  customer: Customer | null,
  deadline: string | null
): ProfileNotification {
  return {
    id: `approval:${t.id}`,
    title: 'Payment awaiting approval',
    body: `${describeIncoming(t, customer)}${deadline ? ` Decide before ${deadline.slice(11, 16)} UTC.` : ''}`,
    route: 'approvals',
    targetId: t.id
  }
}

/** Many payments at once: one notification for all of them. */
export function manyAwaitingApproval(waiting: IncomingTransaction[]): ProfileNotification {
  return {
    id: `approvals:${waiting[0]!.id}`,
    title: `${waiting.length} payments await approval`,
    body: 'Open Approvals to review them.',
    route: 'approvals'
  }
}

type SentTransaction = Transaction & {
  sentAmount?: { amount: number; currency: { code: string; decimals?: number } }
  failureReason?: string
}

/**
 * A transfer or a quote's payment the operator started reached a final status (`transaction`: as cached, when it is).
 * It is named for what the operator did, so a quote's payment is not reported as a transfer.
 */
export function transferSettled(
  record: Pick<StoredTransferRecord, 'amount' | 'destinationAccountId' | 'kind'>,
  transactionId: string,
  status: string,
  transaction: SentTransaction | undefined
): ProfileNotification {
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
  const noun = kindOf(record) === 'quote-execute' ? 'Quote payment' : 'Transfer'
  return {
    id: `transfer:${transactionId}:${status}`,
    title: ok ? `${noun} completed` : `${noun} ${status.toLowerCase()}`,
    body: ok
      ? `${money.trim()} reached ${record.destinationAccountId}.`
      : `${money.trim()} to ${record.destinationAccountId} did not go through${reason ? ` (${reason})` : ''}.`,
    route: 'transactions',
    targetId: transactionId
  }
}
