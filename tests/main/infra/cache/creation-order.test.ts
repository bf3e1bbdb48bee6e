import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { candidatesInCreationOrder, MOST_LATE } from '../../../../src/main/infra/cache/creation-order'
import { creationOrderKnown, migrate, TEXT_DEFERRED_KEY } from '../../../../src/main/infra/cache/schema'
import { openEncryptedDatabase, type SqliteDatabase } from '../../../../src/main/infra/cache/sqlite'
import { CacheStore } from '../../../../src/main/infra/cache/store'
import { textSearchOf } from '../../../../src/main/infra/cache/text-search'
import { TransactionQueries } from '../../../../src/main/infra/cache/transaction-queries'
import { putDocuments } from '../../../../src/main/infra/cache/writes'
import type { Transaction } from '../../../../src/shared/api'
import { tempDir } from '../../helpers'
import { cacheOfSchema, makeTransactions, traceStatements } from './fixtures'

// Rows written out of creation order are listed as late (schema.ts migration 6), so that a search's newest rows are
// its highest-rowid candidates merged with its late ones (creation-order.ts).

let dir = ''
let cleanup: () => Promise<void> = async () => {}
const opened: SqliteDatabase[] = []
beforeEach(async () => {
  ;({ dir, cleanup } = await tempDir('cache-creation-order'))
})
afterEach(async () => {
  for (const db of opened.splice(0)) db.close()
  await cleanup()
})
const key = randomBytes(32)

function freshCache(name = 'c.db'): SqliteDatabase {
  const db = openEncryptedDatabase(path.join(dir, name), key)
  opened.push(db)
  migrate(db)
  return db
}
const put = (db: SqliteDatabase, docs: Transaction[]) => putDocuments(db, { c: 'transactions', docs })
const lateIds = (db: SqliteDatabase) =>
  db.prepare('SELECT tx.id FROM tx_late JOIN tx USING (rid) ORDER BY tx.id').pluck().all() as string[]

describe('rows written out of creation order', () => {
  it('are none while a history is written oldest first and then what is new', () => {
    const db = freshCache()
    const rows = makeTransactions(300)
    put(db, rows.slice(0, 200))
    put(db, rows.slice(200))
    expect(creationOrderKnown(db)).toBe(true)
    expect(lateIds(db)).toEqual([])
  })

  it('are the rows written after a newer one, and the rows whose creation time changed, until they are removed', () => {
    const db = freshCache()
    const rows = makeTransactions(50)
    put(db, [...rows.slice(0, 10), ...rows.slice(20, 30)])
    // Rows 10-19 arrive after newer ones (a page of history read late); row 40 is new.
    put(db, [...rows.slice(10, 20), rows[40]!])
    expect(lateIds(db)).toEqual(rows.slice(10, 20).map((t) => t.id))
    // A creation time that changes, twice (an upsert's own conflict handling must not fail the trigger's write).
    const moved = { ...rows[25]!, createdAt: '2025-06-01T00:00:00.000Z', updatedAt: '2026-06-01T00:00:00.000Z' }
    put(db, [moved as Transaction])
    put(db, [{ ...moved, createdAt: '2025-06-02T00:00:00.000Z', updatedAt: '2026-06-02T00:00:00.000Z' } as Transaction])
    expect(lateIds(db)).toContain(rows[25]!.id)
    putDocuments(db, { c: 'transactions', docs: [], remove: rows.slice(10, 20).map((t) => t.id) })
    expect(lateIds(db)).toEqual([rows[25]!.id])
  })

  it('are listed by the writer thread for a cache that had rows before it kept them, as the triggers list them', async () => {
    const rows = makeTransactions(400)
    const order = [...rows.slice(0, 100), ...rows.slice(150, 300), ...rows.slice(100, 150), ...rows.slice(300)]
    const file = path.join(dir, 'old.db')
    await cacheOfSchema(file, key, 5, order)
    const { store } = await CacheStore.open(file, key)
    try {
      await store.finishSchema()
    } finally {
      await store.close()
    }
    const upgraded = openEncryptedDatabase(file, key)
    opened.push(upgraded)
    expect(creationOrderKnown(upgraded)).toBe(true)
    const kept = freshCache('kept.db')
    put(kept, order)
    expect(lateIds(upgraded)).toEqual(lateIds(kept))
    expect(lateIds(upgraded)).toHaveLength(50)
  })
})

describe("a search's first rows in creation order", () => {
  const traced = (db: SqliteDatabase) => traceStatements(db)

  it('are sorted from the candidates at the end of the doclists and the late ones, not walked for', () => {
    const db = freshCache()
    const rows = makeTransactions(3_000)
    put(db, [...rows.slice(0, 1_000), ...rows.slice(1_100), ...rows.slice(1_000, 1_100)])
    const statements = traced(db)
    const queries = new TransactionQueries(db)
    for (const direction of ['desc', 'asc'] as const) {
      statements.length = 0
      const { docs, total } = queries.window({ search: 'bob' }, { field: 'createdAt', direction }, 0, 20)
      const expected = rows
        .filter((t) => (t as { description?: string }).description?.includes('Bob'))
        .map((t) => t.id)
        .sort()
      if (direction === 'desc') expected.reverse()
      expect(total).toBe(300)
      expect((JSON.parse(docs) as Transaction[]).map((t) => t.id)).toEqual(expected.slice(0, 20))
      expect(statements.some((s) => s.includes('FROM tx_late'))).toBe(true)
      expect(statements.some((s) => s.includes(`ORDER BY rowid ${direction.toUpperCase()}`))).toBe(true)
      expect(statements.some((s) => /LIMIT 1 OFFSET|rid <= \?/.test(s))).toBe(false)
    }
  })

  it('read only the late rows for the late ones, however many rows there are', () => {
    const db = freshCache()
    put(db, makeTransactions(50))
    const statements = traced(db)
    candidatesInCreationOrder(db, textSearchOf('bob')!, 'desc', 20)
    const late = statements.find((s) => s.includes('JOIN tx ON'))!
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${late}`).all('bob') as { detail: string }[]).map((p) => p.detail)
    expect(plan).toEqual(['SCAN tx_late', 'SEARCH tx USING INTEGER PRIMARY KEY (rowid=?)'])
  })

  it('are left to the walk when too many rows were written late, the late ones are not listed yet, or the text index is behind', () => {
    const db = freshCache()
    const rows = makeTransactions(MOST_LATE + 50)
    // Every row but the first written after a newer one: all late.
    put(db, [rows.at(-1)!, ...rows.slice(0, -1)])
    const search = textSearchOf('bob')!
    expect(candidatesInCreationOrder(db, search, 'desc', 20)).toBeNull()
    db.exec('DELETE FROM tx_late')
    expect(candidatesInCreationOrder(db, search, 'desc', 20)).not.toBeNull()
    db.exec('UPDATE tx_order SET known = 0')
    expect(candidatesInCreationOrder(db, search, 'desc', 20)).toBeNull()
    db.exec('UPDATE tx_order SET known = 1')
    putDocuments(db, { c: 'transactions', docs: [], meta: { [TEXT_DEFERRED_KEY]: true } })
    expect(candidatesInCreationOrder(db, search, 'desc', 20)).toBeNull()
  })
})
