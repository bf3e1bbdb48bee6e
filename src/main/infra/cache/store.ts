import { randomBytes } from 'node:crypto'
import { promises as fs, statSync } from 'node:fs'
import path from 'node:path'
import type { Transaction } from '../../../shared/api'
import type { TransactionFilter, TransactionSort } from '../../../shared/ipc/channels/data'
import type { CurrencyTotal } from '../../../shared/ipc/channels/workbench'
import type { StatusHistoryEntry } from '../../../shared/status-history'
import { setAside } from '../atomic-file'
import { cacheKeyAccount, type SecretStore } from '../keychain'
import { readHomeRows, type HomeRequest, type HomeRows } from './home-figures'
import { LabelMemory, NAMED_COLLECTIONS } from './names'
import { CacheReader } from './reader'
import { creationOrderKnown, hasIndex, KEYS_BY_ROWID, migrate } from './schema'
import { openEncryptedDatabase, type SqliteDatabase } from './sqlite'
import { statusHistory } from './status-history'
import { TEXT_REBUILDING, textIndexBehind } from './text-policy'
import { TransactionQueries } from './transaction-queries'
import { transactionTotals } from './transaction-totals'
import { orderOf, whereOf } from './transaction-rows'
import { CacheWriter } from './writer'
import { putDocuments, setMeta, type CollectionName } from './writes'

/**
 * A profile's offline cache: one SQLCipher-encrypted SQLite database (WAL). Transactions have a column per filter
 * and sort, each indexed, and a trigram text index; the other collections are documents by id. The transaction views'
 * queries run in the cache's reader thread (reader.ts), documents by id and metadata on main's own connection, and
 * every write is one transaction run by the cache's writer thread (writer.ts), so main's event loop never waits on
 * a long statement. The store owns both threads: they open and close with it. Documents that did not change are
 * skipped, so a poll that sees nothing new writes nothing.
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

/**
 * Decrypted pages kept in memory: repeated windows and counts read them from here instead of decrypting again. The
 * reader thread answers the views, so it gets the room; main's connection reads documents by id and the metadata.
 */
const READER_CACHE_KIB = 32 * 1024
const MAIN_CACHE_KIB = 8 * 1024
const TOTALS_CACHE_KIB = 8 * 1024
/** Rows from the top of the whole list that main answers itself while the reader thread starts: a first screen. */
const FIRST_ROWS_ON_MAIN = 500

/** Ids of matching transactions in order: what the approval queue and the sync engine's reconciliation read. */
export interface TransactionIds {
  query(filter: TransactionFilter, sort: TransactionSort): string[]
}

export class CacheStore {
  private closed = false
  readonly transactions: TransactionIds
  private readonly writer: CacheWriter
  private readonly reader: CacheReader
  /** A second reader thread for the totals of a filtered set: they scan every match, and windows must not wait on it. */
  private readonly totalsReader: CacheReader
  /**
   * The views' queries on main's own connection: while the reader thread cannot start, and the first rows of the whole
   * list while it is still starting.
   */
  private readonly queries: TransactionQueries
  /** The labels the lists and the detail name ids with, read on main's connection (names.ts). */
  private readonly labels: LabelMemory

  private constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
    key: Buffer
  ) {
    this.writer = new CacheWriter(file, key)
    this.writer.start()
    this.reader = new CacheReader({ file, key, cacheKiB: READER_CACHE_KIB })
    this.reader.start()
    // Started by its first read: a profile whose workbench never shows totals never opens it.
    this.totalsReader = new CacheReader({ file, key, cacheKiB: TOTALS_CACHE_KIB })
    this.queries = new TransactionQueries(db)
    this.labels = new LabelMemory(db)
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
    const found = await fs.lstat(file).catch(() => undefined)
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
    let reason: string | undefined
    let setAsideAs: string | undefined
    // A folder (or anything but a file) in its place, or in its journal files' place, cannot be opened, nor made
    // private: set aside like a damaged database.
    const journals = await Promise.all(JOURNALS.map((suffix) => fs.lstat(`${file}${suffix}`).catch(() => undefined)))
    if ((found && !found.isFile()) || journals.some((j) => j && !j.isFile())) {
      reason = 'a folder where a file should be'
      setAsideAs = await setAsideWithJournals(file)
    }
    const existed = found !== undefined
    // Created owner-only before SQLite opens it: its -wal and -shm files take the same mode.
    await createPrivate(file)
    let db: SqliteDatabase | undefined
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
    if (!db) {
      setAsideAs = await setAsideWithJournals(file)
      await createPrivate(file)
      db = openEncryptedDatabase(file, key)
      migrate(db)
    }
    db.pragma(`cache_size = -${MAIN_CACHE_KIB}`)
    const store = new CacheStore(db, file, key)
    // A catch-up that ended with the app (crash, quit) left the text index behind: searches are whole again shortly.
    if (textIndexBehind(store)) void store.rebuildText().catch(() => undefined)
    // A rebuild finishes the schema too; otherwise what was added to it since this cache was made is built now.
    else if (!hasIndex(db, KEYS_BY_ROWID) || !creationOrderKnown(db)) void store.finishSchema().catch(() => undefined)
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

  /** The labels of these customer and account ids that the cache knows (names.ts), by id. */
  namesOf(ids: readonly (string | null | undefined)[]): Record<string, string> {
    return this.labels.of(ids)
  }

  /** The statuses a transaction was seen in, oldest first (status-history.ts): a few rows by index, on main. */
  statusHistory(id: string): StatusHistoryEntry[] {
    return statusHistory(this.db, id)
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
    if (c === 'transactions') return this.queries.total()
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
    const onMain = !this.writer.ready
    if (onMain) this.writer.start()
    const changed = onMain ? putDocuments(this.db, request) : await this.writer.put(request)
    // Committed: the labels read from now on are the new ones (a window's names are read after its rows).
    if (changed.length > 0 && NAMED_COLLECTIONS.includes(c)) this.labels.forget()
    return changed
  }

  async setMeta(values: Record<string, unknown>): Promise<void> {
    if (this.closed) return
    if (this.writer.ready) await this.writer.setMeta(values)
    else setMeta(this.db, values)
  }

  /** Rebuilds the text index left behind (schema migration 3) in the writer thread: seconds at a million rows. */
  async rebuildText(): Promise<void> {
    if (this.closed) return
    await this.writer.whenReady()
    if (!this.closed) await this.writer.rebuildText()
  }

  /**
   * What a sync waits for once it has read the whole history: a text index left behind for the catch-up (text-policy.ts)
   * is rebuilt in one go, `announce` told first so the status says why the poll takes a while. Nothing when it is whole.
   */
  async catchUpText(announce: (message: string) => void): Promise<void> {
    if (!textIndexBehind(this)) return
    announce(TEXT_REBUILDING)
    await this.rebuildText()
  }

  /**
   * Builds what an older cache lacks (schema.ts KEYS_BY_ROWID, the list of rows written out of creation order) in the
   * writer thread: seconds at a million rows.
   */
  async finishSchema(): Promise<void> {
    if (this.closed) return
    await this.writer.whenReady()
    if (!this.closed) await this.writer.finishSchema()
  }

  /** Resolves once writes run in the writer thread (before that, they run on main's connection). */
  writesOffThread(): Promise<void> {
    return this.writer.whenReady()
  }

  /**
   * A window of the filtered, sorted transactions and the count of all matches, both answered from indexes by the
   * reader thread (transaction-queries.ts says how): main's event loop runs none of it.
   */
  async queryTransactions(filter: TransactionFilter, sort: TransactionSort, offset: number, limit: number) {
    // The operator is at the list: the text index's merge waits, rather than take a core the answer needs.
    this.writer.holdMerge()
    const { docs, total } =
      this.reader.available && !this.firstRowsOnMain(filter, offset, limit)
        ? await this.reader.read('window', { filter, sort, offset, limit })
        : // One snapshot, as in the thread: the total and the rows agree even while the writer commits.
          this.db.transaction(() => this.queries.window(filter, sort, offset, limit))()
    const rows = JSON.parse(docs) as Transaction[]
    return { rows, names: this.labels.ofTransactions(rows), total }
  }

  /**
   * Whether main answers a window itself because the reader thread has not opened the database yet. On a loaded
   * machine a thread takes from 0.1 s to over a second to start, and the list's first screen after a start would wait
   * for it. Only the top rows of the whole list, unfiltered, once the total is kept and the sort has its index: a few
   * index pages and one row at any size, as cheap as a document read by id. Anything else waits for the thread.
   */
  private firstRowsOnMain(filter: TransactionFilter, offset: number, limit: number): boolean {
    if (this.reader.ready || offset + limit > FIRST_ROWS_ON_MAIN) return false
    if (Object.values(filter).some((value) => value !== undefined)) return false
    return this.queries.topIsCheap()
  }

  /**
   * One page of the filtered, sorted transactions after `after` (the `last` of the previous page; null: from the
   * start). An export walks the whole set this way, one page in memory at a time, and the event loop runs between pages.
   */
  async transactionPage(filter: TransactionFilter, sort: TransactionSort, after: unknown[] | null, limit: number) {
    const { docs, last } = this.reader.available
      ? await this.reader.read('page', { filter, sort, after, limit })
      : this.queries.page(filter, sort, after, limit)
    const rows = JSON.parse(docs) as Transaction[]
    return { rows, names: this.labels.ofTransactions(rows), last }
  }

  /** How many transactions match a filter, from the indexes (in the reader thread). */
  async countTransactions(filter: TransactionFilter): Promise<number> {
    return this.reader.available ? this.reader.read('count', { filter }) : this.queries.count(filter)
  }

  /** Per currency, the count and sum of every match of a filter (transaction-totals.ts), in the totals thread. */
  async transactionTotals(filter: TransactionFilter): Promise<CurrencyTotal[]> {
    return this.totalsReader.available
      ? this.totalsReader.read('totals', { filter })
      : transactionTotals(this.db, filter)
  }

  /** Home's daily sums and failed count (home-figures.ts), in the reader thread, from one snapshot. */
  async homeRows(request: HomeRequest): Promise<HomeRows> {
    return this.reader.available
      ? this.reader.read('home', request)
      : this.db.transaction(() => readHomeRows(this.db, request))()
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
    await this.reader.close()
    await this.totalsReader.close()
    await this.writer.close()
    this.db.close()
  }
}

const JOURNALS = ['-wal', '-shm']

/** The database set aside with its journal files: they belong to it, kept beside it, never replayed into a new one. */
async function setAsideWithJournals(file: string): Promise<string | undefined> {
  const where = await setAside(file, 'corrupt')
  for (const suffix of JOURNALS) await setAside(`${file}${suffix}`, 'corrupt').catch(() => undefined)
  return where
}

async function createPrivate(file: string): Promise<void> {
  const handle = await fs.open(file, 'a', 0o600)
  await handle.close()
  await fs.chmod(file, 0o600)
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
