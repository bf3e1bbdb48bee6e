/**
 * Which webhook each change sends (reference `WebhookType`): incoming payments after the approval webhook
 * (`INCOMING_PAYMENT.COMPLETED`, `.FAILED` for a payment that failed or was rejected), every status an outgoing payment
 * reaches (`OUTGOING_PAYMENT.*`), and `INTERNAL_ACCOUNT.BALANCE_UPDATED` for every balance change.
 */
import type { TransactionObj } from '../../state/model'
import type { StoreEvents } from '../../state/sandbox-store'
import type { WebhookDispatcher } from './dispatcher'

const OUTGOING: Record<string, string> = {
  PENDING: 'OUTGOING_PAYMENT.PENDING',
  PROCESSING: 'OUTGOING_PAYMENT.PROCESSING',
  COMPLETED: 'OUTGOING_PAYMENT.COMPLETED',
  FAILED: 'OUTGOING_PAYMENT.FAILED',
  REJECTED: 'OUTGOING_PAYMENT.FAILED',
  EXPIRED: 'OUTGOING_PAYMENT.EXPIRED',
  REFUNDED: 'OUTGOING_PAYMENT.REFUND_COMPLETED'
}

const INCOMING: Record<string, string> = {
  COMPLETED: 'INCOMING_PAYMENT.COMPLETED',
  FAILED: 'INCOMING_PAYMENT.FAILED',
  REJECTED: 'INCOMING_PAYMENT.FAILED'
}

/** The event a transaction in this state sends; none for an incoming PENDING (the approval webhook is its own). */
function transactionEvent(tx: Pick<TransactionObj, 'type' | 'status'>): string | undefined {
  return (tx.type === 'INCOMING' ? INCOMING : OUTGOING)[tx.status]
}

export function webhookEvents(dispatcher: WebhookDispatcher): StoreEvents {
  const sendTransaction = (rec: { data: TransactionObj }): void => {
    const type = transactionEvent(rec.data)
    // The document as the operation leaves it (failureReason, settledAt...), with the status this event is about:
    // one run of due jobs can move a payment through two statuses.
    const status = rec.data.status
    if (type !== undefined) dispatcher.send(type, () => ({ ...rec.data, status }))
  }
  return {
    transactionAdded: sendTransaction,
    transactionStatusChanged: sendTransaction,
    balanceChanged: (account) => dispatcher.send('INTERNAL_ACCOUNT.BALANCE_UPDATED', () => account.data)
  }
}
