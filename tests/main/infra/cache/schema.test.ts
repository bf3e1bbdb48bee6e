import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { hasIndex, KEYS_BY_ROWID, SCHEMA_VERSION, TEXT_DEFERRED_KEY } from '../../../../src/main/infra/cache/schema'
import { openEncryptedDatabase } from '../../../../src/main/infra/cache/sqlite'
import { CacheStore } from '../../../../src/main/infra/cache/store'
import { TransactionQueries } from '../../../../src/main/infra/cache/transaction-queries'
import type { Transaction } from '../../../../src/shared/api'
import { tempDir } from '../../helpers'
import { cacheOfSchema, makeTransactions } from './fixtures'

let dir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir, cleanup } = await tempDir('text-index')))
afterEach(() => cleanup())
const key = randomBytes(32)
/**
 * How long work in the writer thread may take: it starts (through tsx, from source) and rebuilds an index of a few
 * rows, a fraction of a second alone and seconds beside other suites on two cores. Every test here gets twice that
 * as its bound.
 */
const THREAD_WORK_MS = 60_000
vi.setConfig({ testTimeout: 2 * THREAD_WORK_MS })

/** How many transactions a text search finds (the index narrows, the stored text confirms). */
const found = async (store: CacheStore, search: string) =>
  (await store.queryTransactions({ search }, { field: 'createdAt', direction: 'asc' }, 0, 1_000)).total

describe('the text index left behind during a catch-up', () => {
  it('is rebuilt in one go: rows added, changed and removed meanwhile are all searched right afterwards', async () => {
    const { store } = await CacheStore.open(path.join(dir, 'c.db'), key)
    const [kept, ...rest] = makeTransactions(60)
    await store.put('transactions', [kept!])
    await store.put('transactions', rest.slice(0, 30), { meta: { [TEXT_DEFERRED_KEY]: true } })
    await store.put('transactions', rest.slice(30))
    // Meanwhile one row changes its text and one goes away.
    await store.put(
      'transactions',
      [{ ...rest[0]!, description: 'Renamed for Carol', updatedAt: '2026-06-01T00:00:00.000Z' } as Transaction],
      {
        remove: [rest[1]!.id]
      }
    )
    // Behind: the rows written with the flag set are not in the index yet.
    expect(await found(store, 'Transaction:000000')).toBe(1)
    expect(await found(store, 'Carol')).toBe(0)

    await store.rebuildText()
    expect(store.meta(TEXT_DEFERRED_KEY)).toBe(false)
    expect(await found(store, 'Transaction:000000')).toBe(9)
    expect(await found(store, 'Transaction:0000002')).toBe(0)
    expect(await found(store, 'Carol')).toBe(1)
    expect(await found(store, 'Invoice 0 for Bob')).toBe(1)
    // Kept row by row again from here on.
    await store.put(
      'transactions',
      makeTransactions(1, 2, Date.parse('2027-01-01T00:00:00Z')).map((t) => ({ ...t, id: 'Transaction:later-1' }))
    )
    expect(await found(store, 'later-1')).toBe(1)
    await store.close()
  })

  it('is rebuilt when the cache opens after the app ended mid catch-up', async () => {
    const file = path.join(dir, 'c.db')
    const { store } = await CacheStore.open(file, key)
    await store.put('transactions', makeTransactions(40), { meta: { [TEXT_DEFERRED_KEY]: true } })
    expect(await found(store, 'Transaction:000000')).toBe(0)
    await store.close()

    const { store: reopened } = await CacheStore.open(file, key)
    await vi.waitFor(async () => expect(await found(reopened, 'Transaction:000000')).toBe(10), {
      timeout: THREAD_WORK_MS
    })
    expect(reopened.meta(TEXT_DEFERRED_KEY)).toBe(false)
    await reopened.close()
  })

  it('migrates a cache of schema 3: its history is searched again once the writer thread has rebuilt the index', async () => {
    const file = path.join(dir, 'v3.db')
    await cacheOfSchema(file, key, 3, makeTransactions(20))

    const { store: upgraded } = await CacheStore.open(file, key)
    // The total is right at once; the new index is filled in the writer thread, then the history is found again.
    expect(upgraded.count('transactions')).toBe(20)
    await vi.waitFor(() => expect(upgraded.meta(TEXT_DEFERRED_KEY)).toBe(false), { timeout: THREAD_WORK_MS })
    expect(await found(upgraded, 'Transaction:000000')).toBe(10)
    expect(await found(upgraded, 'invoice 10 for bob')).toBe(1)
    // The index it replaced is gone, and the new one is kept row by row and can be left behind as before.
    await upgraded.put(
      'transactions',
      makeTransactions(5, 3, Date.parse('2027-01-01T00:00:00Z')).map((t, i) => ({ ...t, id: `Transaction:new-${i}` })),
      { meta: { [TEXT_DEFERRED_KEY]: true } }
    )
    expect(await found(upgraded, 'Transaction:new-')).toBe(0)
    await upgraded.rebuildText()
    expect(await found(upgraded, 'Transaction:new-')).toBe(5)
    expect(upgraded.count('transactions')).toBe(25)
    await upgraded.close()
    const check = openEncryptedDatabase(file, key)
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION)
    expect(check.prepare(`SELECT count(*) FROM sqlite_schema WHERE name LIKE 'tx_text%'`).pluck().get()).toBe(0)
    check.close()
  })

  it('keeps each text index page in one database page, in a new cache and in one upgraded from schema 4', async () => {
    const fresh = path.join(dir, 'new.db')
    const older = path.join(dir, 'v4.db')
    await cacheOfSchema(older, key, 4, [])
    for (const file of [fresh, older]) {
      const { store } = await CacheStore.open(file, key)
      await store.put('transactions', makeTransactions(4_000))
      await store.close()
      // SQLCipher keeps 80 bytes of every page: FTS5's own 4,050-byte pages each spilled onto an overflow page.
      const check = openEncryptedDatabase(file, key)
      const pages = check
        .prepare(`SELECT pagetype, count(*) n FROM dbstat WHERE name = 'tx_search_data' GROUP BY pagetype`)
        .all() as { pagetype: string; n: number }[]
      check.close()
      expect(pages.find((p) => p.pagetype === 'leaf')?.n, file).toBeGreaterThan(20)
      expect(
        pages.find((p) => p.pagetype === 'overflow'),
        file
      ).toBeUndefined()
    }
  })

  it('starts a new cache with its index kept and nothing to rebuild', async () => {
    const { store } = await CacheStore.open(path.join(dir, 'new.db'), key)
    expect(store.meta(TEXT_DEFERRED_KEY)).toBeUndefined()
    await store.put('transactions', makeTransactions(10))
    expect(await found(store, 'Transaction:000000')).toBe(10)
    await store.close()
  })
})

describe('an index added to the schema after a cache was made', () => {
  const hasKeysByRowid = (file: string) => {
    const check = openEncryptedDatabase(file, key)
    try {
      return hasIndex(check, KEYS_BY_ROWID)
    } finally {
      check.close()
    }
  }

  it('is built by the writer thread when the cache opens; searches answer the same rows without it and with it', async () => {
    const file = path.join(dir, 'c.db')
    const { store } = await CacheStore.open(file, key)
    await store.put('transactions', makeTransactions(300))
    await store.close()
    const newest = { field: 'createdAt', direction: 'desc' } as const
    const windows = (queries: TransactionQueries) =>
      [{ search: 'Transaction:00001' }, { search: 'for Bob' }, { search: 'Transaction:0000299' }].map((filter) =>
        [0, 7, 95].map((offset) => queries.window(filter, newest, offset, 42))
      )
    const withIndex = openEncryptedDatabase(file, key)
    const expected = windows(new TransactionQueries(withIndex))
    withIndex.close()
    expect(expected[0]![0]!.total).toBe(100)

    // As a cache made before the index was part of the schema: its searches sort from the rows.
    const older = openEncryptedDatabase(file, key)
    older.exec(`DROP INDEX ${KEYS_BY_ROWID}`)
    expect(windows(new TransactionQueries(older))).toEqual(expected)
    older.close()
    expect(hasKeysByRowid(file)).toBe(false)

    const { store: reopened } = await CacheStore.open(file, key)
    await vi.waitFor(() => expect(hasKeysByRowid(file)).toBe(true), { timeout: THREAD_WORK_MS })
    await reopened.close()
  })
})
