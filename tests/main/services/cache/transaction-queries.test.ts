/* eslint-disable @typescript-eslint/no-explicit-any -- the oracle reads test fixtures loosely on purpose */
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrate } from '../../../../src/main/services/cache/schema'
import { openEncryptedDatabase, type SqliteDatabase } from '../../../../src/main/services/cache/sqlite'
import { ANCHOR_STEP, TransactionQueries } from '../../../../src/main/services/cache/transaction-queries'
import { putDocuments } from '../../../../src/main/services/cache/writes'
import type { Transaction } from '../../../../src/shared/api'
import type { TransactionFilter, TransactionSort } from '../../../../src/shared/ipc/channels/data'
import { tempDir } from '../../helpers'
import { makeTransactions } from './fixtures'

// Deep windows start from positions remembered on the way (keyset paging) instead of counting every row before
// them: whatever order they are asked in, and after another connection's writes shift every position, each window
// holds exactly the rows a full scan puts there.

let cleanup: () => Promise<void>
let reader: SqliteDatabase
let writer: SqliteDatabase
let queries: TransactionQueries
let data: Transaction[]

beforeAll(async () => {
  const temp = await tempDir('cache-queries')
  cleanup = temp.cleanup
  const file = path.join(temp.dir, 'cache.db')
  const key = randomBytes(32)
  writer = openEncryptedDatabase(file, key)
  migrate(writer)
  data = makeTransactions(3 * ANCHOR_STEP + 500, 3)
  putDocuments(writer, { c: 'transactions', docs: data })
  reader = openEncryptedDatabase(file, key)
  queries = new TransactionQueries(reader)
})
afterAll(async () => {
  reader.close()
  writer.close()
  await cleanup()
})

function oracle(f: TransactionFilter, s: TransactionSort): string[] {
  const amount = (t: any) => (t.type === 'OUTGOING' ? t.sentAmount : t.receivedAmount).amount
  const rows = data.filter(
    (t: any) =>
      (!f.status || f.status.includes(t.status)) &&
      (!f.search || [t.id, t.description].some((h) => h?.toLowerCase().includes(f.search!.toLowerCase())))
  )
  const created = (a: any, b: any) =>
    Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  rows.sort((a, b) => {
    const c = s.field === 'amount' ? amount(a) - amount(b) || created(a, b) : created(a, b)
    return s.direction === 'asc' ? c : -c
  })
  return rows.map((t) => t.id)
}

const ids = (docs: string[]) => docs.map((d) => (JSON.parse(d) as Transaction).id)

describe('totals', () => {
  it('follow every write, by another connection or by this one', () => {
    const filters: TransactionFilter[] = [
      {},
      { status: ['FAILED'] },
      { search: 'bob' },
      { search: 'bob', status: ['FAILED'] }
    ]
    const before = filters.map((f) => queries.count(f))
    const failed = makeTransactions(10, 4, Date.parse('2028-01-01T00:00:00Z')).map(
      (t) => ({ ...t, id: t.id.replace('Transaction:', 'Transaction:bob-'), status: 'FAILED' }) as Transaction
    )
    putDocuments(writer, { c: 'transactions', docs: failed.slice(0, 5) })
    expect(filters.map((f) => queries.count(f))).toEqual(before.map((n) => n + 5))
    putDocuments(reader, { c: 'transactions', docs: failed.slice(5) })
    expect(filters.map((f) => queries.count(f))).toEqual(before.map((n) => n + 10))
    putDocuments(writer, { c: 'transactions', docs: [], remove: failed.map((t) => t.id) })
  })
})

describe('deep windows', () => {
  const lists: [TransactionFilter, TransactionSort][] = [
    [{}, { field: 'createdAt', direction: 'desc' }],
    [{}, { field: 'amount', direction: 'asc' }],
    [{ status: ['COMPLETED', 'FAILED', 'PENDING', 'CREATED'] }, { field: 'createdAt', direction: 'asc' }],
    [{ search: '00' + '1' }, { field: 'amount', direction: 'desc' }]
  ]
  // Forward, on, back, far, the last rows, and past the end.
  const offsets = [2 * ANCHOR_STEP + 7, 2 * ANCHOR_STEP + 57, ANCHOR_STEP, 3 * ANCHOR_STEP + 450, 3 * ANCHOR_STEP + 490]

  it('hold the rows a full scan puts there, in any order of asking', () => {
    for (const [filter, sort] of lists) {
      const expected = oracle(filter, sort)
      for (const offset of [...offsets, expected.length + 10]) {
        const at = JSON.stringify([filter, sort, offset])
        const window = queries.window(filter, sort, offset, 60)
        expect(window.total, at).toBe(expected.length)
        expect(ids(window.docs), at).toEqual(expected.slice(offset, offset + 60))
      }
    }
  })

  it('hold the right rows again after another connection wrote rows that shift every position', () => {
    const sort: TransactionSort = { field: 'createdAt', direction: 'desc' }
    for (const offset of offsets) queries.window({}, sort, offset, 60)
    // Newer than every row: each row moves 300 positions down, which remembered positions must not hide.
    const newer = makeTransactions(300, 9, Date.parse('2027-01-01T00:00:00Z')).map(
      (t) => ({ ...t, id: t.id.replace('Transaction:', 'Transaction:new-') }) as Transaction
    )
    putDocuments(writer, { c: 'transactions', docs: newer })
    data = [...data, ...newer]
    const expected = oracle({}, sort)
    for (const offset of offsets)
      expect(ids(queries.window({}, sort, offset, 60).docs), String(offset)).toEqual(
        expected.slice(offset, offset + 60)
      )
  })
})
