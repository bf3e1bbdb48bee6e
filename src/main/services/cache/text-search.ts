import { isTooShortTransactionSearch, transactionSearchNeedle } from '../../../shared/transaction-search'

/**
 * How a transaction text search is answered from the trigram index (tx_search, schema 4). The index keeps positions,
 * so the needle, quoted, is one phrase query: the rows holding its trigrams one after another, which is exactly the
 * rows whose text contains it. No row is read to confirm a match.
 */
export interface TextSearch {
  /** The FTS5 query: the lowercased needle as one phrase. */
  match: string
}

/** The search of a filter, or null for none. Shorter than three characters never gets here: the filter refuses it. */
export function textSearchOf(search: string | undefined): TextSearch | null {
  const needle = transactionSearchNeedle(search)
  if (!needle) return null
  // The shared filter refuses these before main sees them; a caller that skipped it must not get a table scan instead.
  if (isTooShortTransactionSearch(needle)) throw new Error('A transaction search needs at least 3 characters')
  return { match: `"${needle.replaceAll('"', '""')}"` }
}

/**
 * How the candidates of a search meet the rest of the query:
 * - 'drive': read each candidate row, then sort them (cheap for a few, a row read each: ~12 µs at 100k rows);
 * - 'probe': walk the sort's (or another filter's) index and keep the entries whose rowid is a candidate, stopping
 *   at the window's end (an index entry costs 0.05-0.15 µs; no row is read).
 */
export type TextPlan = 'drive' | 'probe'

/** Index entries worth one candidate row read (measured at 100k rows: ~12 µs per row read, 0.05-0.15 µs per entry). */
const ENTRIES_PER_ROW_READ = 100

/**
 * The cheaper way to find the first `wanted` rows in order: sorting all `candidates`, or walking an index of about
 * `rows` entries until `wanted` candidates went by (when they are spread evenly, wanted × rows / candidates entries).
 */
export function windowPlanOf(candidates: number, rows: number, wanted: number): TextPlan {
  if (candidates === 0) return 'drive'
  const walked = Math.min(rows, (wanted * rows) / candidates)
  return walked < candidates * ENTRIES_PER_ROW_READ ? 'probe' : 'drive'
}

/**
 * The cheaper way to count the candidates that meet other filters too: reading every candidate row, or walking the
 * other filters' index (at most every row's entry) and testing membership.
 */
export function countPlanOf(candidates: number, rows: number): TextPlan {
  return rows < candidates * ENTRIES_PER_ROW_READ ? 'probe' : 'drive'
}
