import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  balancesByCurrency,
  dayOf,
  homeWindow,
  readHomeRows,
  startOfDay,
  volumeByCurrency
} from '../../../../src/main/infra/cache/home-figures'
import { migrate } from '../../../../src/main/infra/cache/schema'
import { openEncryptedDatabase, type SqliteDatabase } from '../../../../src/main/infra/cache/sqlite'
import { CacheStore } from '../../../../src/main/infra/cache/store'
import { putDocuments } from '../../../../src/main/infra/cache/writes'
import type { InternalAccount, Transaction } from '../../../../src/shared/api'
import { HOME_DAYS } from '../../../../src/shared/ipc/channels/home'
import { tempDir } from '../../helpers'

let dir: string
let cleanup: () => Promise<void>
let db: SqliteDatabase | undefined
beforeEach(async () => ({ dir, cleanup } = await tempDir('home-figures')))
afterEach(async () => {
  db?.close()
  db = undefined
  await cleanup()
})
vi.setConfig({ testTimeout: 120_000 })

const key = randomBytes(32)
const NOW = Date.parse('2026-11-28T15:00:00Z')
const HOUR = 3_600_000
const DAY = 24 * HOUR
const money = (amount: number, code: string) => ({ amount, currency: { code, decimals: 2 } })

let n = 0
function tx(
  type: 'INCOMING' | 'OUTGOING',
  status: string,
  amount: number,
  code: string,
  createdAt: number,
  accounts: { source?: string; destination?: string } = {}
): Transaction {
  const created = new Date(createdAt).toISOString()
  return {
    id: `Transaction:${String(n++).padStart(4, '0')}`,
    type,
    status,
    customerId: 'Customer:1',
    platformCustomerId: 'pc-1',
    createdAt: created,
    updatedAt: created,
    ...(accounts.source && { source: { sourceType: 'ACCOUNT', accountId: accounts.source, currency: code } }),
    destination: { destinationType: 'ACCOUNT', accountId: accounts.destination ?? 'ExternalAccount:9', currency: code },
    ...(type === 'INCOMING' ? { receivedAmount: money(amount, code) } : { sentAmount: money(amount, code) })
  } as unknown as Transaction
}

function account(id: string, amount: number, code: string): InternalAccount {
  return { id, balance: money(amount, code) } as unknown as InternalAccount
}

function cacheWith(transactions: Transaction[]): SqliteDatabase {
  db = openEncryptedDatabase(path.join(dir, 'c.db'), key)
  migrate(db)
  putDocuments(db, { c: 'transactions', docs: transactions })
  return db
}

describe('home window', () => {
  it('is the 30 days ending today in the zone, each from its own midnight', () => {
    const utc = homeWindow(NOW, 'UTC')
    expect(utc.days).toHaveLength(HOME_DAYS)
    expect(utc.days.at(-1)).toBe('2026-11-28')
    expect(utc.days[0]).toBe('2026-10-30')
    expect(utc.bounds.at(-1)).toEqual([Date.parse('2026-11-28T00:00:00Z'), Date.parse('2026-11-29T00:00:00Z')])
    // 01:30 on the 28th in UTC is still the 27th in New York.
    expect(dayOf(Date.parse('2026-11-28T01:30:00Z'), 'America/New_York')).toBe('2026-11-27')
    expect(homeWindow(Date.parse('2026-11-28T01:30:00Z'), 'America/New_York').days.at(-1)).toBe('2026-11-27')
  })

  it('cuts a day at the zone’s real midnights across a change of clocks', () => {
    // Europe/Berlin leaves summer time on 25 October 2026: that day is 25 hours long.
    expect(startOfDay('2026-10-25', 'Europe/Berlin')).toBe(Date.parse('2026-10-24T22:00:00Z'))
    expect(startOfDay('2026-10-26', 'Europe/Berlin')).toBe(Date.parse('2026-10-25T23:00:00Z'))
    const { days, bounds } = homeWindow(Date.parse('2026-11-10T12:00:00Z'), 'Europe/Berlin')
    const i = days.indexOf('2026-10-25')
    expect(bounds[i]![1] - bounds[i]![0]).toBe(25 * HOUR)
    // The days follow one another with no gap and no overlap.
    for (let d = 1; d < HOME_DAYS; d++) expect(bounds[d]![0]).toBe(bounds[d - 1]![1])
  })
})

describe('daily volume', () => {
  it('sums completed payments per day, type and currency, a day without any being 0', async () => {
    const today = Date.parse('2026-11-28T09:00:00Z')
    const cache = cacheWith([
      tx('INCOMING', 'COMPLETED', 250_000, 'USD', today),
      tx('INCOMING', 'COMPLETED', 1_000, 'USD', today + HOUR),
      tx('INCOMING', 'COMPLETED', 75_000, 'GBP', today - 2 * DAY),
      tx('OUTGOING', 'COMPLETED', 120_010, 'USD', today - 10 * DAY, { source: 'InternalAccount:jane' }),
      // Not volume: not completed, or outside the 30 days.
      tx('INCOMING', 'FAILED', 60_000, 'USD', today),
      tx('INCOMING', 'PENDING', 42_000, 'USD', today),
      tx('OUTGOING', 'PROCESSING', 400_000, 'USD', today),
      tx('INCOMING', 'COMPLETED', 9_999, 'USD', today - 31 * DAY)
    ])
    const window = homeWindow(NOW, 'UTC')
    const rows = readHomeRows(cache, { bounds: window.bounds, accountIds: [], failedFrom: NOW - 30 * DAY })
    const volume = volumeByCurrency(rows.volume)
    // Per currency, never added across: GBP and USD each have their own series.
    expect(volume.map((v) => v.currency)).toEqual(['GBP', 'USD'])
    const usd = volume[1]!
    expect(usd.incoming[29]).toBe(251_000)
    expect(usd.outgoing[19]).toBe(120_010)
    expect(usd.incoming.reduce((a, b) => a + b, 0)).toBe(251_000)
    expect(usd.outgoing.filter((v) => v !== 0)).toEqual([120_010])
    expect(volume[0]!.incoming[27]).toBe(75_000)
    expect(volume[0]!.outgoing).toEqual(new Array(HOME_DAYS).fill(0))
    expect(rows.failed).toBe(1)
  })

  it('counts failed payments of the last 30 × 24 hours only', () => {
    const cache = cacheWith([
      tx('INCOMING', 'FAILED', 1, 'USD', NOW - 29 * DAY),
      tx('OUTGOING', 'FAILED', 1, 'USD', NOW - 31 * DAY, { source: 'InternalAccount:x' }),
      tx('INCOMING', 'REJECTED', 1, 'USD', NOW - DAY)
    ])
    const rows = readHomeRows(cache, {
      bounds: homeWindow(NOW, 'UTC').bounds,
      accountIds: [],
      failedFrom: NOW - 30 * DAY
    })
    expect(rows.failed).toBe(1)
  })
})

describe('platform balances', () => {
  it('walks today’s balance back through the days’ payments of the platform accounts', () => {
    const today = Date.parse('2026-11-28T09:00:00Z')
    const cache = cacheWith([
      // Out of the platform's USD account 6 days ago: before it, the balance was higher by what left.
      tx('OUTGOING', 'COMPLETED', 250_010, 'USD', today - 6 * DAY, { source: 'InternalAccount:pusd' }),
      // Still on its way: the money left when it started.
      tx('OUTGOING', 'PROCESSING', 400_000, 'USD', today, { source: 'InternalAccount:pusd' }),
      // Failed: the money came back, no flow.
      tx('OUTGOING', 'FAILED', 5_000, 'USD', today - DAY, { source: 'InternalAccount:pusd' }),
      // Into the platform's GBP account 3 days ago.
      tx('INCOMING', 'COMPLETED', 7_000, 'GBP', today - 3 * DAY, { destination: 'InternalAccount:pgbp' }),
      // A customer's account: not the platform's.
      tx('OUTGOING', 'COMPLETED', 99_000, 'USD', today - 2 * DAY, { source: 'InternalAccount:jane' })
    ])
    const accounts = [
      account('InternalAccount:pusd', 1_000_000, 'USD'),
      account('InternalAccount:pusd2', 500, 'USD'),
      account('InternalAccount:pgbp', 20_000, 'GBP')
    ]
    const window = homeWindow(NOW, 'UTC')
    const rows = readHomeRows(cache, {
      bounds: window.bounds,
      accountIds: accounts.map((a) => a.id),
      failedFrom: NOW - 30 * DAY
    })
    const [gbp, usd] = balancesByCurrency(accounts, rows.flows)
    expect(usd!.currency).toBe('USD')
    // Two USD accounts of the platform: one balance for the currency.
    expect(usd!.current).toBe(1_000_500)
    expect(usd!.endOfDay[29]).toBe(1_000_500)
    expect(usd!.endOfDay[28]).toBe(1_400_500)
    expect(usd!.endOfDay[23]).toBe(1_400_500)
    expect(usd!.endOfDay[22]).toBe(1_650_510)
    expect(usd!.endOfDay[0]).toBe(1_650_510)
    expect(gbp!.endOfDay[29]).toBe(20_000)
    expect(gbp!.endOfDay[26]).toBe(20_000)
    expect(gbp!.endOfDay[25]).toBe(13_000)
  })
})

describe('the store', () => {
  it('answers from its reader thread what main’s connection answers', async () => {
    const today = Date.parse('2026-11-28T09:00:00Z')
    const { store } = await CacheStore.open(path.join(dir, 's.db'), key)
    try {
      await store.put('transactions', [
        tx('INCOMING', 'COMPLETED', 320_000, 'USD', today - 14 * DAY),
        tx('INCOMING', 'FAILED', 60_000, 'USD', today - 12 * DAY)
      ])
      const rows = await store.homeRows({
        bounds: homeWindow(NOW, 'UTC').bounds,
        accountIds: [],
        failedFrom: NOW - 30 * DAY
      })
      expect(rows.failed).toBe(1)
      expect(volumeByCurrency(rows.volume)[0]!.incoming[15]).toBe(320_000)
    } finally {
      await store.close()
    }
  })
})
