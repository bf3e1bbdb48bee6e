/**
 * Where some rows of each list are, so a deep window starts from the nearest remembered position before it (keyset
 * paging through the sort's index) instead of counting every row before it (transaction-queries.ts window).
 */

/** Rows between two remembered positions of a list: a deep window walks at most this many index entries to its start. */
export const ANCHOR_STEP = 2_000
/** Lists (a filter in a sort) whose positions are remembered, the most recent kept. */
const ANCHORED_LISTS = 16
/** Positions remembered per list: a million rows at ANCHOR_STEP apart. */
const ANCHORS_PER_LIST = 1_000

/** Where a list's row at `position` is: the sort keys of the row just before it (keyset paging starts after them). */
interface Anchors {
  positions: number[]
  keys: unknown[][]
}

/** The remembered positions of the most recent lists, by list key. */
export class ListAnchors {
  private readonly lists = new Map<string, Anchors>()

  /** A list's remembered positions (none yet: an empty list of them, kept from now on). */
  of(list: string): Anchors {
    let anchors = this.lists.get(list)
    if (anchors) this.lists.delete(list)
    else anchors = { positions: [], keys: [] }
    // Most recently used last; the oldest list goes first.
    this.lists.set(list, anchors)
    if (this.lists.size > ANCHORED_LISTS) this.lists.delete(this.lists.keys().next().value!)
    return anchors
  }

  /** The data changed: every remembered position may be wrong. */
  clear(): void {
    this.lists.clear()
  }
}

/** Index of the greatest position at or before `offset` (-1: none). */
export function lastAtOrBefore(positions: readonly number[], offset: number): number {
  let [lo, hi] = [0, positions.length - 1]
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (positions[mid]! <= offset) lo = mid + 1
    else hi = mid - 1
  }
  return hi
}

/** Keeps a position in order; past the cap, the list keeps every other one (still at most twice as far apart). */
export function remember(list: Anchors, position: number, keys: unknown[]): void {
  const i = lastAtOrBefore(list.positions, position)
  if (list.positions[i] === position) return
  list.positions.splice(i + 1, 0, position)
  list.keys.splice(i + 1, 0, keys)
  if (list.positions.length > ANCHORS_PER_LIST) {
    list.positions = list.positions.filter((_, j) => j % 2 === 0)
    list.keys = list.keys.filter((_, j) => j % 2 === 0)
  }
}
