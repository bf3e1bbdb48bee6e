import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Job } from './scheduler'
import { openSqlite, type OpenSqliteOptions, type SqliteDatabase } from './sqlite'
import { STATE_FORMAT, STATE_VERSION, type PersistedState, type Store } from './sandbox-store'
import { fillTransactionKeys, storedTransactions, transactionWriter } from './transaction-table'

export type Logger = (message: string) => void

const SQLITE_MAGIC = 'SQLite format 3\0'
/** Schema of the SQLite state file; bump with a migration when tables change (loadDatabase). */
const SCHEMA_VERSION = 2

function isPersistedState(v: unknown): v is PersistedState {
  if (!v || typeof v !== 'object') return false
  const s = v as Record<string, unknown>
  const arrays = [
    'customers',
    'externalAccounts',
    'internalAccounts',
    'transactions',
    'quotes',
    'journal',
    'idempotency',
    'jobs'
  ]
  return (
    s.format === STATE_FORMAT &&
    s.version === STATE_VERSION &&
    typeof s.seq === 'number' &&
    !!s.platform &&
    typeof s.platform === 'object' &&
    arrays.every((k) => Array.isArray(s[k]))
  )
}

type LoadResult =
  | { kind: 'missing' }
  | { kind: 'loaded'; state: PersistedState }
  | { kind: 'corrupt'; movedTo: string; reason: string }

/** What is saved: the live store and the scheduler's pending jobs. */
interface StateSource {
  store: Store
  jobs(): Job[]
  savedAt(): string
}

/** Small collections: diffed against what was last written (they hold tens to hundreds of records). */
const SMALL_KINDS = ['customer', 'externalAccount', 'internalAccount', 'quote', 'idempotency'] as const
type SmallKind = (typeof SMALL_KINDS)[number]

function smallRecords(store: Store, kind: SmallKind): Iterable<{ id: string; doc: unknown }> {
  switch (kind) {
    case 'customer':
      return [...store.customers.values()].map((r) => ({ id: r.id, doc: r }))
    case 'externalAccount':
      return [...store.externalAccounts.values()].map((r) => ({ id: r.id, doc: r }))
    case 'internalAccount':
      return [...store.internalAccounts.values()].map((r) => ({ id: r.id, doc: r }))
    case 'quote':
      return [...store.quotes.values()].map((r) => ({ id: r.id, doc: r }))
    case 'idempotency':
      return [...store.idempotency.values()].map((r) => ({ id: r.key, doc: r }))
  }
}

/**
 * The state file: a plain SQLite database. A save writes, in one transaction, only what changed since the last one:
 * the transactions the store marked dirty, journal entries appended since, and small records whose JSON differs. A
 * file that cannot be read as sandbox state is renamed aside, never overwritten; a JSON state file of the previous
 * format is imported and kept beside it as `<file>.v1.json`.
 */
export class StateFile {
  private timer: NodeJS.Timeout | undefined
  private db: SqliteDatabase | undefined
  private source: StateSource | undefined
  private dirty = false
  private closed = false
  private lastError: unknown
  private journalSaved = 0
  private readonly written = new Map<string, string>()

  constructor(
    readonly file: string,
    private readonly log: Logger,
    private readonly debounceMs = 50,
    private readonly sqlite: OpenSqliteOptions = {}
  ) {}

  load(now: number): LoadResult {
    if (!existsSync(this.file)) return { kind: 'missing' }
    let reason: string
    try {
      const head = readHead(this.file, SQLITE_MAGIC.length)
      if (head === SQLITE_MAGIC) return this.loadDatabase()
      if (head.trimStart().startsWith('{')) return this.migrateJson()
      reason = 'not a SQLite database nor a JSON state file'
    } catch (err) {
      this.db?.close()
      this.db = undefined
      reason = err instanceof Error ? err.message : String(err)
    }
    const stamp = new Date(now).toISOString().replace(/[:.]/g, '-')
    let movedTo = `${this.file}.corrupt-${stamp}`
    for (let i = 1; existsSync(movedTo); i++) movedTo = `${this.file}.corrupt-${stamp}-${i}`
    renameSync(this.file, movedTo)
    for (const side of ['-wal', '-shm']) if (existsSync(this.file + side)) renameSync(this.file + side, movedTo + side)
    this.log(
      `Local sandbox: the state file ${this.file} could not be read (${reason}). It was kept as ${movedTo}; ` +
        'the sandbox starts with fresh data.'
    )
    return { kind: 'corrupt', movedTo, reason }
  }

  /** Start saving `source`; with `writeAll`, everything is written now (fresh, migrated or generated state). */
  attach(source: StateSource, writeAll: boolean): void {
    this.source = source
    source.store.trackChanges = true
    if (writeAll) {
      for (const r of source.store.transactions.keys()) source.store.dirtyTx.add(r)
      this.journalSaved = 0
      this.dirty = true
      this.saveNow()
    } else {
      source.store.dirtyTx.clear()
      this.journalSaved = source.store.journal.length
      // What was loaded is what is on disk: remember it so the next save writes only differences.
      for (const kind of SMALL_KINDS)
        for (const r of smallRecords(source.store, kind)) this.written.set(`${kind}|${r.id}`, JSON.stringify(r.doc))
    }
  }

  /** Note a change; the file is written at most once per debounce period. */
  markDirty(): void {
    if (this.closed) return
    this.dirty = true
    if (this.timer) return
    this.timer = setTimeout(() => {
      this.timer = undefined
      void this.flush()
    }, this.debounceMs)
    this.timer.unref()
  }

  /** A background save in progress (saveInBackground): flushes wait for it, then write what changed meanwhile. */
  private background: Promise<void> | undefined

  /**
   * Writes what changed like `flush`, but the changed transactions a slice at a time with the event loop running
   * between slices, so a server can answer while a generated history of 100,000 (130 MB) is written. It is one
   * SQLite transaction, committed after the last slice together with everything that changed meanwhile: a crash
   * before it leaves the file as it was (no half history), and readers of the file see the old state until then.
   */
  saveInBackground(sliceRows = 2_000): Promise<void> {
    this.background ??= this.saveInSlices(sliceRows).finally(() => {
      this.background = undefined
    })
    return this.background
  }

  private async saveInSlices(sliceRows: number): Promise<void> {
    const store = this.source?.store
    if (!store || this.closed) return
    const ids = [...store.dirtyTx]
    const db = this.database()
    const putTx = transactionWriter(db)
    db.exec('BEGIN IMMEDIATE')
    try {
      for (let at = 0; at < ids.length; at += sliceRows) {
        for (const id of ids.slice(at, at + sliceRows)) {
          const rec = store.transactions.get(id)
          if (rec) putTx(rec)
          // Written as it is now: a later change marks it dirty again and the closing save writes it once more.
          store.dirtyTx.delete(id)
        }
        await new Promise((resolve) => setImmediate(resolve))
      }
      // The rest, and whatever changed during the slices, in the same transaction (a savepoint inside it).
      this.dirty = true
      this.saveNow()
      db.exec('COMMIT')
    } catch (err) {
      if (db.inTransaction) db.exec('ROLLBACK')
      // Nothing of it is in the file: the next save writes every transaction and every small record again.
      for (const id of store.transactions.keys()) store.dirtyTx.add(id)
      this.written.clear()
      this.journalSaved = 0
      this.dirty = true
      this.lastError = err
      this.log(`Local sandbox: could not save ${this.file}: ${err instanceof Error ? err.message : String(err)}`)
    }
  }

  /** Write now if anything changed (after a background save in progress). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer)
      this.timer = undefined
    }
    await this.background
    try {
      this.saveNow()
    } catch (err) {
      this.lastError = err
      this.dirty = true
      this.log(`Local sandbox: could not save ${this.file}: ${err instanceof Error ? err.message : String(err)}`)
    }
  }

  get error(): unknown {
    return this.lastError
  }

  async close(): Promise<void> {
    await this.flush()
    this.closed = true
    this.db?.close()
    this.db = undefined
  }

  private database(): SqliteDatabase {
    if (this.db) return this.db
    mkdirSync(dirname(this.file), { recursive: true })
    const db = openSqlite(this.file, this.sqlite)
    db.exec(`
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      -- Rowid tables: rows of about 1 KB of JSON would spill into overflow pages in a WITHOUT ROWID table (3.5x
      -- the size on disk at 100k transactions).
      CREATE TABLE IF NOT EXISTS docs (kind TEXT NOT NULL, id TEXT NOT NULL, doc TEXT NOT NULL, UNIQUE (kind, id));
      CREATE TABLE IF NOT EXISTS transactions (id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL);
      -- Schema 2: each transaction's sort and filter keys, written with it, so a start reads these short rows and not
      -- the documents (StoredTransaction).
      CREATE TABLE IF NOT EXISTS transaction_keys (
        id TEXT PRIMARY KEY, t INTEGER NOT NULL, customer_id TEXT, platform_customer_id TEXT, status TEXT NOT NULL,
        type TEXT NOT NULL, sender TEXT, receiver TEXT, reference TEXT
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS journal (n INTEGER PRIMARY KEY, doc TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS jobs (n INTEGER PRIMARY KEY, doc TEXT NOT NULL);
    `)
    this.db = db
    return db
  }

  private loadDatabase(): LoadResult {
    const db = this.database()
    const meta = new Map(
      (db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value])
    )
    if (meta.get('format') !== STATE_FORMAT) throw new Error(`not a ${STATE_FORMAT} database`)
    if (meta.get('schema') === '1') {
      // Schema 2 added transaction_keys (database() created it empty): filled from the documents, once.
      db.transaction(() => {
        fillTransactionKeys(db)
        db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', ?)").run(String(SCHEMA_VERSION))
      })()
    } else if (meta.get('schema') !== String(SCHEMA_VERSION))
      throw new Error(`not a ${STATE_FORMAT} database of schema ${SCHEMA_VERSION}`)
    // Row by row: at a million transactions, holding every row's text next to its parsed object doubled the peak.
    const docs = (sql: string): unknown[] => {
      const out: unknown[] = []
      for (const text of db.prepare(sql).pluck().iterate() as IterableIterator<string>) out.push(JSON.parse(text))
      return out
    }
    const kind = (k: SmallKind): unknown[] => docs(`SELECT doc FROM docs WHERE kind = '${k}'`)
    const state = {
      format: STATE_FORMAT,
      version: STATE_VERSION,
      savedAt: meta.get('savedAt') ?? '',
      seq: Number(meta.get('seq')),
      platform: JSON.parse(meta.get('platform') ?? 'null') as unknown,
      customers: kind('customer'),
      externalAccounts: kind('externalAccount'),
      internalAccounts: kind('internalAccount'),
      quotes: kind('quote'),
      idempotency: kind('idempotency'),
      transactions: storedTransactions(db),
      journal: docs('SELECT doc FROM journal ORDER BY n'),
      jobs: docs('SELECT doc FROM jobs ORDER BY n'),
      ...(meta.has('generatedTransactions') && { generatedTransactions: Number(meta.get('generatedTransactions')) }),
      ...(meta.has('settings') && { settings: JSON.parse(meta.get('settings') as string) as unknown })
    }
    if (!isPersistedState(state)) throw new Error(`the ${STATE_FORMAT} database is incomplete`)
    return { kind: 'loaded', state }
  }

  private migrateJson(): LoadResult {
    const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as unknown
    if (!isPersistedState(parsed)) throw new Error(`not a ${STATE_FORMAT} document of version ${STATE_VERSION}`)
    let keptAs = `${this.file}.v1.json`
    for (let i = 1; existsSync(keptAs); i++) keptAs = `${this.file}.v1-${i}.json`
    renameSync(this.file, keptAs)
    this.log(
      `Local sandbox: imported the JSON state file into SQLite at ${this.file}; the old file is kept as ${keptAs}`
    )
    // The caller attaches with writeAll, which writes every record into the new database.
    this.migrated = true
    return { kind: 'loaded', state: parsed }
  }

  /** True when load() imported a JSON file: the database must be written in full. */
  migrated = false

  private saveNow(): void {
    const source = this.source
    if (!source || !this.dirty) return
    this.dirty = false
    const db = this.database()
    const store = source.store
    const putMeta = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)')
    const putDoc = db.prepare('INSERT OR REPLACE INTO docs (kind, id, doc) VALUES (?, ?, ?)')
    const delDoc = db.prepare('DELETE FROM docs WHERE kind = ? AND id = ?')
    const putTx = transactionWriter(db)
    const putJournal = db.prepare('INSERT OR REPLACE INTO journal (n, doc) VALUES (?, ?)')
    const putJob = db.prepare('INSERT INTO jobs (n, doc) VALUES (?, ?)')
    db.transaction(() => {
      putMeta.run('format', STATE_FORMAT)
      putMeta.run('schema', String(SCHEMA_VERSION))
      putMeta.run('seq', String(store.ids.sequence))
      putMeta.run('platform', JSON.stringify(store.platform))
      putMeta.run('savedAt', source.savedAt())
      if (store.generatedTransactions !== undefined)
        putMeta.run('generatedTransactions', String(store.generatedTransactions))
      if (store.settings !== undefined) putMeta.run('settings', JSON.stringify(store.settings))
      const seen = new Set<string>()
      for (const kind of SMALL_KINDS) {
        for (const r of smallRecords(store, kind)) {
          const key = `${kind}|${r.id}`
          seen.add(key)
          const text = JSON.stringify(r.doc)
          if (this.written.get(key) === text) continue
          putDoc.run(kind, r.id, text)
          this.written.set(key, text)
        }
      }
      for (const key of [...this.written.keys()]) {
        if (seen.has(key)) continue
        const cut = key.indexOf('|')
        delDoc.run(key.slice(0, cut), key.slice(cut + 1))
        this.written.delete(key)
      }
      for (const id of store.dirtyTx) {
        const rec = store.transactions.get(id)
        if (rec) putTx(rec)
      }
      for (let n = this.journalSaved; n < store.journal.length; n++) putJournal.run(n, JSON.stringify(store.journal[n]))
      db.prepare('DELETE FROM jobs').run()
      source.jobs().forEach((job, n) => putJob.run(n, JSON.stringify(job)))
    })()
    store.dirtyTx.clear()
    this.journalSaved = store.journal.length
  }
}

function readHead(file: string, bytes: number): string {
  const fd = openSync(file, 'r')
  try {
    const buf = Buffer.alloc(bytes)
    const n = readSync(fd, buf, 0, bytes, 0)
    return buf.subarray(0, n).toString('latin1')
  } finally {
    closeSync(fd)
  }
}
