import { z } from 'zod'

// The crash-safe journal of payments the operator started (transfers and quote executions): a record's schema, what
// its state means, and the keys that tell two records for the same payment apart from two payments.

/**
 * superseded: its outcome stayed unknown; a check at the service found nothing and the operator sent it again as
 * `supersededBy`.
 */
export const TRANSFER_JOURNAL_STATES = ['prepared', 'sent', 'unknown', 'refused', 'superseded'] as const
/** What a journal record pays: a transfer-out (the default, and every record written before quotes) or a quote's execution. */
export const PAYMENT_KINDS = ['transfer-out', 'quote-execute'] as const
export type PaymentKind = (typeof PAYMENT_KINDS)[number]

/** A payment the operator started, as the crash-safe journal knows it. */
export const TransferRecord = z.object({
  actionId: z.string(),
  kind: z.enum(PAYMENT_KINDS).optional(),
  /** The executed quote (kind quote-execute). */
  quoteId: z.string().optional(),
  sourceAccountId: z.string(),
  /** An external account id, or for a quote to an UMA address that address. */
  destinationAccountId: z.string(),
  /** Minor units leaving the source (for a quote, its totalSendingAmount). */
  amount: z.number().int(),
  /** A quote's request: the side whose amount was fixed, that amount, and the currency the receiver gets. */
  lockedSide: z.enum(['SENDING', 'RECEIVING']).optional(),
  lockedAmount: z.number().int().optional(),
  receivingCurrency: z.string().optional(),
  createdAt: z.string(),
  /**
   * prepared: key stored, not known to have reached the service; sent: the service answered with a transaction;
   * unknown: it may have gone through; refused: the service said no (or an expired quote was never executed).
   */
  state: z.enum(TRANSFER_JOURNAL_STATES),
  attempts: z.number().int().min(0),
  transactionId: z.string().optional(),
  transactionStatus: z.string().optional(),
  lastError: z.string().optional(),
  /** The last look-up of this payment at the service, and how many matching transactions it found. */
  checkedAt: z.string().optional(),
  checkFound: z.number().int().min(0).optional(),
  /** How many attempts had been made when that look-up ran: it vouches only while no attempt came after it. */
  checkedAtAttempt: z.number().int().min(0).optional(),
  /** The action that replaced this one ("it did not go through, send again"), and the one this replaces. */
  supersededBy: z.string().optional(),
  replaces: z.string().optional()
})
export type TransferRecord = z.infer<typeof TransferRecord>

/** Whether the outcome of a journal record is still open: no answer, or an attempt that may have reached the service. */
export function isUnresolvedTransfer(r: Pick<TransferRecord, 'state' | 'attempts'>): boolean {
  return r.state === 'unknown' || (r.state === 'prepared' && r.attempts > 0)
}

/**
 * Whether a record holds its payment: from the moment it is prepared until its outcome is known. While it does, every
 * other attempt at the same payment is refused, whatever its action or quote.
 */
export function holdsItsPayment(r: Pick<TransferRecord, 'state'>): boolean {
  return r.state === 'prepared' || r.state === 'unknown'
}

/** Whether the last look-up at the service found this payment: it went through, so it is not sent again. */
export function checkFoundIt(r: Pick<TransferRecord, 'checkFound'>): boolean {
  return (r.checkFound ?? 0) > 0
}

/** Whether a look-up ran after the last attempt: what it found still describes every attempt made. */
export function checkedSinceLastAttempt(r: Pick<TransferRecord, 'checkedAtAttempt' | 'attempts'>): boolean {
  return r.checkedAtAttempt === r.attempts
}

type IntentFields = Pick<
  TransferRecord,
  | 'kind'
  | 'quoteId'
  | 'sourceAccountId'
  | 'destinationAccountId'
  | 'amount'
  | 'lockedSide'
  | 'lockedAmount'
  | 'receivingCurrency'
>

/** The key of a quote request: what it pays, from where, to whom; the quote id and the rate do not change that. */
export function quoteRequestKey(r: {
  source: { accountId: string }
  destination: { accountId?: string; umaAddress?: string; currency?: string }
  lockedCurrencySide: string
  lockedCurrencyAmount: number
}): string {
  const to = r.destination.accountId ?? r.destination.umaAddress ?? ''
  // An account's currency is the account's; an UMA address receives what the request asked for (or the service picks).
  return [
    'quote',
    r.source.accountId,
    to,
    r.destination.currency ?? '',
    r.lockedCurrencySide,
    r.lockedCurrencyAmount
  ].join('|')
}

/**
 * The payment a record (or a new attempt) makes, whatever action or quote carries it: two with a key in common are the
 * same payment. A transfer is its accounts and amount (the source's currency); a quote execution is its request, and
 * its quote (a quote pays once).
 */
export function paymentIntentKeys(r: IntentFields): string[] {
  if ((r.kind ?? 'transfer-out') === 'transfer-out') {
    return [['transfer-out', r.sourceAccountId, r.destinationAccountId, r.amount].join('|')]
  }
  const request = quoteRequestKey({
    source: { accountId: r.sourceAccountId },
    destination: {
      accountId: r.destinationAccountId,
      ...(r.receivingCurrency !== undefined && { currency: r.receivingCurrency })
    },
    // Records from before requests were kept fixed the sending side.
    lockedCurrencySide: r.lockedSide ?? 'SENDING',
    lockedCurrencyAmount: r.lockedAmount ?? r.amount
  })
  return r.quoteId === undefined ? [request] : [request, `quote-id|${r.quoteId}`]
}
