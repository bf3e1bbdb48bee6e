import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migrate, SCHEMA_VERSION } from '../../../../src/main/infra/cache/schema'
import { openEncryptedDatabase, type SqliteDatabase } from '../../../../src/main/infra/cache/sqlite'
import { statusHistory } from '../../../../src/main/infra/cache/status-history'
import { CacheStore } from '../../../../src/main/infra/cache/store'
import { putDocuments } from '../../../../src/main/infra/cache/writes'
import type { Transaction } from '../../../../src/shared/api'
import { tempDir } from '../../helpers'
import { cacheOfSchema, makeTransactions } from './fixtures'

let dir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir, cleanup } = await tempDir('status-history')))
afterEach(() => cleanup())
const key = randomBytes(32)

const [base] = makeTransactions(1) as [Transaction]
const at = (iso: string, status: string, extra: Record<string, unknown> = {}) =>
  ({ ...base, status, updatedAt: iso, ...extra }) as Transaction
const rowsOf = (db: SqliteDatabase) => db.prepare('SELECT count(*) FROM tx_history').pluck().get()

function fresh(): SqliteDatabase {
  const db = openEncryptedDatabase(path.join(dir, 'cache.db'), key)
  migrate(db)
  return db
}

describe('a transaction’s status timeline', () => {
  it('is the current status alone until it changes, and costs no row for a first write or an unchanged status', () => {
    const db = fresh()
    putDocuments(db, { c: 'transactions', docs: [at('2026-03-01T10:00:00.000Z', 'PENDING')] })
    // Written again with a later stamp and the same status: the fingerprint changed, the status did not.
    putDocuments(db, { c: 'transactions', docs: [at('2026-03-01T10:00:05.000Z', 'PENDING')] })
    expect(rowsOf(db)).toBe(0)
    expect(statusHistory(db, base.id)).toEqual([
      { status: 'PENDING', at: '2026-03-01T10:00:05.000Z', source: 'service' }
    ])
    expect(statusHistory(db, 'Transaction:unknown')).toEqual([])
    db.close()
  })

  it('keeps every status a write changes, oldest first, each at the service’s updatedAt', () => {
    const db = fresh()
    putDocuments(db, { c: 'transactions', docs: [at('2026-03-01T10:00:00.000Z', 'PENDING')] })
    putDocuments(db, { c: 'transactions', docs: [at('2026-03-01T10:00:02.000Z', 'PROCESSING')] })
    putDocuments(db, { c: 'transactions', docs: [at('2026-03-01T10:00:09.000Z', 'COMPLETED')] })
    expect(statusHistory(db, base.id)).toEqual([
      { status: 'PENDING', at: '2026-03-01T10:00:00.000Z', source: 'service' },
      { status: 'PROCESSING', at: '2026-03-01T10:00:02.000Z', source: 'service' },
      { status: 'COMPLETED', at: '2026-03-01T10:00:09.000Z', source: 'service' }
    ])
    db.close()
  })

  it('uses the sync’s own time when the service gave no updatedAt, and says so', () => {
    const db = fresh()
    putDocuments(db, { c: 'transactions', docs: [at('2026-03-01T10:00:00.000Z', 'PENDING')] })
    const before = Date.now()
    putDocuments(db, { c: 'transactions', docs: [at('2026-03-01T10:00:00.000Z', 'FAILED', { updatedAt: undefined })] })
    const after = Date.now()
    const [, seen] = statusHistory(db, base.id)
    expect(seen?.status).toBe('FAILED')
    expect(seen?.source).toBe('paydesk')
    expect(Date.parse(seen!.at)).toBeGreaterThanOrEqual(before)
    expect(Date.parse(seen!.at)).toBeLessThanOrEqual(after)
    db.close()
  })

  it('goes with its transaction when the transaction is removed', () => {
    const db = fresh()
    putDocuments(db, { c: 'transactions', docs: [at('2026-03-01T10:00:00.000Z', 'PENDING')] })
    putDocuments(db, { c: 'transactions', docs: [at('2026-03-01T10:00:02.000Z', 'COMPLETED')] })
    expect(rowsOf(db)).toBe(2)
    putDocuments(db, { c: 'transactions', docs: [], remove: [base.id] })
    expect(rowsOf(db)).toBe(0)
    db.close()
  })

  it('starts, in a cache upgraded from schema 7, with each transaction’s current status, and goes on from there', async () => {
    const file = path.join(dir, 'v7.db')
    const rows = makeTransactions(3)
    await cacheOfSchema(file, key, 7, rows)
    const { store } = await CacheStore.open(file, key)
    const first = rows[0]!
    expect(store.statusHistory(first.id)).toEqual([
      { status: first.status, at: new Date(Date.parse(String(first.updatedAt))).toISOString(), source: 'service' }
    ])
    const next = first.status === 'COMPLETED' ? 'FAILED' : 'COMPLETED'
    await store.put('transactions', [{ ...first, status: next, updatedAt: '2027-01-01T00:00:00.000Z' } as Transaction])
    expect(store.statusHistory(first.id).map((e) => e.status)).toEqual([first.status, next])
    await store.close()
    const check = openEncryptedDatabase(file, key)
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION)
    check.close()
  })
})
