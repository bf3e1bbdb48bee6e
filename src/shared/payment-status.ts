/**
 * One vocabulary for the status of a payment (a transfer, a quote's payment, an incoming payment) and of a quote, used
 * by main's notifications and by every screen, so a status reads the same in the result panel, a list row, the
 * Transactions workbench, a toast and a desktop notification. The chip keeps the service's own code (what its dashboard
 * and API show); the words around it come from here.
 */

/** What a status means for the operator: one colour per meaning across the app (design/ui.md). */
type StatusMeaning = 'good' | 'waiting' | 'bad' | 'neutral' | 'unknown'

interface StatusWords {
  meaning: StatusMeaning
  /** Lower-case word for a sentence or a title: "Transfer completed". */
  word: string
  /** What it means for the money, as a sentence fragment after "The payment …". */
  means: string
}

/** Transaction statuses (spec 3.2), outgoing and incoming. */
const PAYMENT: Record<string, StatusWords> = {
  CREATED: { meaning: 'waiting', word: 'created', means: 'has been created; the service has not started it yet' },
  PENDING: { meaning: 'waiting', word: 'pending', means: 'was accepted by the service and waits to be processed' },
  PROCESSING: { meaning: 'waiting', word: 'processing', means: 'is on its way to the destination' },
  COMPLETED: { meaning: 'good', word: 'completed', means: 'reached the destination' },
  FAILED: { meaning: 'bad', word: 'failed', means: 'did not go through' },
  REJECTED: { meaning: 'bad', word: 'rejected', means: 'was rejected and refunded' },
  REFUNDED: { meaning: 'neutral', word: 'refunded', means: 'could not complete and was refunded' },
  EXPIRED: { meaning: 'neutral', word: 'expired', means: 'expired before it was executed' }
}

/** Statuses after which a payment never changes again: following it stops there. */
const FINAL_PAYMENT_STATUSES: ReadonlySet<string> = new Set(['COMPLETED', 'FAILED', 'REJECTED', 'REFUNDED', 'EXPIRED'])

export function isFinalPaymentStatus(status: string | null | undefined): boolean {
  return status !== null && status !== undefined && FINAL_PAYMENT_STATUSES.has(status)
}

/** The meaning of a payment status; a value this Paydesk does not know is 'unknown' (shown verbatim, in grey). */
export function paymentStatusMeaning(status: string | null | undefined): StatusMeaning {
  return (status && PAYMENT[status]?.meaning) || 'unknown'
}

/** The lower-case word of a status; an unknown one is its code, verbatim. */
export function paymentStatusWord(status: string): string {
  return PAYMENT[status]?.word ?? status
}

/**
 * The one-line account of where a payment stands, the same on the result panel, a list row's hint, a toast and a
 * notification: "The transfer is on its way to the destination." Unknown statuses are said as they are.
 */
export function paymentStatusSentence(noun: PaymentNoun, status: string): string {
  const words = PAYMENT[status]
  const subject = `The ${noun.toLowerCase()}`
  return words ? `${subject} ${words.means}.` : `${subject} is ${status} at the service.`
}

/** What the operator started, named the same on every surface. */
export type PaymentNoun = 'Transfer' | 'Quote payment' | 'Payment'

/** A title such as "Transfer completed" or "Quote payment processing". */
export function paymentStatusTitle(noun: PaymentNoun, status: string): string {
  return `${noun} ${paymentStatusWord(status)}`
}

/**
 * Where a quote stands. Before execution it is a price ("Ready to execute", or "Expired"); once executed it is the
 * payment it started, so its status is that payment's, never a stale PENDING beside a completed payment.
 */
type QuoteStanding =
  | { kind: 'open'; title: 'Ready to execute' }
  | { kind: 'expired'; title: 'Expired' }
  | { kind: 'executed'; title: string; status: string }
  | { kind: 'other'; title: string; status: string }

export function quoteStanding(o: {
  status: string
  /** The service's expiry has passed by this Paydesk's clock. */
  pastExpiry: boolean
  /** The status of the payment the execution started, when one is known (the live one first). */
  paymentStatus?: string | null | undefined
}): QuoteStanding {
  if (o.paymentStatus) {
    return { kind: 'executed', title: paymentStatusTitle('Quote payment', o.paymentStatus), status: o.paymentStatus }
  }
  if (o.status === 'EXPIRED' || (o.status === 'PENDING' && o.pastExpiry)) return { kind: 'expired', title: 'Expired' }
  if (o.status === 'PENDING') return { kind: 'open', title: 'Ready to execute' }
  // PROCESSING, COMPLETED, FAILED: the quote was executed; its payment's status is the quote's.
  return { kind: 'other', title: paymentStatusTitle('Quote payment', o.status), status: o.status }
}
