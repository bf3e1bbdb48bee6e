import { PagedEnvelope, readItems, Transaction } from '../../../shared/api'
import type { SyncStatus } from '../../../shared/ipc/channels/sync'
import type { ApiClient } from '../../infra/api-client'
import type { CacheStore } from '../../infra/cache/store'
import { TEXT_REBUILDING, textIndexBehind, textIndexDeferral } from '../../infra/cache/text-policy'
import { PageWriter } from './page-writer'

/**
 * A poll's first step: `GET /transactions?startDate=<scanFrom>&sortOrder=asc` pages through what was created since the
 * last poll (usually an empty page), each page read while the ones before it are written (PageWriter), at most
 * MAX_PAGES per poll. `tx.scanFrom` is the server's own time (Date header) of the previous complete listing minus the
 * overlap, so an idle poll re-reads only the last couple of seconds, whatever the history; while a long history is
 * still being read it is the newest createdAt seen, written in the same cache frame as the rows, so a crash never skips
 * or double-counts.
 */

const PAGE_LIMIT = 100
const MAX_PAGES = 50
/** Pages read while the cache writes are committed together up to this many rows (see PageWriter). */
const BATCH_ROWS = 1_000
const TEXT_BEHIND = '. Text search finds these transactions once the history is in.'
/** Re-read this much before the watermark, for items committed slightly out of createdAt order. */
const OVERLAP_MS = 2_000

export interface ListingDeps {
  client: ApiClient
  cache: CacheStore
  setStatus(patch: Partial<SyncStatus>): void
  /** Items the schema rejected: set aside and told, the rest of the page moves on. */
  setAside(ids: Array<string | undefined>): void
  /** Each transaction the cache took as new or changed, with what it held before. */
  record(t: Transaction, previous: Transaction | undefined): void
  /** The sync's state before this poll: a failing service is not told 'syncing' at each probe. */
  failing: boolean
  /** The previous poll stopped mid-catch-up (its text index is behind on purpose). */
  midCatchUp: boolean
}

export interface ListingRead {
  /** The history goes on past this poll's pages: the next poll follows straight on. */
  catchingUp: boolean
  /** The listing did not end (a cursor seen before, or an empty page claiming more): not followed further. */
  endless: boolean
  /** "Syncing history: n of m" while catching up, and its figures. */
  progress: string | undefined
  lastProgress: { done: number; total: number } | undefined
  /** Where the next poll starts, written with the poll's end (only once the listing is complete). */
  nextMeta: Record<string, unknown>
}

export class Listing {
  private writer: PageWriter<Transaction> | undefined

  constructor(private readonly d: ListingDeps) {}

  async read(): Promise<ListingRead> {
    const { cache } = this.d
    const scanFrom = cache.meta<string>('tx.scanFrom') ?? cache.meta<string>('tx.watermark')
    const startDate = scanFrom ? new Date(Date.parse(scanFrom)).toISOString() : undefined
    this.announce()
    const cachedAtStart = cache.count('transactions')
    let added = 0
    let cursor: string | undefined
    let pages = 0
    let serverTime: number | undefined
    let target: number | undefined
    const out: ListingRead = {
      catchingUp: false,
      endless: false,
      progress: undefined,
      lastProgress: undefined,
      nextMeta: {}
    }
    const seenCursors = new Set<string>()
    // The newest createdAt read so far: the cache's own lags behind while pages wait to be written.
    let newest = cache.meta<string>('tx.watermark')
    let textBehind = false
    const writer = (this.writer = new PageWriter<Transaction>(async (items, meta) => {
      added += await this.write(items, meta)
      // While the listing goes on (the last page read had a cursor): the final batch is followed by 'live'.
      if (cursor && target !== undefined) {
        const done = Math.min(target, cachedAtStart + added)
        out.progress = `Syncing history: ${fmt(done)} of ${fmt(target)}${textBehind ? TEXT_BEHIND : ''}`
        out.lastProgress = { done, total: target }
        this.d.setStatus({ state: 'syncing', message: out.progress, progress: out.lastProgress })
      }
    }, BATCH_ROWS))
    do {
      const page = await this.d.client.request('GET', 'transactions', {
        schema: PagedEnvelope,
        retry: 'idempotent',
        query: {
          sortOrder: 'asc',
          limit: PAGE_LIMIT,
          ...(startDate !== undefined && { startDate }),
          ...(cursor !== undefined && { cursor })
        },
        onHeaders: (headers) => {
          const date = typeof headers['date'] === 'string' ? Date.parse(headers['date']) : NaN
          if (pages === 0 && !Number.isNaN(date)) serverTime = date
        }
      })
      pages++
      // Each item on its own: one the schema rejects is set aside, the rest of the page (and the watermark) moves on.
      const { items, rejected } = readItems(Transaction, page.data)
      this.d.setAside(rejected.map((r) => r.id))
      newest = newestCreated(page.data, newest)
      const next = page.hasMore ? page.nextCursor : undefined
      // A listing that does not end (a cursor seen before, or an empty page that claims more) is not followed: the
      // poll settles with what it read and says so, instead of sending requests without end.
      if (next !== undefined && (seenCursors.has(next) || page.data.length === 0)) {
        out.endless = true
        cursor = undefined
      } else {
        cursor = next
        if (next !== undefined) seenCursors.add(next)
      }
      const meta: Record<string, unknown> = {}
      if (newest !== undefined) meta['tx.watermark'] = newest
      if (cursor && newest !== undefined) meta['tx.scanFrom'] = newest
      if (pages === 1 && cursor && typeof page.totalCount === 'number') {
        target = startDate === undefined ? page.totalCount : cachedAtStart + page.totalCount
        Object.assign(meta, textIndexDeferral(target - cachedAtStart, cachedAtStart))
      }
      if (textIndexBehind(cache) || textIndexBehind({ meta: (k) => meta[k] })) textBehind = true
      // Written behind the reading of the next page; the progress moves as the rows reach the cache.
      await writer.add(items, meta)
    } while (cursor && pages < MAX_PAGES)
    await writer.flush()
    out.catchingUp = cursor !== undefined
    if (!out.catchingUp) out.nextMeta = this.nextScan(scanFrom, serverTime)
    return out
  }

  /** What was already posted lands (or fails) before the changes it made are told (a poll that failed). */
  async settle(): Promise<void> {
    await this.writer?.settle()
  }

  /** A first sync, or a text index being rebuilt before this poll's writes, is told before the pages are read. */
  private announce(): void {
    const { cache } = this.d
    // Not while the service fails: a probe of an unreachable service saying 'syncing' each time made it flicker.
    if (!cache.meta('tx.watermark') && !this.d.failing) this.d.setStatus({ state: 'syncing' })
    // A text index left behind outside a catch-up (a cache just upgraded to a new schema, or a catch-up cut short)
    // is being rebuilt by the writer thread: minutes at a million rows, and this poll's writes wait behind it.
    else if (!this.d.midCatchUp && textIndexBehind(cache))
      this.d.setStatus({ state: 'syncing', message: TEXT_REBUILDING })
  }

  /** Writes a batch of pages; how many of its rows were new to the cache. */
  private async write(items: Transaction[], meta: Record<string, unknown>): Promise<number> {
    const { cache } = this.d
    const previous = new Map(items.map((t) => [t.id, cache.get<Transaction>('transactions', t.id)]))
    const changedIds = new Set(await cache.put('transactions', items, { meta }))
    let added = 0
    for (const t of items) {
      if (!changedIds.has(t.id)) continue
      this.d.record(t, previous.get(t.id))
      if (!previous.get(t.id)) added++
    }
    return added
  }

  /**
   * Everything created up to (server time − overlap) is committed and has been read. The Date header is the server's
   * clock truncated to the second, so it errs on the safe side; without it, the newest createdAt.
   */
  private nextScan(scanFrom: string | undefined, serverTime: number | undefined): Record<string, unknown> {
    const watermark = this.d.cache.meta<string>('tx.watermark')
    const base = serverTime ?? (watermark ? Date.parse(watermark) : undefined)
    const next = base !== undefined ? new Date(base - OVERLAP_MS).toISOString() : undefined
    const values: Record<string, unknown> = {}
    if (!watermark) values['tx.watermark'] = new Date(0).toISOString()
    if (next !== undefined && next !== scanFrom && (!scanFrom || Date.parse(next) > Date.parse(scanFrom)))
      values['tx.scanFrom'] = next
    return values
  }
}

/** The newest valid createdAt of a page's raw items (rejected ones included: they were listed), or `newest`. */
function newestCreated(data: unknown[], newest: string | undefined): string | undefined {
  for (const t of data) {
    const created = t !== null && typeof t === 'object' ? (t as { createdAt?: unknown }).createdAt : undefined
    if (typeof created !== 'string' || Number.isNaN(Date.parse(created))) continue
    if (!newest || Date.parse(created) > Date.parse(newest)) newest = created
  }
  return newest
}

const fmt = (n: number) => n.toLocaleString('en-US')
