import { TEXT_DEFERRED_KEY } from './schema'

/**
 * When the cache keeps its text index row by row, and when it leaves it behind for one rebuild: the cache's own policy,
 * which sync asks about while it reads a history. Keeping the index costs about as much per row as the row itself; a
 * backlog at least as big as the cache is cheaper to index once, at the end. The flag goes in with the rows (in the same
 * cache frame), so a crash leaves it set and the cache rebuilds at open.
 */

/** A backlog this large (and at least the size of the cache) is read without keeping the text index row by row. */
const DEFER_TEXT_BACKLOG = 5_000

export const TEXT_REBUILDING = 'Rebuilding the text search index: a search finds older transactions once it is done.'

/** The metadata to write with a listing's first rows: the deferral flag for a large backlog, else nothing. */
export function textIndexDeferral(backlog: number, cached: number): Record<string, unknown> {
  return backlog >= DEFER_TEXT_BACKLOG && backlog >= cached ? { [TEXT_DEFERRED_KEY]: true } : {}
}

/** The text index is behind (deferred during a catch-up, or being rebuilt after an upgrade). */
export function textIndexBehind(cache: { meta(key: string): unknown }): boolean {
  return cache.meta(TEXT_DEFERRED_KEY) === true
}
