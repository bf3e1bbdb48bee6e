import { invalidInput } from './sandbox-errors'
import type { Keyed, SortedIndex } from './sorted-index'

interface PageRequest<T> {
  limit: number
  cursor?: string | undefined
  order: 'asc' | 'desc'
  /** Inclusive time bounds (ms). */
  from?: number | undefined
  to?: number | undefined
  /** Remaining filters that the chosen index does not already guarantee. */
  predicate?: ((item: T) => boolean) | undefined
  /**
   * Memo for totalCount when a predicate forces a count over the range: `key` names the filters, `version` the state
   * of the data; a hit with the same version skips the count.
   */
  countCache?: { map: Map<string, { version: number; count: number }>; key: string; version: number } | undefined
}

export interface Page<T> {
  items: T[]
  hasMore: boolean
  nextCursor?: string
  totalCount: number
}

/**
 * Cursor = the (createdAt, id) key of the last item returned, opaque to clients (base64url JSON). Resuming strictly
 * after that key under a stable sort means that items created between two pages are never skipped (ascending: they
 * come after the key) nor repeated, and deleted items do not shift the remaining ones, unlike an offset.
 */
function encodeCursor(key: Keyed): string {
  return Buffer.from(JSON.stringify({ v: 1, t: key.t, id: key.id }), 'utf8').toString('base64url')
}

function decodeCursor(cursor: string): Keyed {
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url')
    const raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown
    if (
      raw &&
      typeof raw === 'object' &&
      (raw as { v?: unknown }).v === 1 &&
      Number.isFinite((raw as { t?: unknown }).t) &&
      typeof (raw as { id?: unknown }).id === 'string'
    ) {
      return { t: (raw as { t: number }).t, id: (raw as { id: string }).id }
    }
  } catch {
    // fall through
  }
  throw invalidInput('Invalid cursor: pass the nextCursor of a previous response unchanged', { cursor })
}

/** A page for a list query's `limit` and `cursor`, newest or oldest first, of the records `predicate` keeps. */
export function pageFor<T extends Keyed>(
  index: SortedIndex<T> | undefined,
  q: { limit: number; cursor?: string | undefined },
  order: 'asc' | 'desc',
  predicate: (r: T) => boolean
): Page<T> {
  return paginate(index, { limit: q.limit, cursor: q.cursor, order, predicate })
}

export function paginate<T extends Keyed>(index: SortedIndex<T> | undefined, req: PageRequest<T>): Page<T> {
  if (!index || index.size === 0) return { items: [], hasMore: false, totalCount: 0 }
  const arr = index.items
  const lo = req.from === undefined ? 0 : index.firstAtOrAfter(req.from)
  const hi = req.to === undefined ? arr.length : index.firstAfter(req.to)
  const pred = req.predicate
  let totalCount = 0
  if (hi > lo) {
    if (!pred) totalCount = hi - lo
    else {
      const cache = req.countCache
      const hit = cache?.map.get(cache.key)
      if (cache && hit && hit.version === cache.version) totalCount = hit.count
      else {
        for (let i = lo; i < hi; i++) if (pred(arr[i] as T)) totalCount++
        if (cache) {
          if (cache.map.size >= 256) cache.map.clear()
          cache.map.set(cache.key, { version: cache.version, count: totalCount })
        }
      }
    }
  }
  const items: T[] = []
  let hasMore = false
  const key = req.cursor !== undefined ? decodeCursor(req.cursor) : undefined
  // Ascending walks up from after the cursor; descending walks down from before it.
  const asc = req.order === 'asc'
  const step = asc ? 1 : -1
  let i = asc ? (key ? Math.max(lo, index.upperBound(key)) : lo) : (key ? Math.min(hi, index.lowerBound(key)) : hi) - 1
  for (; asc ? i < hi : i >= lo; i += step) {
    const it = arr[i] as T
    if (pred && !pred(it)) continue
    if (items.length === req.limit) {
      hasMore = true
      break
    }
    items.push(it)
  }
  const page: Page<T> = { items, hasMore, totalCount }
  const last = items[items.length - 1]
  if (hasMore && last) page.nextCursor = encodeCursor(last)
  return page
}
