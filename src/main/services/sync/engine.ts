import { PagedEnvelope, readItems, Transaction } from '../../../shared/api'
import type { SyncStatus, TransactionChange } from '../../../shared/ipc/channels/sync'
import type { ApiClient } from '../api-client'
import { ApiError } from '../api-errors'
import { TEXT_DEFERRED_KEY } from '../cache/schema'
import type { CacheStore } from '../cache/store'
import type { ConnectionMonitor } from './connection-state'
import { PageWriter } from './page-writer'
import { PollScheduler, type SchedulerClock, type PollOutcome, type SchedulerState } from './scheduler'

/**
 * Live sync of a profile's transactions. A poll costs what changed, not the history:
 * 1. `GET /transactions?startDate=<watermark − overlap>&sortOrder=asc` pages through what was created since the last
 *    poll (usually an empty page); the watermark is the newest createdAt seen and is written in the same cache frame
 *    as the transactions, so a crash never skips or double-counts;
 * 2. `GET /transactions/{id}` for what is in flight: transfers the operator started, and once a minute a few other
 *    non-final transactions (least recently checked first). An incoming payment's PENDING is not an approval waiting
 *    (the service asks through the approval gate's webhook), so it is polled like any other non-final status.
 * A first sync of a large history runs page after page (at most MAX_PAGES per poll, then straight on), each page
 * read while the ones before it are written (PageWriter).
 */

const PAGE_LIMIT = 100
const MAX_PAGES = 50
/** Pages read while the cache writes are committed together up to this many rows (see PageWriter). */
const BATCH_ROWS = 1_000
/** A backlog this large (and at least the size of the cache) is read without keeping the text index row by row. */
const DEFER_TEXT_BACKLOG = 5_000
const TEXT_BEHIND = '. Text search finds these transactions once the history is in.'
export const TEXT_REBUILDING = 'Rebuilding the text search index: a search finds older transactions once it is done.'
/** Re-read this much before the watermark, for items committed slightly out of createdAt order. */
const OVERLAP_MS = 2_000
/** Other non-final transactions are re-checked a few at a time: every minute in front, every 15 minutes behind. */
const RECONCILE_EVERY_MS = 60_000
const RECONCILE_BACKGROUND_EVERY_MS = 15 * 60_000
const RECONCILE_PER_POLL = 5
const NON_FINAL = ['CREATED', 'PENDING', 'PROCESSING']

export const TERMINAL_STATUSES = new Set(['COMPLETED', 'FAILED', 'REJECTED', 'REFUNDED', 'EXPIRED'])

export interface SyncEngineDeps {
  profileId: string
  client: ApiClient
  cache: CacheStore
  clock: SchedulerClock
  log: (m: string) => void
  /** Transaction ids the operator started that are not final yet (checked every poll). */
  operatorInFlight: () => string[]
  /** Called after each poll that saw new transactions or status changes (before the events go out). */
  onChanges: (changes: TransactionChange[]) => Promise<void>
  onStatus: (status: SyncStatus) => void
  initial?: Partial<SchedulerState>
  /** What the client's requests did, as the top bar shows it: its changes go out in the status. */
  connection?: ConnectionMonitor
}

export class SyncEngine {
  readonly scheduler: PollScheduler
  private lastChecked = new Map<string, number>()
  private lastReconcile = 0
  private status: SyncStatus

  constructor(private readonly d: SyncEngineDeps) {
    const syncedAt = d.cache.meta<string>('tx.syncedAt') ?? null
    this.status = {
      profileId: d.profileId,
      state: 'live',
      lastSyncedAt: syncedAt,
      offlineSince: null,
      intervalMs: 0,
      reason: 'starting',
      ...(d.connection && { connection: d.connection.view })
    }
    if (d.connection) d.connection.onChange = (connection) => this.setStatus({ connection })
    this.scheduler = new PollScheduler(
      () => this.poll(),
      d.clock,
      d.initial,
      (decision) => {
        this.setStatus({ intervalMs: decision.ms, reason: decision.reason })
      }
    )
  }

  get current(): SyncStatus {
    return { ...this.status }
  }

  start(): void {
    this.scheduler.start()
  }

  stop(): void {
    this.scheduler.dispose()
    this.d.connection?.dispose()
  }

  /**
   * Something the operator must be told while sync runs normally (items set aside, a sandbox that started fresh): shown
   * as the status message until the session ends. Error and offline messages take its place while they last.
   */
  private notes: string[] = []
  private skipped = new Set<string>()

  private get notice(): string | undefined {
    const parts = [...this.notes, ...this.unendedListings.values()]
    if (this.skipped.size) {
      const ids = [...this.skipped]
      const shown = ids.slice(0, 5).join(', ') + (ids.length > 5 ? `, and ${ids.length - 5} more` : '')
      parts.push(
        ids.length === 1
          ? `1 transaction from the service could not be read and was skipped: ${shown}.`
          : `${ids.length} transactions from the service could not be read and were skipped: ${shown}.`
      )
    }
    return parts.length ? parts.join(' ') : undefined
  }

  /** Adds a note to the status message (see `notice`). */
  addNote(note: string): void {
    this.notes.push(note)
    if (this.status.state !== 'error' && this.status.state !== 'offline') this.setStatus({ message: this.notice! })
  }

  private unendedListings = new Map<string, string>()
  private unendedLogged = new Set<string>()
  /**
   * A collection listing (customers, accounts) that did not end: one sentence in the status while it lasts (logged the
   * first time only), gone once that listing ends again. Nothing is retried here: the next refresh, on its usual
   * schedule, reads the listing again from the start.
   */
  reportListing(path: string, outcome: { ended: true } | { ended: false; kept: number }): void {
    const before = this.notice
    if (outcome.ended) this.unendedListings.delete(path)
    else {
      const message =
        `The service’s listing of ${path} did not end (it sent the same page again), so Paydesk kept the ` +
        `${outcome.kept} read and will read it again at the next refresh.`
      this.unendedListings.set(path, message)
      if (!this.unendedLogged.has(path)) this.d.log(`sync ${this.d.profileId}: ${message}`)
      this.unendedLogged.add(path)
    }
    const state = this.status.state
    if (this.notice !== before && (state === 'live' || state === 'idle')) this.setStatus({ message: this.notice })
  }

  /** Transactions the schema rejected: logged by id (never their content) and counted, once each. */
  private setAside(ids: Array<string | undefined>): void {
    for (const raw of ids) {
      const id = raw === undefined ? '(without an id)' : raw.slice(0, 120)
      if (this.skipped.has(id)) continue
      this.skipped.add(id)
      this.d.log(`sync ${this.d.profileId}: transaction ${id} could not be read and was skipped`)
    }
  }

  private endlessReported = false
  /** Said once per session: the status keeps saying it while it lasts, the log only the first time. */
  private reportEndlessListing(): void {
    const message =
      'The service’s transaction list did not end (it sent the same page again), so Paydesk stopped reading it there; ' +
      'it reads on from the newest transaction at the next poll.'
    if (!this.endlessReported) this.d.log(`sync ${this.d.profileId}: ${message}`)
    this.endlessReported = true
    this.endlessMessage = message
  }
  private endlessMessage: string | undefined
  /** The last poll left history to read: a text index left behind is then this catch-up's own, rebuilt at its end. */
  private midCatchUp = false

  private setStatus(patch: Partial<SyncStatus>): void {
    const next = { ...this.status, ...patch }
    if (patch.progress === undefined) delete next.progress
    if (patch.state !== undefined && patch.state !== 'error' && patch.state !== 'offline') {
      if (patch.message === undefined) delete next.message
      delete next.code
    }
    const changed = JSON.stringify(next) !== JSON.stringify(this.status)
    this.status = next
    if (changed) this.d.onStatus(this.current)
  }

  /** One poll. Never throws: failures become an outcome the scheduler backs off on. */
  async poll(): Promise<PollOutcome> {
    const { client, cache } = this.d
    const changes: TransactionChange[] = []
    const touched: Transaction[] = []
    const record = (t: Transaction, previous: Transaction | undefined) => {
      const prevStatus = previous ? String((previous as { status?: unknown }).status ?? '') : null
      const status = String((t as { status?: unknown }).status ?? '')
      if (prevStatus !== status) changes.push({ id: t.id, type: String(t.type), status, previousStatus: prevStatus })
      touched.push(t)
    }
    let catchingUp = false
    const pendingMeta: Record<string, unknown> = {}
    let writer: PageWriter<Transaction> | undefined
    try {
      // 1. What was created since the last poll. `tx.scanFrom` is the server's own time (Date header) of the previous
      //    complete listing minus the overlap, so an idle poll re-reads only the last couple of seconds, whatever
      //    the history; while a long history is still being read it is the newest createdAt seen.
      const scanFrom = cache.meta<string>('tx.scanFrom') ?? cache.meta<string>('tx.watermark')
      const startDate = scanFrom ? new Date(Date.parse(scanFrom)).toISOString() : undefined
      let cursor: string | undefined
      let pages = 0
      let serverTime: number | undefined
      const firstSync = !cache.meta('tx.watermark')
      // Not while the service fails: a probe of an unreachable service saying 'syncing' each time made it flicker.
      if (firstSync && this.status.state !== 'offline' && this.status.state !== 'error')
        this.setStatus({ state: 'syncing' })
      // A text index left behind outside a catch-up (a cache just upgraded to a new schema, or a catch-up cut short)
      // is being rebuilt by the writer thread: minutes at a million rows, and this poll's writes wait behind it.
      else if (!this.midCatchUp && cache.meta(TEXT_DEFERRED_KEY) === true)
        this.setStatus({ state: 'syncing', message: TEXT_REBUILDING })
      // A long history is read over many pages and polls: the status says how far along it is, from totalCount.
      const cachedAtStart = cache.count('transactions')
      let added = 0
      let target: number | undefined
      let progress: string | undefined
      let lastProgress: { done: number; total: number } | undefined
      const seenCursors = new Set<string>()
      let endless = false
      // The newest createdAt read so far: the cache's own lags behind while pages wait to be written.
      let newest = cache.meta<string>('tx.watermark')
      let textBehind = false
      writer = new PageWriter<Transaction>(async (items, meta) => {
        const previous = new Map(items.map((t) => [t.id, cache.get<Transaction>('transactions', t.id)]))
        const changedIds = new Set(await cache.put('transactions', items, { meta }))
        for (const t of items) if (changedIds.has(t.id)) record(t, previous.get(t.id))
        for (const t of items) if (changedIds.has(t.id) && !previous.get(t.id)) added++
        // While the listing goes on (the last page read had a cursor): the final batch is followed by 'live'.
        if (cursor && target !== undefined) {
          const done = Math.min(target, cachedAtStart + added)
          progress = `Syncing history: ${fmt(done)} of ${fmt(target)}${textBehind ? TEXT_BEHIND : ''}`
          lastProgress = { done, total: target }
          this.setStatus({ state: 'syncing', message: progress, progress: { done, total: target } })
        }
      }, BATCH_ROWS)
      this.endlessMessage = undefined
      do {
        const page = await client.request('GET', 'transactions', {
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
        this.setAside(rejected.map((r) => r.id))
        for (const t of page.data) {
          const created = t !== null && typeof t === 'object' ? (t as { createdAt?: unknown }).createdAt : undefined
          if (typeof created !== 'string' || Number.isNaN(Date.parse(created))) continue
          if (!newest || Date.parse(created) > Date.parse(newest)) newest = created
        }
        const next = page.hasMore ? page.nextCursor : undefined
        // A listing that does not end (a cursor seen before, or an empty page that claims more) is not followed: the
        // poll settles with what it read and says so, instead of sending requests without end.
        if (next !== undefined && (seenCursors.has(next) || page.data.length === 0)) {
          endless = true
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
          // A backlog at least as big as the cache: keeping the text index row by row costs more than one rebuild
          // at the end. The flag goes in with the rows, so a crash leaves it set and the cache rebuilds at open.
          const backlog = target - cachedAtStart
          if (backlog >= DEFER_TEXT_BACKLOG && backlog >= cachedAtStart) meta[TEXT_DEFERRED_KEY] = true
        }
        if (cache.meta(TEXT_DEFERRED_KEY) === true || meta[TEXT_DEFERRED_KEY] === true) textBehind = true
        // Written behind the reading of the next page; the progress moves as the rows reach the cache.
        await writer.add(items, meta)
      } while (cursor && pages < MAX_PAGES)
      await writer.flush()
      catchingUp = cursor !== undefined
      this.midCatchUp = catchingUp
      // The history is in: the text index catches up in one go, before the poll says 'live'.
      if (!catchingUp && cache.meta(TEXT_DEFERRED_KEY) === true) {
        this.setStatus({ state: 'syncing', message: TEXT_REBUILDING })
        await cache.rebuildText()
      }
      if (endless) this.reportEndlessListing()
      if (!catchingUp) {
        // Everything created up to (server time − overlap) is committed and has been read. The Date header is the
        // server's clock truncated to the second, so it errs on the safe side; without it, use the newest createdAt.
        const watermark = cache.meta<string>('tx.watermark')
        const base = serverTime ?? (watermark ? Date.parse(watermark) : undefined)
        const next = base !== undefined ? new Date(base - OVERLAP_MS).toISOString() : undefined
        const values: Record<string, unknown> = {}
        if (!watermark) values['tx.watermark'] = new Date(0).toISOString()
        if (next !== undefined && next !== scanFrom && (!scanFrom || Date.parse(next) > Date.parse(scanFrom))) {
          values['tx.scanFrom'] = next
        }
        Object.assign(pendingMeta, values)
      }

      // 2. What is in flight.
      const now = this.d.clock.now()
      const listed = new Set(touched.map((t) => t.id))
      const operator = this.d.operatorInFlight().filter((id) => !listed.has(id))
      const byAge = (ids: string[]) =>
        [...ids].sort((a, b) => (this.lastChecked.get(a) ?? 0) - (this.lastChecked.get(b) ?? 0))
      const toCheck = new Set<string>(operator)
      const reconcileEvery = this.scheduler.inputs.foreground ? RECONCILE_EVERY_MS : RECONCILE_BACKGROUND_EVERY_MS
      if (now - this.lastReconcile >= reconcileEvery) {
        this.lastReconcile = now
        const stale = cache.transactions
          .query({ status: NON_FINAL }, { field: 'createdAt', direction: 'asc' })
          .filter((id) => !toCheck.has(id) && !listed.has(id))
        for (const id of byAge(stale).slice(0, RECONCILE_PER_POLL)) toCheck.add(id)
      }
      const fetched: Transaction[] = []
      for (const id of toCheck) {
        try {
          fetched.push(await client.get(`transactions/${encodeURIComponent(id)}`, Transaction))
        } catch (error) {
          // Gone, or now unreadable: the rest of the poll goes on (an unreadable one is reported like in a listing).
          if (error instanceof ApiError && error.code === 'UNEXPECTED_RESPONSE' && error.kind === 'unexpected')
            this.setAside([id])
          else if (!(error instanceof ApiError && error.code === 'NOT_FOUND')) throw error
        } finally {
          this.lastChecked.set(id, now)
        }
      }
      if (fetched.length) {
        const previous = new Map(fetched.map((t) => [t.id, cache.get<Transaction>('transactions', t.id)]))
        const changedIds = new Set(await cache.put('transactions', fetched))
        for (const t of fetched) if (changedIds.has(t.id)) record(t, previous.get(t.id))
      }
      const syncedAt = new Date().toISOString()
      await cache.setMeta({ ...pendingMeta, 'tx.syncedAt': syncedAt })
      if (changes.length) await this.d.onChanges(changes)
      this.setStatus({
        state: catchingUp ? 'syncing' : 'live',
        lastSyncedAt: syncedAt,
        offlineSince: null,
        ...(catchingUp && progress !== undefined
          ? { message: progress, ...(lastProgress !== undefined && { progress: lastProgress }) }
          : this.endlessMessage !== undefined
            ? { message: this.endlessMessage }
            : this.notice !== undefined && { message: this.notice })
      })
      const inFlight = operator.length > 0 || changes.length > 0
      return { ok: true, inFlight, catchingUp }
    } catch (error) {
      // What was already posted lands (or fails) before the changes it made are told.
      await writer?.settle()
      if (changes.length) await this.d.onChanges(changes).catch(() => {})
      if (error instanceof ApiError && (error.isNetwork || error.kind === 'tls')) {
        this.setStatus({
          state: 'offline',
          offlineSince: this.status.offlineSince ?? new Date().toISOString(),
          message: `Offline: ${error.message} Cached data stays available; changes are not queued.`,
          code: 'OFFLINE'
        })
        return { ok: false, kind: 'offline' }
      }
      const message = error instanceof ApiError ? error.message : 'Live sync failed inside Paydesk.'
      if (!(error instanceof ApiError))
        this.d.log(`sync ${this.d.profileId} failed: ${error instanceof Error ? error.name : 'error'}`)
      this.setStatus({
        state: 'error',
        message,
        ...(error instanceof ApiError && { code: error.code })
      })
      return {
        ok: false,
        kind: 'error',
        ...(error instanceof ApiError && error.retryAfterMs !== undefined && { retryAfterMs: error.retryAfterMs })
      }
    }
  }
}

const fmt = (n: number) => n.toLocaleString('en-US')
