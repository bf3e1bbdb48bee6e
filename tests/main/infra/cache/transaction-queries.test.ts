/* eslint-disable @typescript-eslint/no-explicit-any -- the oracle reads test fixtures loosely on purpose */
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrate } from '../../../../src/main/infra/cache/schema'
import { openEncryptedDatabase, type SqliteDatabase } from '../../../../src/main/infra/cache/sqlite'
import { ANCHOR_STEP } from '../../../../src/main/infra/cache/list-anchors'
import { TransactionQueries } from '../../../../src/main/infra/cache/transaction-queries'
import { putDocuments, rebuildText } from '../../../../src/main/infra/cache/writes'
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

function oracle(f: TransactionFilter, s: TransactionSort, from: Transaction[] = data): string[] {
  const amount = (t: any) => (t.type === 'OUTGOING' ? t.sentAmount : t.receivedAmount).amount
  const rows = from.filter(
    (t: any) =>
      (!f.status || f.status.includes(t.status)) &&
      (!f.search || [t.id, t.description].some((h) => h?.toLowerCase().includes(f.search!.toLowerCase())))
  )
  const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  const created = (a: any, b: any) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || text(a.id, b.id)
  rows.sort((a: any, b: any) => {
    const c =
      s.field === 'amount'
        ? amount(a) - amount(b) || created(a, b)
        : s.field === 'status'
          ? text(a.status, b.status) || created(a, b)
          : created(a, b)
    return s.direction === 'asc' ? c : -c
  })
  return rows.map((t) => t.id)
}

/** The ids of a window's documents (the text of one JSON array). */
const ids = (docs: string) => (JSON.parse(docs) as Transaction[]).map((t) => t.id)

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

// A window nearer the end of its list than its start is read from the end, in the reversed sort: it must hold exactly
// the rows a forward read puts there, ties in the sort key included, and reach them without walking the list.
describe('windows near the end', () => {
  let tied: Transaction[]
  let db: SqliteDatabase
  let fromEnd: TransactionQueries
  /** The OFFSET of every statement the queries ran since the last reset: the index entries they skipped. */
  const skipped: number[] = []

  beforeAll(() => {
    // Few amounts and creation times shared by runs of rows: most sort keys tie, and only the id tells rows apart.
    tied = makeTransactions(3 * ANCHOR_STEP + 500, 5).map((t: any, i) => {
      const createdAt = new Date(Date.parse('2026-03-01T00:00:00Z') + Math.floor(i / 7) * 1000).toISOString()
      const money = { ...(t.receivedAmount ?? t.sentAmount), amount: 100 * (1 + (i % 5)) }
      const row = { ...t, id: t.id.replace('Transaction:', 'Transaction:tie-'), createdAt, updatedAt: createdAt }
      return (t.type === 'OUTGOING' ? { ...row, sentAmount: money } : { ...row, receivedAmount: money }) as Transaction
    })
    // Written in a shuffled order, so the rowids say nothing about the sort.
    const shuffled = [...tied].sort((a, b) =>
      a.id.split('').reverse().join('') < b.id.split('').reverse().join('') ? -1 : 1
    )
    putDocuments(writer, { c: 'transactions', docs: shuffled })
    // The finished schema (sort indexes, group counts): deep windows walk the sort's index, as at a million rows.
    rebuildText(writer)
    db = countingOffsets(reader, skipped)
    fromEnd = new TransactionQueries(db)
  })
  afterAll(() => {
    putDocuments(writer, { c: 'transactions', docs: [], remove: tied.map((t) => t.id) })
  })

  const lists: [TransactionFilter, TransactionSort][] = [
    [{}, { field: 'amount', direction: 'asc' }],
    [{}, { field: 'status', direction: 'desc' }],
    [{ status: ['COMPLETED', 'FAILED', 'PENDING'] }, { field: 'createdAt', direction: 'desc' }],
    [{ status: ['COMPLETED', 'CREATED'] }, { field: 'amount', direction: 'desc' }]
  ]

  it('hold the rows a full scan puts there, ties included, from the middle to past the end', () => {
    const all = [...data, ...tied]
    for (const [filter, sort] of lists) {
      const expected = oracle(filter, sort, all)
      const n = expected.length
      // Just before and after the middle, deep from the end (its own anchors), the last rows, a last window cut short,
      // and past the end.
      const offsets = [Math.floor(n / 2) - 31, Math.floor(n / 2) - 29, n - ANCHOR_STEP - 700, n - 60, n - 25, n, n + 10]
      for (const offset of [...offsets, ...offsets.slice().reverse()]) {
        const at = JSON.stringify([filter, sort, offset])
        const window = fromEnd.window(filter, sort, offset, 60)
        expect(window.total, at).toBe(n)
        expect(ids(window.docs), at).toEqual(expected.slice(offset, offset + 60))
      }
    }
  })

  it('reach the bottom of a long list without walking it', () => {
    const sort: TransactionSort = { field: 'createdAt', direction: 'desc' }
    const total = fromEnd.count({})
    // A connection that has remembered no position yet: a forward read walks every row before its window.
    const cold = () => {
      skipped.length = 0
      return new TransactionQueries(db)
    }
    cold().window({}, sort, total - 60, 60)
    expect(skipped.reduce((a, b) => a + b, 0)).toBeLessThan(60)
    cold().window({}, sort, Math.floor(total / 2) - 60, 60)
    expect(skipped.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(Math.floor(total / 2) - 120)
  })
})

/**
 * The database, with the OFFSET of every statement that pages by one pushed to `offsets` (its last parameter: none
 * follows it in these queries): how many index entries the queries skipped, observed without timing anything.
 */
function countingOffsets(db: SqliteDatabase, offsets: number[]): SqliteDatabase {
  return new Proxy(db, {
    get(target, prop) {
      if (prop !== 'prepare') return Reflect.get(target, prop, target)
      return (sql: string) => {
        const statement = target.prepare(sql)
        if (!/OFFSET \?\)?[^?]*$/.test(sql)) return statement
        const counted: any = new Proxy(statement, {
          get(s: any, p) {
            if (p === 'raw' || p === 'pluck') return (...a: unknown[]) => (s[p](...a), counted)
            if (p === 'all' || p === 'get')
              return (...params: unknown[]) => {
                offsets.push(Number(params[params.length - 1]))
                return s[p](...params)
              }
            const value = s[p]
            return typeof value === 'function' ? value.bind(s) : value
          }
        })
        return counted
      }
    }
  })
}
