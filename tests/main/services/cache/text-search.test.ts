/* eslint-disable @typescript-eslint/no-explicit-any -- the oracle reads test fixtures loosely on purpose */
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CacheStore } from '../../../../src/main/services/cache/store'
import { TransactionQueries } from '../../../../src/main/services/cache/transaction-queries'
import type { Transaction } from '../../../../src/shared/api'
import type { TransactionFilter, TransactionSort } from '../../../../src/shared/ipc/channels/data'
import { tempDir } from '../../helpers'
import { makeTransactions } from './fixtures'

// Text search from the trigram index: the window and the count agree with a plain substring scan whichever way the
// store meets the candidates (sorting a few, or walking the sort's index for many), for every sort and offset.

let store: CacheStore
let cleanup: () => Promise<void>
let data: Transaction[]
/** The query plan of every window read through `queries`, as SQLite explains it. */
const plans: string[][] = []
/** The store's statements on a connection of the test's (the store runs them in its reader thread). */
let queries: TransactionQueries

beforeAll(async () => {
  const temp = await tempDir('cache-text')
  cleanup = temp.cleanup
  store = (await CacheStore.open(path.join(temp.dir, 'cache.db'), randomBytes(32))).store
  data = makeTransactions(3000, 5)
  await store.put('transactions', data)
  const db = (store as any).db
  queries = new TransactionQueries(db)
  const prepare = db.prepare.bind(db)
  db.prepare = (sql: string) => {
    const statement = prepare(sql)
    if (!sql.includes('doc FROM tx WHERE rid IN')) return statement
    const all = statement.all.bind(statement)
    statement.all = (...params: unknown[]) => {
      plans.push(
        prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .all(...params)
          .map((r: any) => r.detail as string)
      )
      return all(...params)
    }
    return statement
  }
})
afterAll(async () => {
  await store.close()
  await cleanup()
})

function oracle(f: TransactionFilter, s: TransactionSort): string[] {
  const needle = f.search!.trim().toLowerCase()
  const money = (t: any) => (t.type === 'OUTGOING' ? t.sentAmount : t.receivedAmount)
  const rows = data.filter((t: any) => {
    if (f.status && !f.status.includes(t.status)) return false
    const hay = [t.id, t.description, t.customerId, t.platformCustomerId, t.source?.accountId, t.destination?.accountId]
    return hay.some((h) => typeof h === 'string' && h.toLowerCase().includes(needle))
  })
  const key = (t: any): number | string =>
    s.field === 'amount' ? money(t).amount : s.field === 'status' ? t.status : Date.parse(t[s.field])
  rows.sort((a: any, b: any) => {
    const ka = key(a)
    const kb = key(b)
    const c = ka < kb ? -1 : ka > kb ? 1 : Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : 1)
    return s.direction === 'asc' ? c : -c
  })
  return rows.map((t) => t.id)
}

const SORTS: TransactionSort[] = (['createdAt', 'updatedAt', 'amount', 'status'] as const).flatMap((field) =>
  (['asc', 'desc'] as const).map((direction) => ({ field, direction }))
)

describe('transaction text search', () => {
  it.each([
    ['a common three-character needle (one row in ten)', { search: 'BOB' }],
    ['a rare three-character needle', { search: '299' }],
    ['a common one with another filter', { search: 'bob', status: ['FAILED', 'PENDING'] }],
    ['a longer needle, confirmed on the candidates', { search: 'invoice 12' }],
    ['a longer needle whose trigrams match more than it does', { search: '0 for' }],
    ['a needle with a quote', { search: 'a"b' }]
  ] as [string, TransactionFilter][])('%s: every sort, windows and the exact total', async (_, filter) => {
    for (const sort of SORTS) {
      const expected = oracle(filter, sort)
      for (const [offset, limit] of [
        [0, 40],
        [25, 60],
        [280, 50]
      ] as const) {
        const page = await store.queryTransactions(filter, sort, offset, limit)
        const at = JSON.stringify([filter, sort, offset])
        expect(page.total, at).toBe(expected.length)
        expect(
          page.rows.map((t) => t.id),
          at
        ).toEqual(expected.slice(offset, offset + limit))
      }
      expect(await store.countTransactions(filter)).toBe(expected.length)
    }
  })

  it('walks the sort index for a common needle and sorts the candidates of a rare one', () => {
    // The oracle must agree first, or the plans below would not be worth reading.
    expect(oracle({ search: 'bob' }, SORTS[0]!).length).toBe(300)
    expect(oracle({ search: '299' }, SORTS[0]!).length).toBeLessThan(20)

    plans.length = 0
    queries.window({ search: 'bob' }, { field: 'createdAt', direction: 'desc' }, 0, 100)
    queries.window({ search: 'bob' }, { field: 'amount', direction: 'asc' }, 0, 100)
    expect(plans[0]!.join('\n')).toMatch(/SCAN tx USING COVERING INDEX tx_by_created/)
    expect(plans[1]!.join('\n')).toMatch(/SCAN tx USING COVERING INDEX tx_by_amount/)
    // Only the window's own rows are put in order again (the outer query); the candidates are not sorted.
    for (const plan of plans) expect(plan.filter((step) => step.includes('TEMP B-TREE'))).toHaveLength(1)

    plans.length = 0
    queries.window({ search: '299' }, { field: 'createdAt', direction: 'desc' }, 0, 100)
    expect(plans[0]!.join('\n')).not.toMatch(/SCAN tx USING COVERING INDEX/)
    expect(plans[0]!.filter((step) => step.includes('TEMP B-TREE'))).toHaveLength(2)
  })

  it('refuses a needle the index cannot answer instead of scanning the table', async () => {
    await expect(store.queryTransactions({ search: 'bo' }, SORTS[0]!, 0, 10)).rejects.toThrow(/at least 3 characters/)
    await expect(store.countTransactions({ search: 'b' })).rejects.toThrow(/at least 3 characters/)
  })
})
