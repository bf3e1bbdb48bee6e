import path from 'node:path'
import type { Customer, DiscoveryEntry, DiscoveryQuery, Transaction } from '../../shared/api'
import type {
  CustomersQueryInput,
  DataCollection,
  ExternalAccountsQueryInput,
  TransactionsQueryInput
} from '../../shared/ipc/channels/data'
import type { SyncStatus, TransactionChange } from '../../shared/ipc/channels/sync'
import { transferSettled, type ProfileNotification } from './notifications/wording'
import { ApiClient, type ApiClientOptions } from '../infra/api-client'
import { BackgroundRefresh } from './background-refresh'
import {
  listInternalAccounts,
  queryCustomers,
  queryExternalAccounts,
  type InternalAccountsFilter
} from '../infra/cache/collection-queries'
import { transactionParties } from '../../shared/labels'
import { CacheStore } from '../infra/cache/store'
import { requireClient } from './client-access'
import { openProfileCache, type OpenedCache } from './profile-cache'
import type { SecretStore } from '../infra/keychain'
import type { ReportDamage } from './notices'
import { transferJournalDamaged } from './profile-data'
import { ActionLog, actionLogDamaged } from './action-log'
import { ProfileWrites } from './profile-writes'
import { profileDir, type StoredProfile } from './profiles'
import { QuoteService } from './quotes'
import { ConnectionMonitor } from './sync/connection-state'
import { SyncEngine, TERMINAL_STATUSES } from './sync/sync-engine'
import { realClock, type SchedulerClock, type SchedulerState } from './sync/poll-scheduler'
import { TransferJournal } from './transfer-journal'
import { TransferService } from './transfers'
import type { Emit } from '../infra/emit'

/**
 * Everything Paydesk runs for the active profile: its API client, encrypted cache, transfer journal and live sync.
 * Approvals are the approval gate's (src/main/gate), followed for every profile without a session. Every event
 * carries the profile id.
 */

export type Notify = (n: ProfileNotification) => void

export interface SessionDeps {
  profile: StoredProfile
  clientSecret: string | undefined
  dataDir: string
  secrets: SecretStore
  emit: Emit
  notify: Notify
  log: (m: string) => void
  clock?: SchedulerClock
  scheduler?: Partial<SchedulerState>
  clientOptions?: Partial<ApiClientOptions>
  /** false: no background polling (tests drive `sync.pollNow()` themselves). */
  autoSync?: boolean
  /** Why there is no client secret to use (shown in the sync status), when it is not simply missing. */
  noClientReason?: string
  /** Something to tell the operator in the sync status message while sync runs (e.g. the Local sandbox started fresh). */
  notice?: string
  /** Damaged state of this profile, set aside: the operator is told at once (a banner), not only the log. */
  reportDamage?: ReportDamage
  /**
   * When each kind of work may start (app/startup-plan.ts says what waits for what); absent, at once.
   * `serviceReady`: the service answers, and no poll is asked before it (an empty cache asks for its first page then).
   * `pollsAfter`: scheduled polling starts; a rejection leaves it off (the owner of the service re-opens the session
   * without a client and says why). `refreshesAfter`: background refreshes start.
   */
  serviceReady?: Promise<unknown>
  pollsAfter?: Promise<unknown>
  refreshesAfter?: Promise<void>
  /** The profile's cache, when the caller started opening it ahead (`openProfileCache`); else it is opened here. */
  cache?: Promise<OpenedCache>
}

const NO_SECRET = 'This profile has no client secret yet: add it in Settings to sync.'

/** How long a transaction the operator opened keeps being polled (each re-open extends it). */
const WATCH_OPEN_DETAIL_MS = 5 * 60_000

export class ProfileSession {
  readonly profileId: string
  readonly client: ApiClient | undefined
  /** Money leaving internal accounts: the journal and its exactly-once rules. */
  readonly transfers: TransferService
  /** Quotes, whose executions go through the same journal. */
  readonly quotes: QuoteService
  /** Customers, external accounts and the sandbox's tools: writes that move no money. */
  readonly writes: ProfileWrites
  sync: SyncEngine | undefined
  /** The operator's manual actions on this profile, with their reasons (action-log.ts); opened with the session. */
  actions!: ActionLog
  private readonly refresh: BackgroundRefresh
  private readonly clock: SchedulerClock
  /** Transaction id → until when an open detail keeps it polled. */
  private readonly watched = new Map<string, number>()
  private closed = false
  /** False until the service answers, when the session was told to wait for it (`serviceReady`). */
  private serviceUp: boolean
  private readonly openedAt = new Date().toISOString()
  get isClosed(): boolean {
    return this.closed
  }

  private constructor(
    private readonly d: SessionDeps,
    readonly cache: CacheStore,
    journal: TransferJournal,
    client: ApiClient | undefined
  ) {
    this.profileId = d.profile.id
    this.serviceUp = d.serviceReady === undefined
    this.client = client
    this.clock = d.clock ?? realClock
    this.refresh = new BackgroundRefresh({
      client,
      cache,
      refreshed: (collection, syncedAt) => this.changed([collection], syncedAt),
      transactionChanged: (change) => this.onTransactionChanges([change]),
      reportListing: (listing, outcome) => {
        if (this.sync) this.sync.reportListing(listing, outcome)
        else if (!outcome.ended) d.log(`${listing}: the listing did not end (the same page came back)`)
      },
      isClosed: () => this.closed,
      log: d.log,
      startsAfter: d.refreshesAfter
    })
    this.writes = new ProfileWrites({
      profile: d.profile,
      client,
      cache,
      changed: (collection) => this.changed([collection], this.syncedAt(collection)),
      pollNow: () => void this.sync?.scheduler.pollNow()
    })
    // Transfers and quote executions share the journal and what follows a payment the operator started.
    const payments = {
      profile: d.profile,
      journal,
      client: () => requireClient(this.client),
      cachedTransaction: (id: string) => this.cache.get<Transaction>('transactions', id),
      onTransaction: async (transaction: Transaction) => {
        await this.cache.put('transactions', [transaction])
        this.changed(['transactions'], this.syncedAt('tx'))
        this.refresh.internalAccounts(true)
        void this.sync?.scheduler.pollNow()
      },
      now: () => this.clock.now(),
      log: d.log
    }
    this.transfers = new TransferService(payments)
    this.quotes = new QuoteService(payments)
  }

  static async open(d: SessionDeps): Promise<ProfileSession> {
    const dir = profileDir(d.dataDir, d.profile.id)
    const { store, key } = await (d.cache ?? openProfileCache(d, d.profile))
    const journal = await TransferJournal.open(path.join(dir, 'transfers.sealed'), key, d.profile.id, d.log, (where) =>
      d.reportDamage?.(transferJournalDamaged(d.profile, where))
    )
    // Every attempt of every request (sync, refreshes, writes) tells the connection state what the service did.
    let connection: ConnectionMonitor | undefined
    const client = d.clientSecret
      ? new ApiClient({
          baseUrl: d.profile.baseUrl,
          tokenId: d.profile.tokenId,
          clientSecret: d.clientSecret,
          ...d.clientOptions,
          onAttemptStart: (info) => {
            d.clientOptions?.onAttemptStart?.(info)
            connection?.attemptStarted()
          },
          onAttempt: (info) => {
            d.clientOptions?.onAttempt?.(info)
            connection?.attemptEnded(info)
          }
        })
      : undefined
    if (client) connection = new ConnectionMonitor({ clock: d.clock ?? realClock, host: client.host })
    const session = new ProfileSession(d, store, journal, client)
    session.actions = await ActionLog.open(path.join(dir, 'actions.sealed'), key, (damage) =>
      d.reportDamage?.(actionLogDamaged(d.profile, damage))
    )
    if (client) {
      session.sync = new SyncEngine({
        profileId: d.profile.id,
        client,
        cache: store,
        clock: d.clock ?? realClock,
        log: d.log,
        operatorInFlight: () => session.operatorInFlight(),
        onChanges: (changes) => session.onTransactionChanges(changes),
        onStatus: (status) => d.emit('sync.status', status),
        initial: { ...d.scheduler },
        ...(connection && { connection })
      })
      if (d.notice !== undefined) session.sync.addNote(d.notice)
    }
    const startPolling = () => {
      if (d.autoSync !== false && !session.closed) session.sync?.start()
    }
    if (d.pollsAfter === undefined) startPolling()
    else void d.pollsAfter.then(startPolling, () => undefined)
    void d.serviceReady?.then(
      () => (session.serviceUp = true),
      () => undefined
    )
    return session
  }

  // ---------------------------------------------------------------- status

  syncStatus(): SyncStatus {
    if (this.sync) return this.sync.current
    return {
      profileId: this.profileId,
      state: 'idle',
      lastSyncedAt: this.syncedAt('tx'),
      offlineSince: null,
      intervalMs: 0,
      reason: this.d.noClientReason ? 'not available' : 'no client secret',
      message: this.d.noClientReason ?? NO_SECRET,
      code: this.d.noClientReason ? 'UNREACHABLE' : 'UNAUTHORIZED',
      // No client: the Local sandbox is not running (the top bar offers Restart), or there is no secret to sign in with.
      connection: {
        state: this.d.noClientReason ? 'sandboxStopped' : 'signedOut',
        since: this.openedAt,
        lastAnswerAt: null,
        detail: this.d.noClientReason ?? NO_SECRET
      }
    }
  }

  setScheduler(patch: Partial<SchedulerState>): void {
    this.sync?.scheduler.set(patch)
  }

  private syncedAt(collection: string): string | null {
    return this.cache.meta<string>(`${collection}.syncedAt`) ?? null
  }

  changed(collections: DataCollection[], syncedAt: string | null): void {
    if (this.closed) return
    this.d.emit('data.changed', { profileId: this.profileId, collections, syncedAt })
  }

  /** Waits for background refreshes (tests, close). */
  settled(): Promise<void> {
    return this.refresh.settled()
  }

  // ---------------------------------------------------------------- reads: the cache at once, a refresh behind it

  async queryTransactions(input: TransactionsQueryInput) {
    const { rows, names, total } = await this.cache.queryTransactions(
      input.filter,
      input.sort,
      input.offset,
      input.limit
    )
    // An empty cache asks for its first page now; a service still starting is polled as soon as it answers instead.
    if (this.sync && this.serviceUp && !this.cache.meta('tx.watermark')) void this.sync.scheduler.pollNow()
    // The names the rows are shown with come from the customers and the internal accounts, kept fresh as their own
    // lists are. External accounts are named once their list (or a send) has read them: refreshed from here too, they
    // took that list's slot, and an account added just before opening it was not read for another 3 s.
    this.refresh.customers()
    this.refresh.internalAccounts()
    return { profileId: this.profileId, rows, names, total, offset: input.offset, syncedAt: this.syncedAt('tx') }
  }

  getTransaction(id: string) {
    const transaction = this.cache.get<Transaction>('transactions', id) ?? null
    // An open detail is watched like the operator's own transfers, so its status moves on screen while it is open.
    this.watched.set(id, this.clock.now() + WATCH_OPEN_DETAIL_MS)
    this.refresh.transaction(id)
    const names = this.cache.namesOf(transaction ? transactionParties(transaction) : [])
    const history = transaction ? this.cache.statusHistory(id) : []
    return { profileId: this.profileId, transaction, names, syncedAt: this.syncedAt('tx'), history }
  }

  queryCustomers(input: CustomersQueryInput) {
    const { rows, total } = queryCustomers(this.cache, input)
    this.refresh.customers()
    return { profileId: this.profileId, rows, total, offset: input.offset, syncedAt: this.syncedAt('customers') }
  }

  getCustomer(id: string) {
    const customer = this.cache.get<Customer>('customers', id) ?? null
    this.refresh.customer(id)
    return { profileId: this.profileId, customer, syncedAt: this.syncedAt('customers') }
  }

  queryExternalAccounts(input: ExternalAccountsQueryInput) {
    const { rows, total } = queryExternalAccounts(this.cache, input)
    this.refresh.externalAccounts()
    return {
      profileId: this.profileId,
      rows,
      total,
      offset: input.offset,
      syncedAt: this.syncedAt('externalAccounts')
    }
  }

  listInternalAccounts(input: InternalAccountsFilter) {
    const rows = listInternalAccounts(this.cache, input)
    this.refresh.internalAccounts()
    return { profileId: this.profileId, rows, syncedAt: this.syncedAt('internalAccounts') }
  }

  listDiscoveries(query: DiscoveryQuery) {
    const key = `${query.country ?? '*'}|${query.currency ?? '*'}`
    const cached = this.cache.get<{ id: string; rows: DiscoveryEntry[]; syncedAt: string }>('discoveries', key)
    this.refresh.discoveries(key, query)
    return { profileId: this.profileId, rows: cached?.rows ?? [], syncedAt: cached?.syncedAt ?? null }
  }

  // ---------------------------------------------------------------- what sync asks of the session

  /** Transactions polled every time: the operator's transfers that are not final, and open details not final yet. */
  private operatorInFlight(): string[] {
    const ids = new Set(this.transfers.inFlightTransactionIds())
    const now = this.clock.now()
    for (const [id, until] of this.watched) {
      const status = this.cache.get<Transaction>('transactions', id)?.status
      if (until < now || (status !== undefined && TERMINAL_STATUSES.has(status))) this.watched.delete(id)
      else ids.add(id)
    }
    return [...ids]
  }

  /** After each poll with changes: events, the journal, a notification per transfer of the operator's that ended. */
  private async onTransactionChanges(changes: TransactionChange[]): Promise<void> {
    this.d.emit('transactions.changed', { profileId: this.profileId, changes })
    this.changed(['transactions'], this.syncedAt('tx') ?? new Date().toISOString())
    const { settled, balancesMoved } = await this.transfers.followChanges(changes)
    for (const { record, change } of settled)
      this.d.notify(
        transferSettled(
          record,
          change.id,
          change.status,
          this.cache.get('transactions', change.id),
          this.cache.namesOf([record.destinationAccountId])
        )
      )
    if (balancesMoved) this.refresh.internalAccounts(true)
  }

  async close(): Promise<void> {
    this.closed = true
    this.sync?.stop()
    await this.sync?.scheduler.idle()
    await this.settled().catch(() => {})
    await this.cache.close()
    await this.client?.close()
  }
}
