import type { Transaction } from '../../../shared/api'
import { NAMED_COLLECTIONS, removeName, writeNames } from './names'
import { creationOrderKnown, DEFERRED_SCHEMA, TEXT_DEFERRED_KEY, textDeferred } from './schema'
import type { SqliteDatabase } from './sqlite'
import { recordStatusChange } from './status-history'
import { TEXT_SEGMENTS } from './text-search'
import { rowOf, type TransactionRow } from './transaction-rows'

/**
 * Every statement that writes the cache database. They run in the cache's writer thread (write-thread.ts), never on
 * the main process's event loop: a sync of 1,000 rows into a million-row cache updates a dozen indexes and its text
 * index, which takes seconds on a busy machine.
 */

export type CollectionName =
  | 'transactions'
  | 'customers'
  | 'externalAccounts'
  | 'internalAccounts'
  | 'discoveries'
  | 'meta'

/** One put: documents upserted, ids removed and metadata written, all in one transaction. */
export interface PutRequest {
  c: CollectionName
  docs: { id: string }[]
  remove?: string[]
  /** Ids of the collection not in `docs` are deleted (a full listing). */
  replaceAll?: boolean
  meta?: Record<string, unknown>
}

const TX_COLUMNS = [
  'id',
  'created_at',
  'updated_at',
  'amount',
  'currency',
  'status',
  'type',
  'customer_id',
  'platform_customer_id',
  'source_account',
  'destination_account',
  'reference',
  'search',
  'fp',
  'doc'
] as const

/** Runs a put in one transaction; returns the ids that actually changed (unchanged documents cost no write). */
export function putDocuments(db: SqliteDatabase, request: PutRequest): string[] {
  const { c, docs } = request
  return db.transaction(() => {
    // Metadata first: a flag that leaves the text index behind (schema migration 3) covers the rows it comes with.
    writeMeta(db, request.meta ?? {})
    const changed = c === 'transactions' ? putTransactions(db, docs as unknown as Transaction[]) : putDocs(db, c, docs)
    if (NAMED_COLLECTIONS.includes(c) && changed.length) {
      const relabel = new Set(changed)
      writeNames(
        db,
        c as 'customers',
        docs.filter((d) => relabel.has(d.id))
      )
    }
    const removals = new Set(request.remove ?? [])
    if (request.replaceAll) {
      const seen = new Set(docs.map((d) => d.id))
      for (const id of ids(db, c)) if (!seen.has(id)) removals.add(id)
    }
    for (const id of removals) if (remove(db, c, id)) changed.push(id)
    return changed
  })()
}

/**
 * Rebuilds the text index from the transactions and says it is kept again, in one transaction: a crash in between
 * leaves the flag set, and the rebuild runs again at the next open. After migration 4 it also drops the index it
 * replaced and counts the rows once (the triggers keep the count from then on).
 */
export function rebuildText(db: SqliteDatabase): void {
  db.transaction(() => {
    db.exec('DROP TABLE IF EXISTS tx_text')
    db.exec(`INSERT INTO tx_search (tx_search) VALUES ('rebuild')`)
    finishSchema(db)
    if (db.prepare('SELECT n IS NULL FROM tx_count').pluck().get() === 1) {
      db.exec('UPDATE tx_count SET n = (SELECT count(*) FROM tx)')
      db.exec('DELETE FROM tx_groups')
      db.exec('INSERT INTO tx_groups SELECT status, type, currency, count(*) FROM tx GROUP BY status, type, currency')
    }
    writeMeta(db, { [TEXT_DEFERRED_KEY]: false })
  })()
}

/**
 * Builds what DEFERRED_SCHEMA has and a cache that finished it before lacks (KEYS_BY_ROWID), and lists the rows written
 * out of creation order where the cache had rows before migration 6 (recordCreationOrder): every step is idempotent.
 */
export function finishSchema(db: SqliteDatabase): void {
  db.transaction(() => {
    db.exec(DEFERRED_SCHEMA)
    if (!creationOrderKnown(db)) recordCreationOrder(db)
  })()
}

/**
 * Lists the rows written out of creation order (schema.ts migration 6), as the triggers would have: in rowid order,
 * each row whose creation keys are below the greatest before it. Keys compare as SQLite does (the id's UTF-8 bytes).
 */
function recordCreationOrder(db: SqliteDatabase): void {
  const late: number[] = []
  let greatest: [number, string] | null = null
  const rows = db.prepare('SELECT rid, created_at, id FROM tx ORDER BY rid').raw()
  for (const [rid, createdAt, id] of rows.iterate() as Iterable<[number, number, string]>) {
    const below =
      greatest !== null &&
      (createdAt < greatest[0] ||
        (createdAt === greatest[0] && Buffer.compare(Buffer.from(id), Buffer.from(greatest[1])) < 0))
    if (below) late.push(rid)
    else greatest = [createdAt, id]
  }
  // Written once the read is done: the connection runs one statement at a time while a read iterates.
  db.exec('DELETE FROM tx_late')
  const insert = db.prepare('INSERT INTO tx_late (rid) VALUES (?)')
  for (const rid of late) insert.run(rid)
  db.prepare('UPDATE tx_order SET created_at = ?, id = ?, known = 1').run(greatest?.[0] ?? null, greatest?.[1] ?? null)
}

/**
 * The text index's segments: FTS5 keeps each batch of writes as a segment of its own and merges them only now and
 * then, so a long first sync leaves about 16 at a million rows. A search seeks each of its terms in every segment.
 */
export function textSegments(db: SqliteDatabase): number {
  return Number(db.prepare(`${TEXT_SEGMENTS} SELECT count(id) FROM segment`).pluck().get())
}

/**
 * One step of merging the text index's segments into one (FTS5's incremental 'merge' with a negative budget: every
 * segment is eligible, whatever its level), writing about `pages` pages in a transaction of its own, so writes that
 * arrive meanwhile run between steps (their rows go into new segments, which later steps merge too). After a long
 * first sync, a cold first search at a million rows read 686 index pages over 16 segments, 48 over one. Returns
 * whether work is left; nothing is done while the index is left behind (the rebuild that follows replaces it).
 */
export function mergeText(db: SqliteDatabase, pages: number): boolean {
  if (textDeferred(db)) return false
  const before = Number(db.prepare('SELECT total_changes()').pluck().get())
  db.prepare(`INSERT INTO tx_search (tx_search, rank) VALUES ('merge', ?)`).run(-pages)
  // FTS5's documented signal: fewer than two changes means there was nothing left to merge.
  return Number(db.prepare('SELECT total_changes()').pluck().get()) - before >= 2
}

/** Writes metadata values in one transaction. */
export function setMeta(db: SqliteDatabase, values: Record<string, unknown>): void {
  db.transaction(() => writeMeta(db, values))()
}

function putTransactions(db: SqliteDatabase, docs: Transaction[]): string[] {
  // The status beside the fingerprint, from the same row: a change of status is kept for the timeline (status-history.ts).
  const previous = db.prepare('SELECT fp, status FROM tx WHERE id = ?').raw()
  const upsert = db.prepare(
    `INSERT INTO tx (${TX_COLUMNS.join(', ')}) VALUES (${TX_COLUMNS.map((k) => `@${k}`).join(', ')})
     ON CONFLICT (id) DO UPDATE SET ${TX_COLUMNS.filter((k) => k !== 'id')
       .map((k) => `${k} = excluded.${k}`)
       .join(', ')}`
  )
  const changed: string[] = []
  const now = Date.now()
  for (const t of docs) {
    const row: TransactionRow = rowOf(t)
    const before = previous.get(row.id) as [string, string] | undefined
    if (before?.[0] === row.fp) continue
    if (before && before[1] !== row.status) recordStatusChange(db, row, now)
    upsert.run(row)
    changed.push(row.id)
  }
  return changed
}

function putDocs(db: SqliteDatabase, c: CollectionName, docs: { id: string }[]): string[] {
  const fingerprint = db.prepare('SELECT fp FROM docs WHERE c = ? AND id = ?').pluck()
  const upsert = db.prepare(
    'INSERT INTO docs (c, id, fp, doc) VALUES (?, ?, ?, ?) ON CONFLICT (c, id) DO UPDATE SET fp = excluded.fp, doc = excluded.doc'
  )
  const changed: string[] = []
  for (const d of docs) {
    const doc = JSON.stringify(d)
    if (fingerprint.get(c, d.id) === doc) continue
    upsert.run(c, d.id, doc, doc)
    changed.push(d.id)
  }
  return changed
}

function ids(db: SqliteDatabase, c: CollectionName): string[] {
  return (
    c === 'transactions'
      ? db.prepare('SELECT id FROM tx').pluck().all()
      : db.prepare('SELECT id FROM docs WHERE c = ?').pluck().all(c)
  ) as string[]
}

function remove(db: SqliteDatabase, c: CollectionName, id: string): boolean {
  const result =
    c === 'transactions'
      ? db.prepare('DELETE FROM tx WHERE id = ?').run(id)
      : db.prepare('DELETE FROM docs WHERE c = ? AND id = ?').run(c, id)
  if (NAMED_COLLECTIONS.includes(c)) removeName(db, id)
  return result.changes > 0
}

function writeMeta(db: SqliteDatabase, values: Record<string, unknown>): void {
  const upsert = db.prepare('INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v')
  for (const [k, v] of Object.entries(values)) upsert.run(k, JSON.stringify(v ?? null))
}
