import type { Transaction } from '../../../../shared/api'

/**
 * The figures of a payment's review: fee, total debit, balance after and expected arrival, from what the service
 * returned. The service publishes no fee before a transfer-out is sent (spec 4.10: the Transaction it answers carries
 * `fees`), so the review shows the fee it charged on the latest transfer-out in this currency, says so, and the result
 * shows the fee of this very payment once the service accepted it. All amounts in integer minor units.
 */

/** What the service charged on an earlier transfer-out in the same currency, and how long it took to complete. */
export interface FeeBasis {
  fee: number
  transactionId: string
  createdAt: string | undefined
  /** From creation to settlement of that payment, when it completed; null when the service did not say. */
  tookMs: number | null
}

type Outgoing = Transaction & {
  type?: string
  quoteId?: string
  fees?: number
  sentAmount?: { amount: number; currency: { code: string } }
  source?: { accountId?: string }
}

/** A settlement time longer than this is not a payment's usual arrival (a seeded or held one): not used to predict. */
const MAX_ARRIVAL_MS = 7 * 24 * 3_600_000

/**
 * The latest transfer-out (outgoing, not a quote's payment) in `currency` with a fee the service stated, newest first;
 * one from `sourceAccountId` wins over another account's.
 */
export function feeBasisFrom(rows: readonly Transaction[], currency: string, sourceAccountId: string): FeeBasis | null {
  const candidates = (rows as Outgoing[]).filter(
    (t) =>
      t.type === 'OUTGOING' &&
      !t.quoteId &&
      typeof t.fees === 'number' &&
      Number.isInteger(t.fees) &&
      t.fees >= 0 &&
      t.sentAmount?.currency.code === currency
  )
  const chosen = candidates.find((t) => t.source?.accountId === sourceAccountId) ?? candidates[0]
  if (!chosen) return null
  const createdAt = typeof chosen.createdAt === 'string' ? chosen.createdAt : undefined
  return { fee: chosen.fees!, transactionId: chosen.id, createdAt, tookMs: arrivalMs(chosen) }
}

function arrivalMs(t: Outgoing): number | null {
  if (t.status !== 'COMPLETED' || typeof t.settledAt !== 'string' || typeof t.createdAt !== 'string') return null
  const ms = Date.parse(t.settledAt) - Date.parse(t.createdAt)
  return Number.isFinite(ms) && ms >= 0 && ms <= MAX_ARRIVAL_MS ? ms : null
}

export interface ReviewFigures {
  fee: number | null
  /** Amount plus fee: what leaves the account. */
  totalDebit: number | null
  /** The balance as last synced, less the total debit. */
  balanceAfter: number | null
}

export function reviewFigures(amount: number, balance: number, fee: number | null): ReviewFigures {
  if (fee === null) return { fee: null, totalDebit: null, balanceAfter: null }
  const totalDebit = amount + fee
  return { fee, totalDebit, balanceAfter: balance - totalDebit }
}

/** "about 6 seconds", "about 3 minutes", "about 2 hours", "about 2 days". */
export function durationWords(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000))
  const [n, unit] =
    s < 90
      ? [s, 'second']
      : s < 90 * 60
        ? [Math.round(s / 60), 'minute']
        : s < 36 * 3600
          ? [Math.round(s / 3600), 'hour']
          : [Math.round(s / 86_400), 'day']
  return `about ${n} ${unit}${n === 1 ? '' : 's'}`
}

/** What a sent payment debited, by the service's own figures: `sentAmount` includes the fee (`fees`). */
export function sentFigures(t: Transaction): { fee: number | null; totalDebit: number | null } {
  const o = t as Outgoing
  return {
    fee: typeof o.fees === 'number' ? o.fees : null,
    totalDebit: typeof o.sentAmount?.amount === 'number' ? o.sentAmount.amount : null
  }
}
