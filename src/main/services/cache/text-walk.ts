import type { TransactionSort } from '../../../shared/ipc/channels/data'
import type { SqliteDatabase } from './sqlite'
import { afterOf, upToOf } from './transaction-rows'

/**
 * How the window of a text search is found by walking its sort's index (transaction-queries.ts, plan 'probe'): in
 * stretches, each one longer, from the window's start. A stretch costs the pages of its entries the first time only
 * (walking the 12,000 entries already read again took 0.2-0.4 ms at a million rows, against 10-20 ms for reading
 * them), so a short first stretch that falls short loses little, and an overlong one reads pages the window never
 * needed. Within a stretch the candidates are only the rows from its least rowid up (TextSearch.floor): where rows
 * were written in about the order of their creation time, the top of a list holds the newest rowids, and a dense
 * needle's older candidates stay out of the IN list.
 *
 * A stretch that holds the whole window is exact: every entry up to its end was tested. One that falls short says how
 * dense the candidates are there; the next stretch is the first long enough, at that density, to hold the window.
 * When even the longest allowed one is not, a needle whose candidates cost less sorted than the whole index walked
 * (few of them, clustered away from the sort's start: '0035' at a million rows) is sorted at once, instead of walked
 * through a longer stretch first: its second stretch had cost 33 ms before the sort, for nothing.
 */

/** Stretch lengths: these many times what an even spread of the candidates needs (need × rows / candidates). */
export const WALK_SLACK = [1, 1.5, 2.5, 4, 8, 16, 32, 64] as const
/** The longest stretch a walk that may give up (Walk.sortAll) tries before sorting the candidates instead. */
export const GIVE_UP_SLACK = 4
/** The shortest stretch, in index entries: a few dozen index pages, a millisecond or two to read. */
export const MIN_STRETCH = 2_000
/** How much longer than the density seen says a next stretch is, so it does not fall just short. */
const MARGIN = 1.25

export interface Walk {
  /** How many rows hold the needle (exact), and about how many the sort's index holds. */
  candidates: number
  rows: number
  /** Matching rows the walk passes before its window ends (offset and limit, from where the walk starts). */
  need: number
  /** Of those, the window's own rows: fewer near the end of the list. */
  wanted: number
  /** The sort keys of the entry `budget` entries into the walk, or null when the list ends before it. */
  endAt(budget: number): unknown[] | null
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
  let i = 0
  for (;;) {
    const budget = stretchOf(walk, WALK_SLACK[i]!)
    const end = walk.endAt(budget)
    if (!end) return walk.select(null, null)
    const rows = walk.select(end, floorPays(walk.candidates, budget) ? walk.floorOf(end) : null)
    if (rows.length >= walk.wanted) return rows
    const next = nextStretch(walk, i, budget, rows.length)
    if (walk.sortAll) {
      if (next >= WALK_SLACK.length || WALK_SLACK[next]! > GIVE_UP_SLACK) return walk.sortAll()
      i = next
    } else {
      // A walk that cannot give up goes on stretch by stretch where no stretch is long enough (none found yet), then
      // walks the rest of the list, as it would without stretches.
      i = next < WALK_SLACK.length ? next : i + 1
      if (i >= WALK_SLACK.length) return walk.select(null, null)
    }
  }
}

/**
 * The index of the first stretch after `i` that, at the density stretch `i` showed (`found` of the window's rows in
 * `budget` entries; the rows it skipped for the offset count too), holds the window; WALK_SLACK.length for none.
 */
export function nextStretch(
  walk: Pick<Walk, 'candidates' | 'rows' | 'need' | 'wanted'>,
  i: number,
  budget: number,
  found: number
): number {
  const passed = found > 0 ? found + (walk.need - walk.wanted) : 0
  const projected = passed > 0 ? (MARGIN * budget * walk.need) / passed : Infinity
  let next = i + 1
  while (next < WALK_SLACK.length && stretchOf(walk, WALK_SLACK[next]!) < projected) next++
  return next
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
