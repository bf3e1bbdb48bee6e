import type { Transaction } from './api'

/**
 * One definition of what a transaction text search looks at and how a needle is read, for main (which indexes this
 * text in the cache's trigram index) and for the renderer (which narrows a whole answer it already holds while main's
 * own answer is on its way).
 */

/**
 * Free text over transactions starts at three characters: the cache answers it from a trigram index, which cannot
 * answer a shorter needle, and one or two characters over a payments history match nearly everything anyway. Counted
 * in characters (code points), as the index counts them. Empty means no text filter. Kept here, free of zod, because
 * the cache's writer thread reads it: importing the contract there built every schema in that thread at each start.
 */
export const MIN_TRANSACTION_SEARCH_CHARS = 3
export const TRANSACTION_SEARCH_TOO_SHORT = `Search needs at least ${MIN_TRANSACTION_SEARCH_CHARS} characters`
/** True for text the transactions search would refuse: one or two characters once trimmed. */
export function isTooShortTransactionSearch(text: string): boolean {
  const length = [...text.trim()].length
  return length > 0 && length < MIN_TRANSACTION_SEARCH_CHARS
}

type Loose = Record<string, unknown> & {
  source?: { umaAddress?: string; accountId?: string }
  destination?: { umaAddress?: string; accountId?: string }
  reconciliationInstructions?: { reference?: string }
}

/**
 * What a transaction's own text search matches: id, description, customer ids, reference, UMA addresses and account
 * ids, lowercased. (A search also finds a customer's transactions by the customer's name: see holdsTransactionNeedle.)
 */
export function transactionSearchText(t: Transaction): string {
  const r = t as Loose
  return [
    t.id,
    r['description'],
    r['customerId'],
    r['platformCustomerId'],
    r.reconciliationInstructions?.reference,
    r.source?.umaAddress,
    r.destination?.umaAddress,
    r.source?.accountId,
    r.destination?.accountId
  ]
    .filter((s): s is string => typeof s === 'string')
    .join('\n')
    .toLowerCase()
}

/** The needle a search looks for: trimmed and lowercased ('' for none). */
export const transactionSearchNeedle = (search: string | undefined): string => (search ?? '').trim().toLowerCase()

/**
 * Whether a transaction holds a needle of four characters or more, exactly as main decides it: main's trigram index
 * keeps positions, so it finds the rows whose text (this very text) holds the needle's trigrams one after another,
 * which is the substring; and main finds a customer's transactions by their name (the label the cache keeps,
 * lowercased the same way). A three-character needle is left to main (null), as is a needle with U+FFFD or a lone
 * surrogate, which SQLite and JavaScript strings do not hold alike.
 */
export function holdsTransactionNeedle(t: Transaction, needle: string, customerName?: string): boolean | null {
  if ([...needle].length < 4 || /[\uD800-\uDFFF\uFFFD]/.test(needle)) return null
  return transactionSearchText(t).includes(needle) || (customerName?.toLowerCase().includes(needle) ?? false)
}
