import type { TransactionSort } from '../../../shared/ipc/channels/data'
import type { SqliteDatabase } from './sqlite'
import { nthHighestCandidate, type TextSearch } from './text-search'
import { afterOf, sortKeysOf, upToOf } from './transaction-rows'

/**
 * How the window of a text search is found by walking its sort's index (transaction-queries.ts, plan 'probe'): in
 * stretches, each one longer, from the window's start. A stretch costs the pages of its entries the first time only
 * (walking the 12,000 entries already read again took 0.2-0.4 ms at a million rows, against 10-20 ms for reading
 * them), so a stretch that falls short loses little, and an overlong one reads pages the window never needed.
 *
 * The first stretch ends where the candidates' rowids say the window does (Walk.firstStretch): rows are mostly written
 * in about the order of their creation time, so newest first, the window's last row is about as far down the list as
 * the need-th highest candidate rowid is below the highest rowid. FTS5 gives that rowid in well under a millisecond
 * (read from the end of its doclists); an even spread of the candidates is assumed otherwise. It is only an estimate:
 * a stretch that holds the whole window is exact whatever it was, as every entry up to its end was tested. One that
 * falls short says how dense the candidates are there, and the next stretch is long enough, at that density, to hold
 * the window. A needle whose candidates cost less sorted than the whole index walked (Walk.sortAll), and whose window
 * no stretch within the allowance would hold, is sorted at once: '0035' at a million rows (4,488 candidates, nearly
 * all in the oldest rows) walked two stretches, 33-52 ms, before its sort.
 *
 * Within a stretch, a dense needle's candidates are only the rows from the stretch's least rowid up (floorPays), so
 * its older candidates stay out of the IN list the walk tests against.
 */

/** The longest stretches, in times what an even spread of the candidates needs (need × rows / candidates). */
export const GIVE_UP_SLACK = 4
export const LONGEST_SLACK = 64
/** The shortest stretch, in index entries: a few dozen index pages, a millisecond or two to read. */
export const MIN_STRETCH = 2_000
/** How much longer than the density seen says a next stretch is, so it does not fall just short. */
const MARGIN = 1.25
/**
 * The same for the rowids' estimate, closer: where rowids follow creation time they place the window's end nearly
 * exactly, and every entry past it is a page read for nothing ('41e' at a million rows: 24,000 entries, 15-19 ms).
 */
export const ROWID_MARGIN = 1.05
/** A next stretch is at least this many times as long as the one that fell short, so a walk takes few of them. */
const MIN_GROWTH = 1.5

export interface Walk {
  /** How many rows hold the needle (exact), and about how many the sort's index holds. */
  candidates: number
  rows: number
  /** Matching rows the walk passes before its window ends (offset and limit, from where the walk starts). */
  need: number
  /** Of those, the window's own rows: fewer near the end of the list. */
  wanted: number
  /** Index entries to the window's end as the candidates' rowids say (see above), or null for an even spread. */
  firstStretch: number | null
  /** The sort keys of the entry `budget` entries into the walk, or null when the list ends before it. */
  endAt(budget: number): unknown[] | null
  /**
   * The same for the first stretch, found from the rowids (with firstStretch, see rowidEnd), or undefined to count
   * the entries (endAt) there too.
   */
  firstEndAt?: (budget: number) => unknown[] | null
  /** The least rowid among the entries from the walk's start up to `end`, or null to set no floor. */
  floorOf(end: unknown[]): number | null
  /** The window's rows among the entries up to `end` (null: the whole rest of the list), candidates from `floor` up. */
  select(end: unknown[] | null, floor: number | null): unknown[][]
  /** The window's rows from every candidate, sorted; null when that would cost more than walking the whole index. */
  sortAll: (() => unknown[][]) | null
}

/** The entries a stretch of this slack walks. */
export function stretchOf(walk: Pick<Walk, 'candidates' | 'rows' | 'need'>, slack: number): number {
  return Math.max(MIN_STRETCH, Math.ceil((slack * walk.need * walk.rows) / Math.max(1, walk.candidates)))
}

/**
 * Walked entries read again for a stretch's floor in the time of one candidate put in the IN list (measured at a
 * million rows, pages cached: 0.13-0.15 µs an entry, 0.33 µs a candidate), rounded down.
 */
const FLOOR_ENTRIES_PER_CANDIDATE = 2

/**
 * Whether a floor saves more than it costs: it reads the stretch's entries once more to leave out candidates below
 * it. So only a dense needle's stretch gets one ('003' at a million rows: 73,491 candidates, a stretch of 13,000).
 */
export function floorPays(candidates: number, budget: number): boolean {
  return candidates * FLOOR_ENTRIES_PER_CANDIDATE > budget
}

/** The window's rows (see above). */
export function walkInStretches(walk: Walk): unknown[][] {
  const longest = stretchOf(walk, walk.sortAll ? GIVE_UP_SLACK : LONGEST_SLACK)
  let budget = Math.max(MIN_STRETCH, Math.ceil(walk.firstStretch ?? stretchOf(walk, 1)))
  let endAt = walk.firstEndAt ?? walk.endAt
  for (;;) {
    if (budget > longest) return walk.sortAll ? walk.sortAll() : walk.select(null, null)
    const end = endAt(budget)
    endAt = walk.endAt
    if (!end) return walk.select(null, null)
    const rows = walk.select(end, floorPays(walk.candidates, budget) ? walk.floorOf(end) : null)
    if (rows.length >= walk.wanted) return rows
    budget = nextBudget(walk, budget, rows.length)
  }
}

/**
 * The next stretch after one of `budget` entries that held `found` of the window's rows (the rows it skipped for the
 * offset count too): long enough at that density to hold the window, and at least MIN_GROWTH times as long. None
 * found: endless for a walk that may give up instead (it sorts), twice as long for one that may not.
 */
export function nextBudget(walk: Pick<Walk, 'need' | 'wanted' | 'sortAll'>, budget: number, found: number): number {
  const passed = found > 0 ? found + (walk.need - walk.wanted) : 0
  if (passed === 0) return walk.sortAll ? Infinity : 2 * budget
  return Math.max(Math.ceil(MIN_GROWTH * budget), Math.ceil((MARGIN * budget * walk.need) / passed))
}

/**
 * The least rowid among a sort index's entries after `after` (null: from its start) up to `end`: a stretch's floor,
 * read from the entries themselves (the sort indexes carry the rowid), so only once they are built (schema 4).
 */
export function floorOf(
  db: SqliteDatabase,
  sort: TransactionSort,
  after: unknown[] | null,
  end: unknown[]
): number | null {
  const range = [after ? afterOf(sort, after) : null, upToOf(sort, end)].filter((c) => c !== null)
  // The unary + keeps SQLite from reading rowids in order from the table until one falls in the range.
  const floor = db
    .prepare(`SELECT min(+rid) FROM tx WHERE ${range.map((c) => c.sql).join(' AND ')}`)
    .pluck()
    .get(...range.flatMap((c) => c.params))
  return typeof floor === 'number' ? floor : null
}

/** How far from the highest rowid the newest row's may be for rowids to tell where a newest-first window ends. */
const NEWEST_ROWID_SKEW = 0.01

/**
 * Index entries from the top of a newest-first list to its `need`-th candidate, as the candidates' rowids say (see
 * above), or null when rowids do not follow creation time here. Sync reads a history oldest first and then what is
 * new (sync/engine.ts, sortOrder=asc), and an update keeps a row's rowid, so they mostly do: the newest row then has
 * about the highest rowid, which is checked (one entry at the top of the sort's index), so that a cache written some
 * other way is walked as an even spread says instead of sorted for a stretch the rowids made up.
 */
export function rowidStretch(db: SqliteDatabase, search: TextSearch, need: number, rows: number): number | null {
  const newest = db.prepare('SELECT rid FROM tx ORDER BY created_at DESC, id DESC LIMIT 1').pluck().get()
  if (typeof newest !== 'number' || rows - newest > rows * NEWEST_ROWID_SKEW) return null
  const rowid = nthHighestCandidate(db, search, need)
  return ROWID_MARGIN * (rowid === null ? rows : rows - rowid + 1)
}

/**
 * The end of a first stretch of `budget` entries from the top of a newest-first list whose rowids follow creation
 * time (rowidStretch said so): the keys of the row about `budget` rowids below the highest, found by one seek, where
 * counting the entries down to it read every one (13,699 for '86b' at a million rows: 6-10 ms of a 12-18 ms search,
 * cold). Null when the list ends before it. Only an estimate, as a stretch's end always is: the walk tests every
 * entry up to whatever end it is given, and one that falls short is followed by a longer stretch, counted.
 */
export function rowidEnd(db: SqliteDatabase, sort: TransactionSort, highest: number, budget: number): unknown[] | null {
  const row = db
    .prepare(`SELECT ${sortKeysOf(sort).join(', ')} FROM tx WHERE rid <= ? ORDER BY rid DESC LIMIT 1`)
    .raw()
    .get(highest - budget) as unknown[] | undefined
  return row ?? null
}
