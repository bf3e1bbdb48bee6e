import type { TransactionSort } from '../../../shared/ipc/channels/data'
import { creationOrderKnown, textDeferred } from './schema'
import type { SqliteDatabase } from './sqlite'
import type { TextSearch } from './text-search'

/**
 * A search's first rows in creation order, found from the candidates' rowids (schema.ts migration 6). Rows not written
 * late have rowids in their creation order, so the `need` newest of a search's candidates are among its `need`
 * highest-rowid candidates that were not written late, and its late ones: FTS5 reads the first from the end of its
 * doclists, in well under a millisecond. Sorting that short list is the window, exactly (the oldest first: the same
 * from the start of the doclists). Walking the creation-time index down to the window's end read 10,000-14,000 index
 * entries for a dense needle at a million rows ('003': 10 ms cold), and sorting a clustered needle's every candidate
 * read 4,488 keys ('0035': 9-13 ms).
 */

/** Late rows at most: each one is a row read (about 12 µs), and a sync that writes in order makes none. */
export const MOST_LATE = 256
/** Rows from the top at most: each candidate is read from FTS5 one by one. */
export const DEEPEST = 1_000

/**
 * The rowids to sort for the first `need` rows of a search in creation order (see above), or null when this cannot
 * say: the late rows not listed yet, too many of them, a search whose index matches are only candidates to check or
 * are not all of them (a customer's name matched), or a text index left behind during a catch-up (its count would
 * then not hold the late rows this finds in their text).
 */
export function candidatesInCreationOrder(
  db: SqliteDatabase,
  search: TextSearch,
  direction: TransactionSort['direction'],
  need: number
): number[] | null {
  if (search.verify || search.customers || search.floor !== undefined || search.rowids || need > DEEPEST) return null
  if (!creationOrderKnown(db) || textDeferred(db)) return null
  const late = db
    .prepare(`SELECT rid FROM tx_late LIMIT ${MOST_LATE + 1}`)
    .pluck()
    .all() as number[]
  if (late.length > MOST_LATE) return null
  // Each late row's own text, the one its index entries were made from (text-search.ts candidatesOf): FTS5 does not
  // narrow a match to one rowid (asked for both, it answered rows that do not hold the needle). CROSS JOIN keeps the
  // late rows the outer loop: the planner, told a million rows are in tx (schema.ts migration 2), scanned all of them
  // for the late ones instead (8 s).
  const lateCandidates = db
    .prepare('SELECT tx.rid FROM tx_late CROSS JOIN tx ON tx.rid = tx_late.rid WHERE instr(tx.search, ?) > 0')
    .pluck()
    .all(search.needle) as number[]
  const skip = new Set(late)
  const listed = [...lateCandidates]
  const order = direction === 'desc' ? 'DESC' : 'ASC'
  const statement = db.prepare(`SELECT rowid FROM tx_search WHERE tx_search MATCH ? ORDER BY rowid ${order}`).pluck()
  let inOrder = 0
  // Leaving the loop early resets the statement: FTS5 reads no further.
  for (const rowid of statement.iterate(search.match) as Iterable<number>) {
    if (inOrder >= need) break
    if (skip.has(rowid)) continue
    listed.push(rowid)
    inOrder += 1
  }
  return listed
}
