import { rm } from 'node:fs/promises'
import path from 'node:path'
import {
  Customer,
  DiscoveryEntry,
  ExternalAccount,
  InternalAccount,
  dataList,
  PagedEnvelope,
  readItems,
  UnpagedEnvelope,
  Transaction,
  type CustomerCreateRequest,
  type DiscoveryQuery,
  type ExternalAccountCreateRequest,
  type SandboxReceiveRequest
} from '../../shared/api'
import type { EventName, EventPayload } from '../../shared/ipc/contract'
import type {
  CustomersQueryInput,
  DataCollection,
  ExternalAccountsQueryInput,
  TransactionsQueryInput
} from '../../shared/ipc/channels/data'
import type { SyncStatus, TransactionChange } from '../../shared/ipc/channels/sync'
import { AppError } from '../errors'
import { ApiClient, ApiError, type ApiClientOptions } from './api-client'
import { ApprovalService } from './approvals'
import { CacheStore, cacheKeyFor, type CacheOpenInfo } from './cache/store'
import type { SecretStore } from './keychain'
import { formatAmountInSentence } from '../../shared/format/money'
import { profileDir, type StoredProfile } from './profiles'
import { SyncEngine, TERMINAL_STATUSES } from './sync/engine'
import { realClock, type Clock, type SchedulerState } from './sync/scheduler'
import { TransferJournal } from './transfer-journal'
import type { ReportDamage } from './notices'
import { TransferService } from './transfers'
import { QuoteService } from './quotes'

/**
 * Everything Paydesk runs for one profile: its API client, encrypted cache, transfer journal, live sync and
 * approvals. The backend keeps one for the active profile and one for each other profile whose approval rules are on
 * (in the background); each has its own cache, polling, approvals and notifications, so profiles never mix. Every
 * event carries the profile id.
 */

export type Emit = <K extends EventName>(event: K, payload: EventPayload<K>) => void
export type Notify = (n: { id: string; title: string; body: string; route: string; targetId?: string }) => void

export interface SessionDeps {
  profile: StoredProfile
  clientSecret: string | undefined
  dataDir: string
  secrets: SecretStore
  emit: Emit
  notify: Notify
  log: (m: string) => void
  clock?: Clock
  scheduler?: Partial<SchedulerState>
  approvalWindowMs?: number
  clientOptions?: Partial<ApiClientOptions>
  /** false: no background polling (tests drive `sync.pollNow()` themselves). */
  autoSync?: boolean
  /** Why there is no client secret to use (shown in the sync status), when it is not simply missing. */
  noClientReason?: string
  /** Something to tell the operator in the sync status message while sync runs (e.g. the Local sandbox started fresh). */
  notice?: string
  /** Damaged state of this profile, set aside: the operator is told at once (a banner), not only the log. */
  reportDamage?: ReportDamage
}

/** Background refreshes of the small collections run at most this often per collection. */
const REFRESH_MIN_INTERVAL_MS = 3_000
/** How long a transaction the operator opened keeps being polled (each re-open extends it). */
const WATCH_OPEN_DETAIL_MS = 5 * 60_000

export class ProfileSession {
  readonly profileId: string
  readonly client: ApiClient | undefined
  /** Money leaving internal accounts: the journal and its exactly-once rules. */
  readonly transfers: TransferService
  /** Quotes, whose executions go through the same journal. */
  readonly quotes: QuoteService
  sync: SyncEngine | undefined
  private refreshing = new Map<string, Promise<void>>()
  private lastRefresh = new Map<string, number>()
  /** Transaction id → until when an open detail keeps it polled. */
  private readonly watched = new Map<string, number>()
  private closed = false
  get isClosed(): boolean {
    return this.closed
  }

  private constructor(
    private readonly d: SessionDeps,
    readonly cache: CacheStore,
    readonly cacheInfo: CacheOpenInfo,
    readonly journal: TransferJournal,
    readonly approvals: ApprovalService,
    client: ApiClient | undefined
  ) {
    this.profileId = d.profile.id
    this.client = client
    // Transfers and quote executions share the journal and what follows a payment the operator started.
    const payments = {
      profile: d.profile,
      journal,
      client: () => this.requireClient(),
      cachedTransaction: (id: string) => this.cache.get<Transaction>('transactions', id),
      onTransaction: async (transaction: Transaction) => {
        await this.cache.put('transactions', [transaction])
        this.changed(['transactions'], this.cache.meta<string>('tx.syncedAt') ?? null)
        this.refreshInternalAccounts(true)
        void this.sync?.scheduler.pollNow()
      },
      now: () => (d.clock ?? realClock).now(),
      log: d.log
    }
    this.transfers = new TransferService(payments)
    this.quotes = new QuoteService(payments)
  }

  static async open(d: SessionDeps): Promise<ProfileSession> {
    const dir = profileDir(d.dataDir, d.profile.id)
    const { key } = await cacheKeyFor(d.secrets, d.profile.id)
    // Before the SQLite cache, a profile's cache was an encrypted log. It only mirrored the service, so it is removed
    // and the first sync rebuilds the cache (README, Offline).
    await rm(path.join(dir, 'cache.pdlog'), { force: true })
    const { store, info } = await CacheStore.open(path.join(dir, 'cache.db'), key)
    if (info.outcome === 'set-aside') {
      d.log(
        `cache of profile ${d.profile.id} was unreadable (${info.reason}) and was set aside; rebuilding from the service`
      )
    }
    const journal = await TransferJournal.open(path.join(dir, 'transfers.sealed'), key, d.profile.id, d.log, (where) =>
      d.reportDamage?.({
        kind: 'transfer-journal',
        profileId: d.profile.id,
        title: `The transfer journal of “${d.profile.name}” was damaged.`,
        lost: 'Paydesk no longer knows which transfers it started on this profile, including any whose outcome was unknown.',
        todo:
          'Before sending any payment again, look at Transactions (outgoing, last days) to see what went out. The ' +
          'damaged file was kept.',
        ...(where !== undefined && { setAsideAs: where })
      })
    )
    const client = d.clientSecret
      ? new ApiClient({
          baseUrl: d.profile.baseUrl,
          tokenId: d.profile.tokenId,
          clientSecret: d.clientSecret,
          ...d.clientOptions
        })
      : undefined
    // The session is built in two steps because approvals and sync call back into it.
    const holder: { s?: ProfileSession } = {}
    const approvals = await ApprovalService.open({
      profileId: d.profile.id,
      production: d.profile.environment === 'production',
      file: path.join(dir, 'approvals.sealed'),
      key,
      client,
      cache: store,
      ...(d.approvalWindowMs !== undefined && { approvalWindowMs: d.approvalWindowMs }),
      notify: d.notify,
      onDecision: (decision) => d.emit('approvals.decided', decision),
      onQueueChanged: (count) => d.emit('approvals.changed', { profileId: d.profile.id, count }),
      log: d.log,
      onDamage: (where) =>
        d.reportDamage?.({
          kind: 'approval-rules',
          profileId: d.profile.id,
          title: `The approval rules of “${d.profile.name}” were damaged and are OFF.`,
          lost: 'The rules and the log of automatic decisions could not be read.',
          todo: 'Incoming payments now wait for you. Set the rules again in Approvals when you are ready.',
          ...(where !== undefined && { setAsideAs: where })
        })
    })
    const session = new ProfileSession(d, store, info, journal, approvals, client)
    holder.s = session
    if (client) {
      session.sync = new SyncEngine({
        profileId: d.profile.id,
        client,
        cache: store,
        clock: d.clock ?? realClock,
        log: d.log,
        operatorInFlight: () => session.operatorInFlight(),
        onChanges: (changes, txs) => session.onTransactionChanges(changes, txs),
        afterPoll: (changes, seenAt) => approvals.afterPoll(changes, seenAt),
        onStatus: (status) => d.emit('sync.status', status),
        initial: { ...d.scheduler, rulesEnabled: approvals.rules.enabled }
      })
      if (d.notice !== undefined) session.sync.addNote(d.notice)
      if (d.autoSync !== false) session.sync.start()
    }
    return session
  }

  // ---------------------------------------------------------------- status

  syncStatus(): SyncStatus {
    if (this.sync) return this.sync.current
    return {
      profileId: this.profileId,
      state: 'idle',
      lastSyncedAt: this.cache.meta<string>('tx.syncedAt') ?? null,
      offlineSince: null,
      intervalMs: 0,
      reason: this.d.noClientReason ? 'not available' : 'no client secret',
      message: this.d.noClientReason ?? 'This profile has no client secret yet: add it in Settings to sync.',
      code: this.d.noClientReason ? 'UNREACHABLE' : 'UNAUTHORIZED'
    }
  }

  setScheduler(patch: Partial<SchedulerState>): void {
    this.sync?.scheduler.set(patch)
  }

  private syncedAt(collection: string): string | null {
    return this.cache.meta<string>(`${collection}.syncedAt`) ?? null
  }

  // ---------------------------------------------------------------- refresh in the background

  changed(collections: DataCollection[], syncedAt: string | null): void {
    if (this.closed) return
    this.d.emit('data.changed', { profileId: this.profileId, collections, syncedAt })
  }

  /**
   * Refreshes one collection from the service in the background (deduplicated and rate-limited), then says so with
   * `data.changed`. Failures are quiet here: the sync status already tells the operator when the service is away.
   */
  private refresh(name: string, collection: DataCollection, work: (client: ApiClient) => Promise<void>): void {
    const client = this.client
    if (!client || this.closed || this.refreshing.has(name)) return
    const now = Date.now()
    if (now - (this.lastRefresh.get(name) ?? 0) < REFRESH_MIN_INTERVAL_MS) return
    this.lastRefresh.set(name, now)
    const run = (async () => {
      try {
        await work(client)
        const syncedAt = new Date().toISOString()
        await this.cache.setMeta({ [`${collection}.syncedAt`]: syncedAt })
        this.changed([collection], syncedAt)
      } catch (error) {
        if (!(error instanceof AppError))
          this.d.log(`refresh ${name} failed: ${error instanceof Error ? error.name : 'error'}`)
      } finally {
        this.refreshing.delete(name)
      }
    })()
    this.refreshing.set(name, run)
  }

  /** Waits for background refreshes (tests, close). */
  async settled(): Promise<void> {
    while (this.refreshing.size) await Promise.all([...this.refreshing.values()])
  }

  /**
   * Reads a paged collection to its end. A listing that does not end (a cursor seen before, an empty page claiming
   * more) stops with what it read, is told in the sync status once, and `ended: false` tells the caller not to
   * replace the cache with a part of it.
   */
  private async listAll<T>(
    client: ApiClient,
    path: string,
    item: import('zod').ZodType<T>,
    query: Record<string, string> = {}
  ): Promise<{ items: T[]; ended: boolean }> {
    const out: T[] = []
    let cursor: string | undefined
    const seen = new Set<string>()
    let ended = false
    for (let i = 0; i < 1000; i++) {
      const res = await client.get(path, PagedEnvelope, { ...query, limit: 100, ...(cursor && { cursor }) })
      // One item Paydesk cannot read is left out (logged by id), not the whole listing.
      const { items, rejected } = readItems(item, res.data)
      for (const r of rejected)
        this.d.log(`${path}: item ${r.id?.slice(0, 120) ?? '(without an id)'} could not be read and was skipped`)
      out.push(...items)
      if (!res.hasMore || !res.nextCursor) {
        ended = true
        break
      }
      if (seen.has(res.nextCursor) || res.data.length === 0) break
      seen.add(res.nextCursor)
      cursor = res.nextCursor
    }
    this.sync?.reportListing(path, ended ? { ended } : { ended, kept: out.length })
    if (!ended && !this.sync) this.d.log(`${path}: the listing did not end (the same page came back)`)
    return { items: out, ended }
  }

  // ---------------------------------------------------------------- reads: cache first, then refresh

  queryTransactions(input: TransactionsQueryInput) {
    const { rows, total } = this.cache.queryTransactions(input.filter, input.sort, input.offset, input.limit)
    if (this.sync && !this.cache.meta('tx.watermark')) void this.sync.scheduler.pollNow()
    return {
      profileId: this.profileId,
      rows,
      total,
      offset: input.offset,
      syncedAt: this.cache.meta<string>('tx.syncedAt') ?? null
    }
  }

  getTransaction(id: string) {
    const transaction = this.cache.get<Transaction>('transactions', id) ?? null
    // An open detail is watched like the operator's own transfers, so its status moves on screen while it is open.
    this.watched.set(id, (this.d.clock ?? realClock).now() + WATCH_OPEN_DETAIL_MS)
    this.refresh(`tx:${id}`, 'transactions', async (client) => {
      try {
        await this.cache.put('transactions', [await client.get(`transactions/${encodeURIComponent(id)}`, Transaction)])
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 'NOT_FOUND')) throw error
      }
    })
    return { profileId: this.profileId, transaction, syncedAt: this.cache.meta<string>('tx.syncedAt') ?? null }
  }

  /**
   * Customers: one full listing the first time, then only what changed (`updatedAfter` the newest updatedAt seen,
   * minus an overlap, deleted ones included so they leave the list), so visiting the page costs what changed.
   */
  private refreshCustomers(): void {
    this.refresh('customers', 'customers', async (client) => {
      const since = this.cache.meta<string>('customers.updatedAfter')
      const query: Record<string, string> = since
        ? { updatedAfter: new Date(Date.parse(since) - 2_000).toISOString(), isIncludingDeleted: 'true' }
        : {}
      const { items: rows, ended } = await this.listAll(client, 'customers', Customer, query)
      let newest = since
      for (const c of rows) if (c.updatedAt && (!newest || c.updatedAt > newest)) newest = c.updatedAt
      // A listing that did not end moves no watermark and drops nothing: the next refresh reads it again.
      const deleted = rows.filter((c) => c.isDeleted).map((c) => c.id)
      await this.cache.put(
        'customers',
        rows.filter((c) => !c.isDeleted),
        {
          remove: deleted,
          ...(since === undefined && ended && { replaceAll: true }),
          ...(newest !== undefined && ended && { meta: { 'customers.updatedAfter': newest } })
        }
      )
    })
  }

  queryCustomers(input: CustomersQueryInput) {
    const needle = input.search?.toLowerCase()
    let rows = this.cache.all<Customer>('customers').filter((c) => {
      if (input.kycStatus && c.kycStatus !== input.kycStatus) return false
      if (!needle) return true
      return [c.id, c.fullName, c.platformCustomerId, c.umaAddress].some(
        (v) => typeof v === 'string' && v.toLowerCase().includes(needle)
      )
    })
    const dir = input.sort.direction === 'asc' ? 1 : -1
    const field = input.sort.field
    rows = rows.sort((a, b) => {
      const va = String(a[field] ?? '')
      const vb = String(b[field] ?? '')
      return (va < vb ? -1 : va > vb ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * dir
    })
    this.refreshCustomers()
    return {
      profileId: this.profileId,
      rows: rows.slice(input.offset, input.offset + input.limit),
      total: rows.length,
      offset: input.offset,
      syncedAt: this.syncedAt('customers')
    }
  }

  getCustomer(id: string) {
    const customer = this.cache.get<Customer>('customers', id) ?? null
    this.refresh(`customer:${id}`, 'customers', async (client) => {
      await this.cache.put('customers', [await client.get(`customers/${encodeURIComponent(id)}`, Customer)])
    })
    return { profileId: this.profileId, customer, syncedAt: this.syncedAt('customers') }
  }

  queryExternalAccounts(input: ExternalAccountsQueryInput) {
    const needle = input.search?.toLowerCase()
    const rows = this.cache
      .all<ExternalAccount>('externalAccounts')
      .filter((a) => {
        const platform = !a.customerId
        if (input.scope === 'platform' && !platform) return false
        if (input.scope === 'customer' && platform) return false
        if (input.customerId && a.customerId !== input.customerId) return false
        if (input.currency && a.currency !== input.currency) return false
        if (input.status && a.status !== input.status) return false
        if (needle && !JSON.stringify([a.id, a.platformAccountId, a.accountInfo]).toLowerCase().includes(needle))
          return false
        return true
      })
      .sort((a, b) => String(b.createdAt ?? '').localeCompare(String(a.createdAt ?? '')) || a.id.localeCompare(b.id))
    this.refresh('externalAccounts', 'externalAccounts', async (client) => {
      const customerAccounts = await this.listAll(client, 'customers/external-accounts', ExternalAccount)
      // The published API pages this list too; a service that does not page answers one page without hasMore.
      const platform = await this.listAll(client, 'platform/external-accounts', ExternalAccount)
      // A part of a listing adds what it read and drops nothing: the rest is read at the next refresh.
      await this.cache.put('externalAccounts', [...customerAccounts.items, ...platform.items], {
        replaceAll: customerAccounts.ended && platform.ended
      })
    })
    return {
      profileId: this.profileId,
      rows: rows.slice(input.offset, input.offset + input.limit),
      total: rows.length,
      offset: input.offset,
      syncedAt: this.syncedAt('externalAccounts')
    }
  }

  private refreshInternalAccounts(force = false): void {
    if (force) this.lastRefresh.delete('internalAccounts')
    this.refresh('internalAccounts', 'internalAccounts', async (client) => {
      // Read item by item, as the connection test counts them: one account Paydesk cannot read is left out, not all.
      const page = await client.get('platform/internal-accounts', UnpagedEnvelope)
      const { items: platform, rejected } = readItems(InternalAccount, page.data)
      for (const r of rejected)
        this.d.log(
          `platform/internal-accounts: item ${r.id?.slice(0, 120) ?? '(without an id)'} could not be read and was skipped`
        )
      let customers: InternalAccount[] = []
      let ended = true
      try {
        ;({ items: customers, ended } = await this.listAll(client, 'customers/internal-accounts', InternalAccount))
      } catch (error) {
        // Optional endpoint of the reference; a service without it still lists platform accounts.
        if (!(error instanceof ApiError && (error.code === 'NOT_FOUND' || error.code === 'INVALID_INPUT'))) throw error
        customers = this.cache.all<InternalAccount>('internalAccounts').filter((a) => a.customerId)
      }
      await this.cache.put('internalAccounts', [...platform, ...customers], { replaceAll: ended })
    })
  }

  listInternalAccounts(input: {
    scope: 'all' | 'customer' | 'platform'
    customerId?: string | undefined
    currency?: string | undefined
  }) {
    const rows = this.cache.all<InternalAccount>('internalAccounts').filter((a) => {
      const platform = !a.customerId
      if (input.scope === 'platform' && !platform) return false
      if (input.scope === 'customer' && platform) return false
      if (input.customerId && a.customerId !== input.customerId) return false
      if (input.currency && a.balance.currency.code !== input.currency) return false
      return true
    })
    this.refreshInternalAccounts()
    return { profileId: this.profileId, rows, syncedAt: this.syncedAt('internalAccounts') }
  }

  listDiscoveries(query: DiscoveryQuery) {
    const key = `${query.country ?? '*'}|${query.currency ?? '*'}`
    const cached = this.cache.get<{ id: string; rows: DiscoveryEntry[]; syncedAt: string }>('discoveries', key)
    this.refresh(`discoveries:${key}`, 'discoveries', async (client) => {
      const res = await client.get('discoveries', dataList(DiscoveryEntry), { ...query })
      await this.cache.put('discoveries', [{ id: key, rows: res.data, syncedAt: new Date().toISOString() }])
    })
    return { profileId: this.profileId, rows: cached?.rows ?? [], syncedAt: cached?.syncedAt ?? null }
  }

  // ---------------------------------------------------------------- writes: straight to the service, never queued

  private requireClient(): ApiClient {
    if (!this.client) throw new AppError('UNAUTHORIZED', 'This profile has no client secret yet: add it in Settings.')
    return this.client
  }

  /** Maps a network failure of a write to OFFLINE with a sentence that says nothing was queued. */
  async write<T>(what: string, work: (client: ApiClient) => Promise<T>): Promise<T> {
    const client = this.requireClient()
    try {
      return await work(client)
    } catch (error) {
      if (error instanceof ApiError && error.isNetwork) {
        const maybe = error.maybeProcessed
          ? ` The connection dropped after the request was sent, so it may have been applied: check before trying again.`
          : ' Nothing was sent and nothing was queued: try again when the connection is back.'
        throw new AppError('OFFLINE', `Paydesk is offline and could not ${what}. ${error.message}${maybe}`, {
          ...(error.httpStatus !== undefined && { httpStatus: error.httpStatus })
        })
      }
      throw error
    }
  }

  createCustomer(input: CustomerCreateRequest) {
    return this.write('create the customer', async (client) => {
      const c = await client.request('POST', 'customers', { body: input, schema: Customer })
      await this.cache.put('customers', [c])
      this.changed(['customers'], this.syncedAt('customers'))
      return c
    })
  }

  createExternalAccount(input: ExternalAccountCreateRequest) {
    return this.write('add the external account', async (client) => {
      const a = await client.request('POST', 'customers/external-accounts', { body: input, schema: ExternalAccount })
      await this.cache.put('externalAccounts', [a])
      this.changed(['externalAccounts'], this.syncedAt('externalAccounts'))
      return a
    })
  }

  removeExternalAccount(id: string) {
    return this.write('delete the external account', async (client) => {
      await client.request('DELETE', `customers/external-accounts/${encodeURIComponent(id)}`)
      await this.cache.put('externalAccounts', [], { remove: [id] })
      this.changed(['externalAccounts'], this.syncedAt('externalAccounts'))
      return null
    })
  }

  private requireSandbox(what: string): void {
    if (this.d.profile.environment === 'production') {
      throw new AppError('FORBIDDEN', `${what} exists only for sandbox profiles; this is a production profile.`)
    }
  }

  fund(accountId: string, amount: number) {
    this.requireSandbox('Sandbox funding')
    return this.write('fund the account', async (client) => {
      const a = await client.request('POST', `sandbox/internal-accounts/${encodeURIComponent(accountId)}/fund`, {
        body: { amount },
        schema: InternalAccount
      })
      await this.cache.put('internalAccounts', [a])
      this.changed(['internalAccounts'], this.syncedAt('internalAccounts'))
      return a
    })
  }

  receive(input: SandboxReceiveRequest) {
    this.requireSandbox('Simulating a payment')
    return this.write('simulate the payment', async (client) => {
      const t = await client.request('POST', 'sandbox/uma/receive', { body: input, schema: Transaction })
      // Sync announces it (approvals, rules, notification) on its next poll, which we ask for now.
      void this.sync?.scheduler.pollNow()
      return t
    })
  }

  /** Transactions polled every time: the operator's transfers that are not final, and open details not final yet. */
  private operatorInFlight(): string[] {
    const ids = new Set(
      this.journal
        .list()
        .filter((r) => r.state === 'sent' && r.transactionId && !TERMINAL_STATUSES.has(r.transactionStatus ?? ''))
        .map((r) => r.transactionId!)
    )
    const now = (this.d.clock ?? realClock).now()
    for (const [id, until] of this.watched) {
      const status = this.cache.get<Transaction>('transactions', id)?.status
      if (until < now || (status !== undefined && TERMINAL_STATUSES.has(status))) this.watched.delete(id)
      else ids.add(id)
    }
    return [...ids]
  }

  /** After each poll with changes: approvals, notifications for the operator's transfers, events. */
  private async onTransactionChanges(changes: TransactionChange[], _txs: Transaction[]): Promise<void> {
    this.d.emit('transactions.changed', { profileId: this.profileId, changes })
    this.changed(['transactions'], this.cache.meta<string>('tx.syncedAt') ?? new Date().toISOString())
    let balancesMoved = false
    for (const c of changes) {
      const record = this.journal.byTransactionId(c.id)
      if (!record) {
        if (TERMINAL_STATUSES.has(c.status) || c.previousStatus === null) balancesMoved = true
        continue
      }
      if (record.transactionStatus === c.status) continue
      await this.journal.update(record.actionId, { transactionStatus: c.status })
      if (TERMINAL_STATUSES.has(c.status)) {
        balancesMoved = true
        const t = this.cache.get<
          Transaction & { sentAmount?: { amount: number; currency: { code: string; decimals?: number } } }
        >('transactions', c.id)
        // The amount the operator asked to send, in the currency of the source account.
        const money = t?.sentAmount
          ? formatAmountInSentence(record.amount, t.sentAmount.currency.code, t.sentAmount.currency.decimals ?? 2)
          : `${record.amount} minor units`
        const ok = c.status === 'COMPLETED'
        const reason = (t as { failureReason?: string } | undefined)?.failureReason
        this.d.notify({
          id: `transfer:${c.id}:${c.status}`,
          title: ok ? 'Transfer completed' : `Transfer ${c.status.toLowerCase()}`,
          body: ok
            ? `${money.trim()} reached ${record.destinationAccountId}.`
            : `${money.trim()} to ${record.destinationAccountId} did not go through${reason ? ` (${reason})` : ''}.`,
          route: 'transactions',
          targetId: c.id
        })
      }
    }
    if (balancesMoved) this.refreshInternalAccounts(true)
  }

  async setRulesEnabled(enabled: boolean): Promise<void> {
    this.sync?.scheduler.set({ rulesEnabled: enabled })
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
