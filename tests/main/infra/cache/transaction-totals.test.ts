/* eslint-disable @typescript-eslint/no-explicit-any -- the oracle reads test fixtures loosely on purpose */
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrate } from '../../../../src/main/infra/cache/schema'
import { openEncryptedDatabase, type SqliteDatabase } from '../../../../src/main/infra/cache/sqlite'
import { transactionTotals } from '../../../../src/main/infra/cache/transaction-totals'
import { putDocuments } from '../../../../src/main/infra/cache/writes'
import type { Transaction } from '../../../../src/shared/api'
import type { TransactionFilter } from '../../../../src/shared/ipc/channels/data'
import { tempDir } from '../../helpers'
import { makeTransactions } from './fixtures'

// The workbench's totals: per currency, the count and the sum of every transaction a filter keeps (not only a window),
// checked against the same sums taken over the documents.

let cleanup: () => Promise<void>
let db: SqliteDatabase
let data: Transaction[]

const money = (t: any) => (t.type === 'OUTGOING' ? t.sentAmount : t.receivedAmount)

function oracle(keep: (t: any) => boolean) {
  const byCurrency = new Map<string, { count: number; amount: number }>()
  for (const t of data.filter(keep)) {
    const m = money(t)
    const total = byCurrency.get(m.currency.code) ?? { count: 0, amount: 0 }
    byCurrency.set(m.currency.code, { count: total.count + 1, amount: total.amount + m.amount })
  }
  return [...byCurrency.entries()]
    .map(([currency, t]) => ({ currency, ...t }))
    .sort((a, b) => b.count - a.count || (a.currency < b.currency ? -1 : 1))
}

beforeAll(async () => {
  const temp = await tempDir('cache-totals')
  cleanup = temp.cleanup
  db = openEncryptedDatabase(path.join(temp.dir, 'cache.db'), randomBytes(32))
  migrate(db)
  data = makeTransactions(2_000, 7)
  // Two that an amount search tells apart: 1250 yen, and $1,250.00.
  const yen = { ...data[0]!, id: 'Transaction:yen', type: 'INCOMING' }
  ;(yen as any).receivedAmount = { amount: 1250, currency: { code: 'JPY', decimals: 0 } }
  const dollars = { ...data[1]!, id: 'Transaction:dollars', type: 'INCOMING' }
  ;(dollars as any).receivedAmount = { amount: 125_000, currency: { code: 'USD', decimals: 2 } }
  data.push(yen as Transaction, dollars as Transaction)
  putDocuments(db, { c: 'transactions', docs: data })
})
afterAll(async () => {
  db.close()
  await cleanup()
})

describe('transactionTotals', () => {
  it('sums every match per currency, most transactions first', () => {
    expect(transactionTotals(db, {})).toEqual(oracle(() => true))
  })

  it('applies the list’s filters', () => {
    const filter: TransactionFilter = { status: ['COMPLETED', 'FAILED'], type: 'OUTGOING' }
    expect(transactionTotals(db, filter)).toEqual(
      oracle((t) => ['COMPLETED', 'FAILED'].includes(t.status) && t.type === 'OUTGOING')
    )
    expect(transactionTotals(db, { search: 'bob' })).toEqual(oracle((t) => /bob/i.test(t.description ?? '')))
  })

  it('answers an empty list for a filter nothing matches', () => {
    expect(transactionTotals(db, { reference: 'nothing-has-this' })).toEqual([])
  })

  it('an amount search ("1250") finds $1,250.00 and ¥1,250, each in its own minor units', () => {
    const found = transactionTotals(db, { amountIs: { units: 1250, scale: 0 } })
    const expected = oracle(
      (t) =>
        (money(t).currency.code === 'JPY' && money(t).amount === 1250) ||
        (money(t).currency.code !== 'JPY' && money(t).amount === 125_000)
    )
    expect(found).toEqual(expected)
    expect(found.find((t) => t.currency === 'JPY')).toEqual({ currency: 'JPY', count: 1, amount: 1250 })
    expect(found.find((t) => t.currency === 'USD')?.count).toBeGreaterThanOrEqual(1)
    // 12.5 cannot be yen: only the cents match.
    const cents = transactionTotals(db, { amountIs: { units: 125, scale: 1 } })
    expect(cents.some((t) => t.currency === 'JPY')).toBe(false)
    expect(cents).toEqual(oracle((t) => money(t).currency.code !== 'JPY' && money(t).amount === 1250))
  })
})
