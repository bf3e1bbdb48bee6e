import type { ZodType } from 'zod'
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
  type DiscoveryQuery
} from '../../shared/api'
import type { DataCollection } from '../../shared/ipc/channels/data'
import type { TransactionChange } from '../../shared/ipc/channels/sync'
import { AppError } from '../infra/app-error'
import type { ApiClient } from '../infra/api-client'
import { ApiError } from '../infra/api-errors'
import {
  PLATFORM_EXTERNAL_ACCOUNT_IDS,
  PLATFORM_INTERNAL_ACCOUNT_IDS,
  platformOwned
} from '../infra/cache/collection-queries'
import type { CacheStore } from '../infra/cache/store'

/** Background refreshes of one collection run at most this often. */
const REFRESH_MIN_INTERVAL_MS = 3_000

interface RefreshDeps {
  client: ApiClient | undefined
  cache: CacheStore
  /** A collection was refreshed: tell the renderer (`data.changed`). */
  refreshed(collection: DataCollection, syncedAt: string): void
  /**
   * A transaction read on its own moved to another status: told as a poll's changes are (events, the journal, the
   * operator's notification), or a detail left open would take the change from the poll that tells it.
   */
  transactionChanged(change: TransactionChange): Promise<void>
  /** How a paged listing ended (one that did not end is told in the sync status). */
  reportListing(path: string, outcome: { ended: true } | { ended: false; kept: number }): void
  isClosed(): boolean
  log(message: string): void
  /** Refreshes start once this resolves (app/startup-plan.ts says what it is). */
  startsAfter?: Promise<void> | undefined
}

/**
 * Keeps the cached collections fresh while the views read them from the cache: each refresh runs in the background,
 * deduplicated and rate-limited, and says so when done. Failures are quiet here: the sync status already tells the
 * operator when the service is away.
 */
export class BackgroundRefresh {
  private readonly running = new Map<string, Promise<void>>()
  private readonly lastRun = new Map<string, number>()

  /** False until `startsAfter` resolves: a refresh asked before waits outside `running`, so close() never waits for it. */
  private started: boolean

  constructor(private readonly d: RefreshDeps) {
    this.started = d.startsAfter === undefined
    void d.startsAfter?.then(() => (this.started = true))
  }

  private refresh(name: string, collection: DataCollection, work: (client: ApiClient) => Promise<void>): void {
    if (!this.started) {
      // Registered after the constructor's, so `started` is set by the time this runs; the usual checks apply then.
      void this.d.startsAfter!.then(() => this.refresh(name, collection, work))
      return
    }
    const client = this.d.client
    if (!client || this.d.isClosed() || this.running.has(name)) return
    const now = Date.now()
    if (now - (this.lastRun.get(name) ?? 0) < REFRESH_MIN_INTERVAL_MS) return
    this.lastRun.set(name, now)
    const run = (async () => {
      try {
        await work(client)
        const syncedAt = new Date().toISOString()
        await this.d.cache.setMeta({ [`${collection}.syncedAt`]: syncedAt })
        if (!this.d.isClosed()) this.d.refreshed(collection, syncedAt)
      } catch (error) {
        if (!(error instanceof AppError))
          this.d.log(`refresh ${name} failed: ${error instanceof Error ? error.name : 'error'}`)
      } finally {
        this.running.delete(name)
      }
    })()
    this.running.set(name, run)
  }

  /** Waits for background refreshes (tests, close). */
  async settled(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running.values()])
  }

  private logRejected(path: string, rejected: Array<{ id?: string | undefined }>): void {
    for (const r of rejected)
      this.d.log(`${path}: item ${r.id?.slice(0, 120) ?? '(without an id)'} could not be read and was skipped`)
  }

  /**
   * Reads a paged collection to its end. A listing that does not end (a cursor seen before, an empty page claiming
   * more) stops with what it read, is told in the sync status once, and `ended: false` tells the caller not to
   * replace the cache with a part of it.
   */
  private async listAll<T>(
    client: ApiClient,
    path: string,
    item: ZodType<T>,
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
      this.logRejected(path, rejected)
      out.push(...items)
      if (!res.hasMore || !res.nextCursor) {
        ended = true
        break
      }
      if (seen.has(res.nextCursor) || res.data.length === 0) break
      seen.add(res.nextCursor)
      cursor = res.nextCursor
    }
    this.d.reportListing(path, ended ? { ended } : { ended, kept: out.length })
    return { items: out, ended }
  }

  transaction(id: string): void {
    this.refresh(`tx:${id}`, 'transactions', async (client) => {
      try {
        const fresh = await client.get(`transactions/${encodeURIComponent(id)}`, Transaction)
        const before = this.d.cache.get<Transaction>('transactions', id)
        await this.d.cache.put('transactions', [fresh])
        const previousStatus = before ? String(before.status ?? '') : null
        const status = String(fresh.status ?? '')
        if (previousStatus !== status)
          await this.d.transactionChanged({ id, type: String(fresh.type), status, previousStatus })
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 'NOT_FOUND')) throw error
      }
    })
  }

  /**
   * Customers: one full listing the first time, then only what changed (`updatedAfter` the newest updatedAt seen,
   * minus an overlap, deleted ones included so they leave the list), so visiting the page costs what changed.
   */
  customers(): void {
    this.refresh('customers', 'customers', async (client) => {
      const cache = this.d.cache
      const since = cache.meta<string>('customers.updatedAfter')
      const query: Record<string, string> = since
        ? { updatedAfter: new Date(Date.parse(since) - 2_000).toISOString(), isIncludingDeleted: 'true' }
        : {}
      const { items: rows, ended } = await this.listAll(client, 'customers', Customer, query)
      let newest = since
      for (const c of rows) if (c.updatedAt && (!newest || c.updatedAt > newest)) newest = c.updatedAt
      // A listing that did not end moves no watermark and drops nothing: the next refresh reads it again.
      const deleted = rows.filter((c) => c.isDeleted).map((c) => c.id)
      await cache.put(
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

  customer(id: string): void {
    this.refresh(`customer:${id}`, 'customers', async (client) => {
      await this.d.cache.put('customers', [await client.get(`customers/${encodeURIComponent(id)}`, Customer)])
    })
  }

  externalAccounts(): void {
    this.refresh('externalAccounts', 'externalAccounts', async (client) => {
      const customerAccounts = await this.listAll(client, 'customers/external-accounts', ExternalAccount)
      // The published API pages this list too; a service that does not page answers one page without hasMore.
      const platform = await this.listAll(client, 'platform/external-accounts', ExternalAccount)
      // A part of a listing adds what it read and drops nothing: the rest is read at the next refresh.
      await this.d.cache.put('externalAccounts', [...customerAccounts.items, ...platform.items], {
        replaceAll: customerAccounts.ended && platform.ended,
        meta: platformOwned(this.d.cache, PLATFORM_EXTERNAL_ACCOUNT_IDS, platform.items, platform.ended)
      })
    })
  }

  /** `force`: balances moved (a transfer, a payment), so the rate limit does not apply. */
  internalAccounts(force = false): void {
    if (force) this.lastRun.delete('internalAccounts')
    this.refresh('internalAccounts', 'internalAccounts', async (client) => {
      // Read item by item, as the connection test counts them: one account Paydesk cannot read is left out, not all.
      const page = await client.get('platform/internal-accounts', UnpagedEnvelope)
      const { items: platform, rejected } = readItems(InternalAccount, page.data)
      this.logRejected('platform/internal-accounts', rejected)
      let customers: InternalAccount[] = []
      let ended = true
      try {
        ;({ items: customers, ended } = await this.listAll(client, 'customers/internal-accounts', InternalAccount))
      } catch (error) {
        // Optional endpoint of the reference; a service without it still lists platform accounts.
        if (!(error instanceof ApiError && (error.code === 'NOT_FOUND' || error.code === 'INVALID_INPUT'))) throw error
        customers = this.d.cache.all<InternalAccount>('internalAccounts').filter((a) => a.customerId)
      }
      await this.d.cache.put('internalAccounts', [...platform, ...customers], {
        replaceAll: ended,
        meta: platformOwned(this.d.cache, PLATFORM_INTERNAL_ACCOUNT_IDS, platform, true)
      })
    })
  }

  /** Discoveries are cached per query (`key`), as one document. */
  discoveries(key: string, query: DiscoveryQuery): void {
    this.refresh(`discoveries:${key}`, 'discoveries', async (client) => {
      const res = await client.get('discoveries', dataList(DiscoveryEntry), { ...query })
      await this.d.cache.put('discoveries', [{ id: key, rows: res.data, syncedAt: new Date().toISOString() }])
    })
  }
}
