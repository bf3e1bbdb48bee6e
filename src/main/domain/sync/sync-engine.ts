import { Transaction } from '../../../shared/api'
import type { SyncStatus, TransactionChange } from '../../../shared/ipc/channels/sync'
import type { ApiClient } from '../../infra/api-client'
import { ApiError } from '../../infra/api-errors'
import type { CacheStore } from '../../infra/cache/store'
import type { ConnectionMonitor } from './connection-state'
import { Listing, type ListingRead } from './listing'
import { PollScheduler, type SchedulerClock, type PollOutcome, type SchedulerState } from './poll-scheduler'

/**
 * Live sync of a profile's transactions. A poll costs what changed, not the history, in two named steps:
 * 1. the listing of what was created since the last poll (listing.ts: usually one empty page; a long history page
 *    after page, read while the ones before are written);
 * 2. `GET /transactions/{id}` for what is in flight: transfers the operator started, and once a minute a few other
 *    non-final transactions (least recently checked first). An incoming payment's PENDING is not an approval waiting
 *    (the service asks through the approval gate's webhook), so it is polled like any other non-final status.
 * Then the changes are told, and the status says live, or how far a long history has come.
 */

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
    const changes: TransactionChange[] = []
    const touched: Transaction[] = []
    const record = (t: Transaction, previous: Transaction | undefined) => {
      const prevStatus = previous ? String((previous as { status?: unknown }).status ?? '') : null
      const status = String((t as { status?: unknown }).status ?? '')
      if (prevStatus !== status) changes.push({ id: t.id, type: String(t.type), status, previousStatus: prevStatus })
      touched.push(t)
    }
    const listing = new Listing({
      client: this.d.client,
      cache: this.d.cache,
      setStatus: (patch) => this.setStatus(patch),
      setAside: (ids) => this.setAside(ids),
      record,
      failing: this.status.state === 'offline' || this.status.state === 'error',
      midCatchUp: this.midCatchUp
    })
    try {
      this.endlessMessage = undefined
      // 1. What was created since the last poll.
      const read = await listing.read()
      this.midCatchUp = read.catchingUp
      // The history is in: what the cache keeps behind for a catch-up is whole again before the poll says 'live'.
      if (!read.catchingUp) await this.d.cache.catchUpText((message) => this.setStatus({ state: 'syncing', message }))
      if (read.endless) this.reportEndlessListing()
      // 2. What is in flight.
      const operator = await this.checkInFlight(new Set(touched.map((t) => t.id)), record)
      const syncedAt = new Date().toISOString()
      await this.d.cache.setMeta({ ...read.nextMeta, 'tx.syncedAt': syncedAt })
      if (changes.length) await this.d.onChanges(changes)
      this.setStatus(this.settledStatus(read, syncedAt))
      return { ok: true, inFlight: operator.length > 0 || changes.length > 0, catchingUp: read.catchingUp }
    } catch (error) {
      // What was already posted lands (or fails) before the changes it made are told.
      await listing.settle()
      if (changes.length) await this.d.onChanges(changes).catch(() => {})
      return this.failed(error)
    }
  }

  /**
   * Transfers the operator started (every poll), and once a minute in front (15 behind) a few other non-final
   * transactions, least recently checked first, each read on its own; the ones the operator started are returned.
   */
  private async checkInFlight(
    listed: Set<string>,
    record: (t: Transaction, previous: Transaction | undefined) => void
  ): Promise<string[]> {
    const { client, cache } = this.d
    const now = this.d.clock.now()
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
    return operator
  }

  /** A poll that went through: live, or still syncing a long history (with its progress), and any note to keep. */
  private settledStatus(read: ListingRead, syncedAt: string): Partial<SyncStatus> {
    return {
      state: read.catchingUp ? 'syncing' : 'live',
      lastSyncedAt: syncedAt,
      offlineSince: null,
      ...(read.catchingUp && read.progress !== undefined
        ? { message: read.progress, ...(read.lastProgress !== undefined && { progress: read.lastProgress }) }
        : this.endlessMessage !== undefined
          ? { message: this.endlessMessage }
          : this.notice !== undefined && { message: this.notice })
    }
  }

  /** A poll that failed: offline (the network, TLS) or an error, told in the status; the scheduler backs off. */
  private failed(error: unknown): PollOutcome {
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
