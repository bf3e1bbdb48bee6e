import { isTooShortTransactionSearch, transactionSearchNeedle } from '../../../shared/transaction-search'
import type { SqliteDatabase } from './sqlite'

/**
 * How a transaction text search is answered from the trigram index (tx_search, schema 4). The index keeps positions,
 * so the needle, quoted, is one phrase query: the rows holding its trigrams one after another, which is exactly the
 * rows whose text contains it. No row is read to confirm a match.
 */
export interface TextSearch {
  /** The trimmed, lowercased needle. */
  needle: string
  /** The FTS5 query: the needle as one phrase (or, from matchOf, that phrase led by its rarer parts). */
  match: string
  /**
   * Set when `match` is only a rarer part of the needle (leadOf) with few candidates: each candidate row's own text is
   * then checked for the needle (candidatesOf), instead of the index's doclists of its dense trigrams.
   */
  verify?: boolean
  /**
   * Only rows from this rowid up are candidates: set for a walk over a stretch of the sort's index whose entries all
   * have rowids at least this (text-walk.ts), so the rowids below it never go into the IN list the walk tests against.
   * A needle in one row of fourteen ('003' at a million rows, 73,491 rows) spent 24-31 ms building that list.
   */
  floor?: number
  /** The candidates themselves, when the walk read them from FTS5 already (candidatesFrom): the floor's, in a list. */
  rowids?: number[]
  /**
   * The customers whose names hold the needle (names.ts): their transactions are candidates too, read by the customer
   * index. The text index alone then does not list every candidate, so the ways that read only it are left out.
   */
  customers?: string[]
}

/** The search of a filter, or null for none. Shorter than three characters never gets here: the filter refuses it. */
export function textSearchOf(search: string | undefined): TextSearch | null {
  const needle = transactionSearchNeedle(search)
  if (!needle) return null
  // The shared filter refuses these before main sees them; a caller that skipped it must not get a table scan instead.
  if (isTooShortTransactionSearch(needle)) throw new Error('A transaction search needs at least 3 characters')
  return { needle, match: phraseOf(needle) }
}

const phraseOf = (text: string) => `"${text.replaceAll('"', '""')}"`

/** A needle's trigrams, as the trigram tokenizer cuts it: three characters (code points) from each position. */
export function trigramsOf(needle: string): string[] {
  const chars = [...needle]
  return chars.slice(0, -2).map((_, i) => chars.slice(i, i + 3).join(''))
}

/**
 * A trigram left out of the leading phrases when its doclist spans this many times the rarest one's pages: FTS5 walks
 * a phrase's trigrams together, seeking each one to every rowid where the others meet, so a trigram that every row
 * holds ('000' in ids, 5,900 pages at a million rows) costs a page read at nearly each step.
 */
const DENSE_SPAN_RATIO = 4

/**
 * The FTS5 query for a needle, given the pages each of its trigrams spans in the index (trigramSpans): its lead
 * (leadOf), then the whole needle as a phrase. FTS5 steps through an AND from its first phrase and tests the last one
 * only on the rows the others share. Exact whatever the spans say: every part is a substring of the needle, so the
 * whole phrase decides which rows match, as it does alone.
 */
export function matchOf(needle: string, spans: readonly number[]): string {
  const lead = leadOf(needle, spans)
  return lead === null ? phraseOf(needle) : `${lead} AND ${phraseOf(needle)}`
}

/**
 * The runs of a needle's trigrams that are not dense, each as a phrase (a part of the needle), rarest first; null when
 * no trigram is dense (the whole needle is its own best lead). Every row holding the needle holds its lead, and few
 * others do. A phrase with a dense trigram costs its doclist whichever way FTS5 meets it: the newest id's last 8
 * characters at a million rows took 17-21 ms as a phrase, led or not, and 1 ms as its lead alone.
 */
export function leadOf(needle: string, spans: readonly number[]): string | null {
  if (spans.length < 2) return null
  const rarest = Math.max(1, Math.min(...spans))
  const chars = [...needle]
  const runs: { text: string; span: number }[] = []
  let start = -1
  for (let i = 0; i <= spans.length; i++) {
    const rare = i < spans.length && spans[i]! <= rarest * DENSE_SPAN_RATIO
    if (rare && start < 0) start = i
    if (!rare && start >= 0) {
      // Trigrams start..i-1 cover the characters start..i+1.
      runs.push({ text: chars.slice(start, i + 2).join(''), span: Math.min(...spans.slice(start, i)) })
      start = -1
    }
  }
  if (runs.length === 1 && runs[0]!.text.length === chars.length) return null
  runs.sort((a, b) => a.span - b.span)
  return runs.map((r) => phraseOf(r.text)).join(' AND ')
}

/**
 * How a needle of several trigrams is met: by its lead's candidates checked one by one, when they are few, or by FTS5
 * checking the whole phrase led by its rarer parts (matchOf).
 */
export function planOf(db: SqliteDatabase, plain: TextSearch): TextSearch {
  const spans = trigramSpans(db, plain.needle)
  const lead = leadOf(plain.needle, spans)
  if (lead === null) return plain
  // The lead's candidates are counted (a millisecond) only when the whole phrase could cost more than a few rows.
  const led = { ...plain, match: lead }
  if (checksCandidates(1, spans) && checksCandidates(countCandidates(db, led), spans)) return { ...led, verify: true }
  return { ...plain, match: matchOf(plain.needle, spans) }
}

/**
 * Doclist pages of the index read in the time of one row read (measured at a million rows: a phrase through a trigram
 * spanning 5,891 pages took 14-21 ms, about 3 µs a page; checking a candidate's text about 18 µs), rounded up.
 */
const PAGES_PER_ROW_READ = 8

/**
 * Whether a needle's lead, with this many candidates, is cheaper checked row by row than FTS5 checking the whole
 * phrase, whose densest trigram's doclist (spans, trigramSpans) it reads: '000' in every id at a million rows.
 */
export function checksCandidates(leadCandidates: number, spans: readonly number[]): boolean {
  return leadCandidates * PAGES_PER_ROW_READ < Math.max(0, ...spans)
}

/**
 * The rowids of the rows holding a search's needle, as a subquery: the FTS5 query's matches, or, for a lead to verify,
 * the lead's candidates whose own text holds the needle. The text is the very one the index was built from, lowercased
 * like the needle (src/shared/transaction-search.ts), so both ways find the same rows: the substring.
 */
export function candidatesOf(search: TextSearch): { sql: string; params: unknown[] } {
  if (search.rowids) return { sql: 'SELECT value FROM json_each(?)', params: [JSON.stringify(search.rowids)] }
  const text = textCandidatesOf(search)
  if (!search.customers?.length) return text
  const floor = search.floor === undefined ? '' : ' AND rid >= ?'
  return {
    sql: `${text.sql} UNION SELECT rid FROM tx WHERE customer_id IN (SELECT value FROM json_each(?))${floor}`,
    params: [...text.params, JSON.stringify(search.customers), ...(search.floor === undefined ? [] : [search.floor])]
  }
}

/** The rows whose own text holds a search's needle (see candidatesOf), as a subquery. */
function textCandidatesOf(search: TextSearch): { sql: string; params: unknown[] } {
  // FTS5 seeks its doclists to the first rowid at or above the floor instead of reading them from the start.
  const floor = search.floor === undefined ? '' : ' AND tx_search.rowid >= ?'
  const floors = search.floor === undefined ? [] : [search.floor]
  if (!search.verify)
    return { sql: `SELECT rowid FROM tx_search WHERE tx_search MATCH ?${floor}`, params: [search.match, ...floors] }
  return {
    sql: `SELECT tx.rid FROM tx_search JOIN tx ON tx.rid = tx_search.rowid WHERE tx_search MATCH ?${floor} AND instr(tx.search, ?) > 0`,
    params: [search.match, ...floors, search.needle]
  }
}

/**
 * The rowid of a search's n-th highest candidate, or null when it has fewer: FTS5 reads its doclists from their end
 * for a descending order, in well under a millisecond ('003' at a million rows: 0.1-0.4 ms, where its count takes
 * 4-8 ms). Null for a lead to verify, whose candidates are not yet the needle's.
 */
export function nthHighestCandidate(db: SqliteDatabase, search: TextSearch, n: number): number | null {
  if (search.verify || search.customers) return null
  const rowid = db
    .prepare('SELECT rowid FROM tx_search WHERE tx_search MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?')
    .pluck()
    .get(search.match, Math.max(0, n - 1))
  return typeof rowid === 'number' ? rowid : null
}

/**
 * A search's candidates from `floor` up, highest first, or null when there are more than `cap` (or for a lead to
 * verify). Read from the end of the doclists and stopped at the floor: FTS5 honours a lower bound on rowids by reading
 * its doclists from the start (6-12 ms for '003' at a million rows, whatever the bound), but starts a descending read
 * at the end.
 */
export function candidatesFrom(db: SqliteDatabase, search: TextSearch, floor: number, cap: number): number[] | null {
  if (search.verify || search.customers) return null
  const rowids: number[] = []
  const statement = db.prepare('SELECT rowid FROM tx_search WHERE tx_search MATCH ? ORDER BY rowid DESC').pluck()
  // Leaving the loop early resets the statement: FTS5 reads no further.
  for (const rowid of statement.iterate(search.match) as Iterable<number>) {
    if (rowid < floor) break
    if (rowids.length >= cap) return null
    rowids.push(rowid)
  }
  return rowids
}

/**
 * How many rows hold a search's needle: the rows of candidatesOf, counted (as a subquery, FTS5 counts its matches as
 * fast as it does directly: 0.5-87 ms either way at a million rows).
 */
export function countCandidates(db: SqliteDatabase, search: TextSearch): number {
  const { sql, params } = candidatesOf(search)
  return Number(
    db
      .prepare(`SELECT count(*) FROM (${sql})`)
      .pluck()
      .get(...params)
  )
}

/**
 * The text index's segments, one row (`segment.id`, ending with a null) per segment: a skip scan of the page directory
 * (tx_search_idx, keyed by segment), a seek per segment, where DISTINCT would read every directory entry.
 */
export const TEXT_SEGMENTS = `
  WITH RECURSIVE segment(id) AS (
    SELECT min(segid) FROM tx_search_idx
    UNION ALL SELECT (SELECT min(segid) FROM tx_search_idx WHERE segid > segment.id) FROM segment WHERE id IS NOT NULL
  )`

/**
 * The leaf pages a trigram's doclist spans in the index beyond the one it starts on, summed over the segments, read
 * from the index's own page directory (tx_search_idx: per segment, the first term of each leaf page, as FTS5 keeps it
 * for its own seeks; a key is '0' then the term). A few B-tree seeks per segment: the pages between the directory
 * entry at or before the term and the one after it. Only a cost estimate: a layout that differs gives a worse plan,
 * never a wrong answer.
 */
const TRIGRAM_SPAN = `
  ${TEXT_SEGMENTS}
  SELECT coalesce(sum(
    coalesce(
      (SELECT pgno >> 1 FROM tx_search_idx WHERE segid = segment.id AND term > @term ORDER BY term LIMIT 1),
      (SELECT max(pgno) >> 1 FROM tx_search_idx WHERE segid = segment.id) + 1
    ) - coalesce(
      (SELECT pgno >> 1 FROM tx_search_idx WHERE segid = segment.id AND term <= @term ORDER BY term DESC LIMIT 1), 1
    ) - 1
  ), 0) FROM segment WHERE id IS NOT NULL
`

/** The pages each trigram of a needle spans in the text index (see TRIGRAM_SPAN). */
export function trigramSpans(db: SqliteDatabase, needle: string): number[] {
  const span = db.prepare(TRIGRAM_SPAN).pluck()
  return trigramsOf(needle).map((t) => Number(span.get({ term: Buffer.from(`0${t}`) })))
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
