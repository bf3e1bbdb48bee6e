/* eslint-disable @typescript-eslint/no-explicit-any -- the oracle reads test fixtures loosely on purpose */
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CacheStore } from '../../../../src/main/infra/cache/store'
import type { Transaction } from '../../../../src/shared/api'
import { TransactionFilter, type TransactionSort } from '../../../../src/shared/ipc/channels/data'
import { tempDir } from '../../helpers'
import { makeTransactions } from './fixtures'

// The workbench's filters (spec 4.9 plus currency and an amount range) and sorts, against the obvious full scan.

let store: CacheStore
let cleanup: () => Promise<void>
let data: Transaction[]

const amountOf = (t: any) => (t.type === 'OUTGOING' ? t.sentAmount : t.receivedAmount)

beforeAll(async () => {
  const temp = await tempDir('cache-filters')
  cleanup = temp.cleanup
  store = (await CacheStore.open(path.join(temp.dir, 'cache.db'), randomBytes(32))).store
  // References on incoming payments, and update times that do not follow creation, so each sort differs.
  data = makeTransactions(2000, 11).map((t: any, i) => ({
    ...t,
    updatedAt: new Date(Date.parse('2026-02-01T00:00:00Z') + ((i * 7919) % 2000) * 1000).toISOString(),
    ...(t.type === 'INCOMING' && { reconciliationInstructions: { reference: `REF-${i % 40}` } })
  }))
  await store.put('transactions', data)
})
afterAll(async () => {
  await store.close()
  await cleanup()
})

function oracle(f: TransactionFilter, s: TransactionSort): string[] {
  const rows = data.filter((t: any) => {
    const money = amountOf(t)
    if (f.status?.length && !f.status.includes(t.status)) return false
    if (f.type && t.type !== f.type) return false
    if (f.customerId && t.customerId !== f.customerId) return false
    if (f.platformCustomerId && t.platformCustomerId !== f.platformCustomerId) return false
    if (f.senderAccountId && t.source?.accountId !== f.senderAccountId) return false
    if (f.receiverAccountId && t.destination?.accountId !== f.receiverAccountId) return false
    if (f.reference && t.reconciliationInstructions?.reference !== f.reference) return false
    if (f.currency && money.currency.code !== f.currency) return false
    if (f.amountMin !== undefined && money.amount < f.amountMin) return false
    if (f.amountMax !== undefined && money.amount > f.amountMax) return false
    if (f.createdFrom && Date.parse(t.createdAt) < Date.parse(f.createdFrom)) return false
    if (f.createdTo && Date.parse(t.createdAt) > Date.parse(f.createdTo)) return false
    return true
  })
  const key = (t: any): number => (s.field === 'amount' ? amountOf(t).amount : Date.parse(t[s.field]))
  const byCreated = (a: any, b: any) =>
    Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  rows.sort((a, b) => {
    const c = key(a) - key(b) || byCreated(a, b)
    return s.direction === 'asc' ? c : -c
  })
  return rows.map((t) => t.id)
}

const FILTERS: Record<string, TransactionFilter> = {
  customer: { customerId: 'Customer:7' },
  platformCustomerId: { platformCustomerId: 'pc-Customer:12' },
  senderAccount: { senderAccountId: 'InternalAccount:3' },
  receiverAccount: { receiverAccountId: 'ExternalAccount:5' },
  'several statuses': { status: ['COMPLETED', 'FAILED', 'SHINY_NEW'] },
  type: { type: 'INCOMING' },
  reference: { reference: 'REF-7' },
  'date range': { createdFrom: '2026-01-01T00:05:00Z', createdTo: '2026-01-01T00:15:00.000Z' },
  currency: { currency: 'EUR' },
  'amount range in a currency': { currency: 'MXN', amountMin: 100_000, amountMax: 400_000 },
  'amount floor only': { amountMin: 900_000 },
  'everything at once': {
    type: 'OUTGOING',
    status: ['COMPLETED', 'PENDING', 'PROCESSING'],
    currency: 'USD',
    amountMax: 700_000,
    createdFrom: '2026-01-01T00:01:00Z'
  },
  'nothing matches': { reference: 'REF-none' }
}
const SORTS: TransactionSort[] = (['createdAt', 'updatedAt', 'amount'] as const).flatMap((field) =>
  (['asc', 'desc'] as const).map((direction) => ({ field, direction }))
)

describe('transaction filters and sorts answered from the cache', () => {
  for (const [name, filter] of Object.entries(FILTERS)) {
    it(`${name}: every sort, the window and the total`, async () => {
      for (const sort of SORTS) {
        const expected = oracle(filter, sort)
        if (name !== 'nothing matches') expect(expected.length, `${name} should match some rows`).toBeGreaterThan(0)
        const { rows, total } = await store.queryTransactions(filter, sort, 3, 50)
        expect(total).toBe(expected.length)
        expect(rows.map((t) => t.id)).toEqual(expected.slice(3, 53))
        expect(await store.countTransactions(filter)).toBe(expected.length)
      }
    })
  }

  it('keyset pages walk the whole filtered set in order, each row once', async () => {
    for (const filter of [FILTERS['everything at once']!, {}]) {
      for (const sort of SORTS) {
        const ids: string[] = []
        let after: unknown[] | null = null
        for (;;) {
          const page = await store.transactionPage(filter, sort, after, 97)
          ids.push(...page.rows.map((t) => t.id))
          if (page.last === null) break
          after = page.last
        }
        expect(ids).toEqual(oracle(filter, sort))
      }
    }
  })

  it('refuses an amount range that ends below its start, and a date range that ends before it starts', () => {
    expect(TransactionFilter.safeParse({ amountMin: 5, amountMax: 4 }).error?.issues[0]?.message).toBe(
      'The smallest amount is larger than the largest'
    )
    expect(
      TransactionFilter.safeParse({ createdFrom: '2026-01-02T00:00:00Z', createdTo: '2026-01-01T00:00:00Z' }).error
        ?.issues[0]?.message
    ).toBe('The date range ends before it starts')
    expect(TransactionFilter.safeParse({ amountMin: 1.5 }).success).toBe(false)
  })
})
