import { randomBytes } from 'node:crypto'
import { promises as fs, statSync } from 'node:fs'
import path from 'node:path'
import type { Transaction } from '../../../shared/api'
import type { TransactionFilter, TransactionSort } from '../../../shared/ipc/channels/data'
import { setAside } from '../atomic-file'
import { cacheKeyAccount, type SecretStore } from '../keychain'
import { migrate, SCHEMA_FINISHED, TEXT_DEFERRED_KEY } from './schema'
import { openEncryptedDatabase, type SqliteDatabase } from './sqlite'
import { countPlanOf, textSearchOf, windowPlanOf, type TextPlan, type TextSearch } from './text-search'
import { afterOf, grouped, orderOf, sortKeysOf, walkable, whereOf } from './transaction-rows'
import { CacheWriter } from './writer'
import { putDocuments, setMeta, type CollectionName } from './writes'

/**
 * A profile's offline cache: one SQLCipher-encrypted SQLite database (WAL). Transactions have a column per filter
 * and sort, each indexed, and a trigram text index; the other collections are documents by id. Main reads through its
 * own connection; every write is one transaction run by the cache's writer thread (writer.ts), so main's event loop
 * never waits on one. Documents that did not change are skipped, so a poll that sees nothing new writes nothing.
 */

export const COLLECTIONS = [
  'transactions',
  'customers',
  'externalAccounts',
  'internalAccounts',
  'discoveries',
  'meta'
] as const satisfies readonly CollectionName[]
export type { CollectionName }

export type OpenOutcome = 'new' | 'loaded' | 'set-aside'

export interface CacheOpenInfo {
  outcome: OpenOutcome
  setAsideAs?: string
  reason?: string
  documents: number
  ms: number
}

/** The 32-byte cache key of a profile, created on first use and kept in the OS keychain next to its secret. */
export async function cacheKeyFor(secrets: SecretStore, profileId: string): Promise<{ key: Buffer; created: boolean }> {
  const account = cacheKeyAccount(profileId)
  const stored = await secrets.get(account)
  if (stored) {
    const key = Buffer.from(stored, 'base64')
    if (key.length === 32) return { key, created: false }
  }
  const key = randomBytes(32)
  await secrets.set(account, key.toString('base64'))
  return { key, created: true }
}

/** Decrypted pages kept in memory: repeated windows and counts read them from here instead of decrypting again. */
const PAGE_CACHE_KIB = 32 * 1024

/** Ids of matching transactions in order: what the approval queue and the sync engine's reconciliation read. */
export interface TransactionIds {
  query(filter: TransactionFilter, sort: TransactionSort): string[]
}

export class CacheStore {
  private closed = false
  /** Migration 4's sort indexes and group counts are built (the writer thread does it after the upgrade). */
  private sortIndexes = false
  readonly transactions: TransactionIds
  private readonly writer: CacheWriter

  private constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
    key: Buffer
  ) {
    this.writer = new CacheWriter(file, key)
    this.writer.start()
    this.transactions = {
      query: (filter, sort) => {
        const where = whereOf(filter)
        return this.db
          .prepare(`SELECT id FROM tx ${where.sql} ${orderOf(sort)}`)
          .pluck()
          .all(...where.params) as string[]
      }
    }
  }

  /**
   * Opens (or creates) the database. One that cannot be opened (wrong key, damaged, not ours, from a newer Paydesk)
   * is set aside, kept and never deleted, and an empty one takes its place: the cache only mirrors the service.
   */
  static async open(file: string, key: Buffer): Promise<{ store: CacheStore; info: CacheOpenInfo }> {
    const started = performance.now()
    const existed = await fs
      .stat(file)
      .then(() => true)
      .catch(() => false)
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
    // Created owner-only before SQLite opens it: its -wal and -shm files take the same mode.
    await createPrivate(file)
    let db: SqliteDatabase | undefined
    let reason: string | undefined
    try {
      db = openEncryptedDatabase(file, key)
      if (!migrate(db)) {
        db.close()
        db = undefined
        reason = 'written by a newer Paydesk'
      }
    } catch (error) {
      db = undefined
      reason = (error as { code?: string }).code === 'SQLITE_NOTADB' ? 'not readable with this key' : 'unreadable'
    }
    let setAsideAs: string | undefined
    if (!db) {
      setAsideAs = await setAside(file, 'corrupt')
      // Its journal files belong to the old database: kept beside it, never replayed into the new one.
      for (const suffix of ['-wal', '-shm']) await setAside(`${file}${suffix}`, 'corrupt').catch(() => undefined)
      await createPrivate(file)
      db = openEncryptedDatabase(file, key)
      migrate(db)
    }
    db.pragma(`cache_size = -${PAGE_CACHE_KIB}`)
    const store = new CacheStore(db, file, key)
    // A catch-up that ended with the app (crash, quit) left the text index behind: searches are whole again shortly.
    if (store.meta(TEXT_DEFERRED_KEY) === true) void store.rebuildText().catch(() => undefined)
    let documents = 0
    for (const c of COLLECTIONS) documents += store.count(c)
    const outcome: OpenOutcome = reason !== undefined ? 'set-aside' : existed ? 'loaded' : 'new'
    return {
      store,
      info: {
        outcome,
        ...(reason !== undefined && { reason }),
        ...(setAsideAs !== undefined && { setAsideAs }),
        documents,
        ms: performance.now() - started
      }
    }
  }

  get<T>(c: CollectionName, id: string): T | undefined {
    const q = documentQueries(c)
    const doc = this.db
      .prepare(q.get)
      .pluck()
      .get(...q.args, id)
    return typeof doc === 'string' ? (JSON.parse(doc) as T) : undefined
  }

  all<T>(c: CollectionName): T[] {
    const q = documentQueries(c)
    const docs = this.db
      .prepare(q.all)
      .pluck()
      .all(...q.args)
    return (docs as string[]).map((d) => JSON.parse(d) as T)
  }

  count(c: CollectionName): number {
    if (c === 'transactions') return this.transactionCount()
    const q = documentQueries(c)
    return Number(
      this.db
        .prepare(q.count)
        .pluck()
        .get(...q.args)
    )
  }

  meta<T>(key: string): T | undefined {
    return this.get<T>('meta', key)
  }

  /**
   * Puts documents (and deletes `remove` ids) in one transaction. Returns the ids that actually changed; unchanged
   * documents cost nothing. With `replaceAll`, ids of the collection not in `docs` are deleted (a full listing).
   */
  async put<T extends { id: string }>(
    c: CollectionName,
    docs: T[],
    opts: { remove?: string[]; replaceAll?: boolean; meta?: Record<string, unknown> } = {}
  ): Promise<string[]> {
    if (this.closed) return []
    const request = { c, docs, ...opts }
    if (this.writer.ready) return this.writer.put(request)
    this.writer.start()
    return putDocuments(this.db, request)
  }

  async setMeta(values: Record<string, unknown>): Promise<void> {
    if (this.closed) return
    if (this.writer.ready) await this.writer.setMeta(values)
    else setMeta(this.db, values)
  }

  /**
   * Rebuilds the text index left behind during a catch-up (schema migration 3), in the writer thread once it is up:
   * at a million rows it takes seconds, which main's event loop must not wait on.
   */
  async rebuildText(): Promise<void> {
    if (this.closed) return
    await this.writer.whenReady()
    if (!this.closed) await this.writer.rebuildText()
  }

  /** Resolves once writes run in the writer thread (before that, they run on main's connection). */
  writesOffThread(): Promise<void> {
    return this.writer.whenReady()
  }

  /** A window of the filtered, sorted transactions and the count of all matches, both answered from indexes. */
  queryTransactions(filter: TransactionFilter, sort: TransactionSort, offset: number, limit: number) {
    const candidates = this.textCandidates(filter)
    // The total first: how many rows match decides how the window is found.
    const total = this.countOf(filter, candidates)
    const where = this.windowWhere(filter, sort, candidates, total, offset + limit)
    // Keys first (ordered and paged from an index), then the documents of just the window's rows.
    const order = orderOf(sort)
    const docs = this.db
      .prepare(`SELECT doc FROM tx WHERE rid IN (SELECT rid FROM tx ${where.sql} ${order} LIMIT ? OFFSET ?) ${order}`)
      .pluck()
      .all(...where.params, limit, offset) as string[]
    return { rows: docs.map((d) => JSON.parse(d) as Transaction), total }
  }

  /**
   * The WHERE clause for the first `wanted` rows of a filter in a sort's order. A text search is met as text-search.ts
   * says. Otherwise, when many rows match and the sort's index carries every filtered column (schema 4), the index is
   * walked in order and the walk stops at the window's end (about wanted × rows / matches entries, none sorted, no row
   * read), instead of collecting and sorting every match from a filter's index: status COMPLETED newest first took
   * 0.75 s at a million rows that way.
   */
  private windowWhere(
    filter: TransactionFilter,
    sort: TransactionSort,
    candidates: { count: number } | null,
    matches: number,
    wanted: number
  ) {
    const rows = this.rowEstimate()
    if (candidates) {
      const plan = windowPlanOf(candidates.count, rows, wanted)
      return whereOf(filter, plan, plan === 'probe' && this.walkable(filter) ? sort.field : undefined)
    }
    if (matches === 0 || !this.schemaFinished()) return whereOf(filter, 'drive')
    // Walked entries cost a row read each when the filter is not in the sort's index; so does each match sorted
    // (customer by amount: 2-5 s at a million rows), unless the filter's own index is already in the sort's order.
    const walk = walkable(filter)
      ? windowPlanOf(matches, rows, wanted) === 'probe'
      : (wanted * rows) / matches < matches && !orderedByFilter(filter, sort)
    return whereOf(filter, 'drive', walk ? sort.field : undefined)
  }

  /** Whether the filter can be read from the sort indexes, once the writer thread has built them (schema 4). */
  private walkable(filter: TransactionFilter): boolean {
    return walkable(filter) && this.schemaFinished()
  }

  private schemaFinished(): boolean {
    this.sortIndexes ||= this.db.prepare(SCHEMA_FINISHED).pluck().get() === 1
    return this.sortIndexes
  }

  /**
   * One page of the filtered, sorted transactions after `after` (the `last` of the previous page; null: from the
   * start). An export walks the whole set this way, one page in memory at a time, and the event loop runs between pages.
   */
  transactionPage(filter: TransactionFilter, sort: TransactionSort, after: unknown[] | null, limit: number) {
    const candidates = this.textCandidates(filter)
    const matches = candidates ? 0 : this.countOf(filter, null)
    const where = this.windowWhere(filter, sort, candidates, matches, limit)
    const keys = sortKeysOf(sort)
    const seek = after ? afterOf(sort, after) : { sql: '', params: [] }
    const conditions = [where.sql.replace(/^WHERE /, ''), seek.sql].filter(Boolean)
    // Keys first (ordered and limited from an index), then the documents of just this page's rows.
    const filtered = conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''
    const rows = this.db
      .prepare(
        `SELECT ${keys.join(', ')}, doc FROM tx WHERE rid IN (SELECT rid FROM tx ${filtered} ${orderOf(sort)} LIMIT ?) ${orderOf(sort)}`
      )
      .raw()
      .all(...where.params, ...seek.params, limit) as unknown[][]
    return {
      rows: rows.map((r) => JSON.parse(r[r.length - 1] as string) as Transaction),
      last: rows.length ? rows[rows.length - 1]!.slice(0, keys.length) : null
    }
  }

  /** How many transactions match a filter, from the indexes. */
  countTransactions(filter: TransactionFilter): number {
    return this.countOf(filter, this.textCandidates(filter))
  }

  /**
   * A filter's text search and how many rows contain it, counted in the text index alone (its lists of rowids and
   * positions: no row is read). Null when the filter has no text search.
   */
  private textCandidates(filter: TransactionFilter): { search: TextSearch; count: number } | null {
    const search = textSearchOf(filter.search)
    if (!search) return null
    const count = this.db.prepare('SELECT count(*) FROM tx_search WHERE tx_search MATCH ?').pluck().get(search.match)
    return { search, count: Number(count) }
  }

  /**
   * How many transactions there are, as the triggers keep it (schema 4) with the rows, in the same transaction; a
   * count over the rows only while the writer thread has not counted them yet after the upgrade.
   */
  private transactionCount(): number {
    const kept = this.db.prepare('SELECT n FROM tx_count').pluck().get()
    return typeof kept === 'number' ? kept : Number(this.db.prepare('SELECT count(*) FROM tx').pluck().get())
  }

  /** About how many transactions there are, from the end of the rowid B-tree (a count(*) would walk an index). */
  private rowEstimate(): number {
    return Number(this.db.prepare('SELECT max(rid) FROM tx').pluck().get() ?? 0)
  }

  private countOf(filter: TransactionFilter, candidates: { search: TextSearch; count: number } | null): number {
    let plan: TextPlan = 'drive'
    if (candidates) {
      // A search alone is counted exactly by the text index; with other filters, their index may be walked instead.
      if (!whereOf({ ...filter, search: undefined }).sql) return candidates.count
      plan = countPlanOf(candidates.count, this.rowEstimate())
    }
    const where = whereOf(filter, plan)
    if (!where.sql) return this.transactionCount()
    if (grouped(filter) && this.schemaFinished()) {
      // Status, type and currency alone: summed from the kept group counts (a few dozen rows), not counted.
      return Number(
        this.db
          .prepare(`SELECT coalesce(sum(n), 0) FROM tx_groups ${where.sql}`)
          .pluck()
          .get(...where.params)
      )
    }
    return Number(
      this.db
        .prepare(`SELECT count(*) FROM tx ${where.sql}`)
        .pluck()
        .get(...where.params)
    )
  }

  /** The database and its write-ahead log on disk. */
  get fileBytes(): number {
    let bytes = 0
    for (const f of [this.file, `${this.file}-wal`]) {
      try {
        bytes += statSync(f).size
      } catch {
        // No WAL yet.
      }
    }
    return bytes
  }

  /** Moves the write-ahead log into the database file and empties it. */
  async compact(): Promise<void> {
    if (this.closed) return
    if (this.writer.ready) await this.writer.compact()
    else this.db.pragma('wal_checkpoint(TRUNCATE)')
  }

  /** Finishes the writes already made, then closes the writer's connection and main's. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.writer.close()
    this.db.close()
  }
}

async function createPrivate(file: string): Promise<void> {
  const handle = await fs.open(file, 'a', 0o600)
  await handle.close()
  await fs.chmod(file, 0o600)
}

/** Whether a customer filter's index (customer, creation time) already gives the rows in the sort's order. */
function orderedByFilter(filter: TransactionFilter, sort: TransactionSort): boolean {
  return sort.field === 'createdAt' && Boolean(filter.customerId || filter.platformCustomerId)
}

/** Where a collection's documents live: transactions and meta have tables of their own, the rest share `docs`. */
function documentQueries(c: CollectionName): { get: string; all: string; count: string; args: string[] } {
  const [table, doc, key, order, shared] =
    c === 'transactions'
      ? ['tx', 'doc', 'id', ' ORDER BY created_at, id', false]
      : c === 'meta'
        ? ['meta', 'v', 'k', '', false]
        : ['docs', 'doc', 'id', '', true]
  const where = shared ? ' WHERE c = ?' : ''
  return {
    get: `SELECT ${doc} FROM ${table} WHERE ${shared ? 'c = ? AND ' : ''}${key} = ?`,
    all: `SELECT ${doc} FROM ${table}${where}${order}`,
    count: `SELECT count(*) FROM ${table}${where}`,
    args: shared ? [c] : []
  }
}
