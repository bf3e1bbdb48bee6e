/* eslint-disable @typescript-eslint/no-explicit-any -- the oracle reads test fixtures loosely on purpose */
import { randomBytes } from 'node:crypto'
import { readFile, readdir, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CacheStore } from '../../../../src/main/infra/cache/store'
import type { Transaction } from '../../../../src/shared/api'
import type { TransactionFilter, TransactionSort } from '../../../../src/shared/ipc/channels/data'
import { tempDir } from '../../helpers'
import { cacheOfSchema, makeTransactions, rng } from './fixtures'

let dir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir, cleanup } = await tempDir('cache')))
afterEach(() => cleanup())
const key = randomBytes(32)

/** The obvious, slow answer the indexed query must agree with. */
function oracle(all: Transaction[], f: TransactionFilter, s: TransactionSort): string[] {
  const amount = (t: any) => (t.type === 'OUTGOING' ? t.sentAmount : t.receivedAmount)
  const statuses = f.status
  const type = f.type
  const rows = all.filter((t: any) => {
    if (statuses?.length && !statuses.includes(t.status)) return false
    if (type && t.type !== type) return false
    if (f.customerId && t.customerId !== f.customerId) return false
    if (f.currency && amount(t).currency.code !== f.currency) return false
    if (f.accountId && t.source?.accountId !== f.accountId && t.destination?.accountId !== f.accountId) return false
    if (f.amountMin !== undefined && amount(t).amount < f.amountMin) return false
    if (f.amountMax !== undefined && amount(t).amount > f.amountMax) return false
    if (f.senderAccountId !== undefined && t.source?.accountId !== f.senderAccountId) return false
    if (f.createdFrom && Date.parse(t.createdAt) < Date.parse(f.createdFrom)) return false
    if (f.createdTo && Date.parse(t.createdAt) > Date.parse(f.createdTo)) return false
    if (f.search) {
      const hay = [
        t.id,
        t.description,
        t.customerId,
        t.platformCustomerId,
        t.source?.accountId,
        t.destination?.accountId
      ]
      if (!hay.some((h) => typeof h === 'string' && h.toLowerCase().includes(f.search!.toLowerCase()))) return false
    }
    return true
  })
  const key = (t: any): number | string =>
    s.field === 'amount' ? amount(t).amount : s.field === 'status' ? t.status : Date.parse(t[s.field] ?? t.createdAt)
  const cmpCreated = (a: any, b: any) =>
    Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  rows.sort((a, b) => {
    const ka = key(a)
    const kb = key(b)
    const c = ka < kb ? -1 : ka > kb ? 1 : cmpCreated(a, b)
    return s.direction === 'asc' ? c : -c
  })
  return rows.map((t) => t.id)
}

describe('CacheStore', () => {
  it('persists documents across reopen, and skips unchanged ones', async () => {
    const file = path.join(dir, 'cache.db')
    const { store, info } = await CacheStore.open(file, key)
    expect(info.outcome).toBe('new')
    const txs = makeTransactions(50)
    expect(await store.put('transactions', txs)).toHaveLength(50)
    const size = store.fileBytes
    expect(await store.put('transactions', txs)).toEqual([]) // nothing changed, nothing written
    expect(store.fileBytes).toBe(size)
    const changed = { ...txs[3]!, status: 'COMPLETED', updatedAt: '2026-02-01T00:00:00.000Z' } as Transaction
    expect(await store.put('transactions', [changed])).toEqual([txs[3]!.id])
    await store.put('customers', [{ id: 'Customer:1', fullName: 'Ann ZEBRA-NAME' }])
    await store.setMeta({ watermark: '2026-01-01T00:00:49.000Z' })
    // While open, the newest pages are in the write-ahead log: encrypted there too.
    const wal = await readFile(`${file}-wal`)
    expect(wal.length).toBeGreaterThan(0)
    for (const text of ['ZEBRA-NAME', 'Transaction:', 'Invoice 10 for Bob', 'Customer:'])
      expect(wal.includes(Buffer.from(text)), `${text} in the WAL`).toBe(false)
    await store.close()
    const disk = await readFile(file)
    expect(disk.length).toBeGreaterThan(4096)
    for (const text of ['ZEBRA-NAME', 'Transaction:', 'Invoice 10 for Bob', 'SQLite format 3'])
      expect(disk.includes(Buffer.from(text)), `${text} in the database`).toBe(false)

    const { store: again, info: info2 } = await CacheStore.open(file, key)
    expect(info2).toMatchObject({ outcome: 'loaded', documents: 52 })
    expect(again.get<any>('transactions', txs[3]!.id).status).toBe('COMPLETED')
    expect(again.get<any>('customers', 'Customer:1').fullName).toBe('Ann ZEBRA-NAME')
    expect(again.meta('watermark')).toBe('2026-01-01T00:00:49.000Z')
    expect(
      (
        await again.queryTransactions({ status: ['COMPLETED'] }, { field: 'createdAt', direction: 'asc' }, 0, 100)
      ).rows.map((t) => t.id)
    ).toContain(txs[3]!.id)
    await again.close()
  })

  it('writes in its own thread: main answers reads while a bulk write is in flight, then sees all of it', async () => {
    const { store } = await CacheStore.open(path.join(dir, 'threaded.db'), key)
    // Until its writer thread is up, a store writes on main's connection; a running app's has been up for long.
    await store.writesOffThread()
    const txs = makeTransactions(2_000, 7)
    // What main's own connection has written, by SQLite's count: the thread's writes are not on it.
    const mainDb = (store as any).db as { prepare(sql: string): { pluck(): { get(): unknown } } }
    const writtenOnMain = () => mainDb.prepare('SELECT total_changes()').pluck().get()
    const before = writtenOnMain()
    const writing = store.put('transactions', txs)
    // put() has returned without writing on this thread, and main still reads: the cache as it was or, if the thread
    // was quick, with the whole write, never half of it (no race with the thread's timing either way).
    expect(writtenOnMain()).toBe(before)
    expect([0, 2_000]).toContain(store.count('transactions'))
    expect(await writing).toHaveLength(2_000)
    expect(store.count('transactions')).toBe(2_000)
    expect(writtenOnMain()).toBe(before)
    expect(store.get<any>('transactions', txs[1_999]!.id).id).toBe(txs[1_999]!.id)
    // A failed write rejects with the database's reason and leaves nothing half-written.
    const fresh = { ...txs[0]!, id: 'Transaction:fresh' } as Transaction
    const broken = { ...txs[0]!, id: null } as unknown as Transaction
    await expect(store.put('transactions', [fresh, broken])).rejects.toThrow(/NOT NULL/)
    expect(store.count('transactions')).toBe(2_000)
    await store.close()
  })

  it('answers the top of the whole list without waiting for a reader thread that is still starting', async () => {
    const file = path.join(dir, 'starting.db')
    const txs = makeTransactions(600, 11)
    const first = await CacheStore.open(file, key)
    await first.store.put('transactions', txs)
    await first.store.close()
    const { store } = await CacheStore.open(file, key)
    // A reader thread that has not opened the database yet; what it answers is marked, so each window says who
    // answered it (no race against a read that never settles).
    const reader = (store as any).reader as { ready: boolean; read: (...args: unknown[]) => Promise<unknown> }
    reader.ready = false
    const asked: unknown[] = []
    const FROM_THREAD = -1
    reader.read = (...args) => {
      asked.push(args)
      return Promise.resolve({ docs: '[]', total: FROM_THREAD })
    }
    const sort = { field: 'createdAt', direction: 'desc' } as const
    const top = await store.queryTransactions({}, sort, 0, 60)
    expect(top.total).toBe(600)
    expect(top.rows.map((t) => t.id)).toEqual(oracle(txs, {}, sort).slice(0, 60))
    const byAmount = await store.queryTransactions({}, { field: 'amount', direction: 'asc' }, 60, 200)
    expect(byAmount.rows.map((t) => t.id)).toEqual(
      oracle(txs, {}, { field: 'amount', direction: 'asc' }).slice(60, 260)
    )
    expect(asked).toHaveLength(0)
    // A filter, or rows further down, can cost far more at a million rows: they wait for the thread, never on main.
    expect((await store.queryTransactions({ status: ['COMPLETED'] }, sort, 0, 60)).total).toBe(FROM_THREAD)
    expect((await store.queryTransactions({}, sort, 400, 200)).total).toBe(FROM_THREAD)
    expect(asked).toHaveLength(2)
    // Once the thread is up, every window is its to answer.
    reader.ready = true
    expect((await store.queryTransactions({}, sort, 0, 60)).total).toBe(FROM_THREAD)
    expect(asked).toHaveLength(3)
    await store.close()
  })

  it('waits for the reader thread for the whole list too while the total is not kept yet', async () => {
    const file = path.join(dir, 'schema4.db')
    // Rows of schema 3, brought to 4 at open: the count and the sort indexes come later, in the writer thread.
    await cacheOfSchema(file, key, 3, makeTransactions(50, 3))
    const { store } = await CacheStore.open(file, key)
    expect((store as any).db.prepare('SELECT n FROM tx_count').pluck().get()).toBeNull()
    const reader = (store as any).reader as { ready: boolean; read: (...args: unknown[]) => Promise<unknown> }
    reader.ready = false
    let asked = 0
    reader.read = () => {
      asked += 1
      return Promise.resolve({ docs: '[]', total: 50 })
    }
    expect((await store.queryTransactions({}, { field: 'createdAt', direction: 'desc' }, 0, 60)).total).toBe(50)
    expect(asked).toBe(1)
    await store.close()
  })

  it('replaceAll deletes what a full listing no longer has', async () => {
    const { store } = await CacheStore.open(path.join(dir, 'c'), key)
    await store.put('internalAccounts', [{ id: 'InternalAccount:1' }, { id: 'InternalAccount:2' }])
    expect(await store.put('internalAccounts', [{ id: 'InternalAccount:2' }], { replaceAll: true })).toEqual([
      'InternalAccount:1'
    ])
    expect(store.all('internalAccounts')).toEqual([{ id: 'InternalAccount:2' }])
    await store.close()
  })

  it('keeps the totals right through inserts, updates, removals, full listings and failed writes', async () => {
    const file = path.join(dir, 'c')
    const { store } = await CacheStore.open(file, key)
    const [a, b, c, d, e] = makeTransactions(5)
    let held: Transaction[] = []
    // The unfiltered total, and each status, type and currency counted as a scan of what is held would count them.
    const total = async () => {
      const filters: TransactionFilter[] = [
        ...['CREATED', 'PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'REJECTED', 'EXPIRED', 'SHINY_NEW'].map((s) => ({
          status: [s]
        })),
        { type: 'INCOMING' },
        { type: 'OUTGOING', currency: 'USD' },
        { status: ['FAILED', 'PENDING'], currency: 'EUR' }
      ]
      for (const f of filters)
        expect(await store.countTransactions(f), JSON.stringify(f)).toBe(oracle(held, f, sort).length)
      return (await store.queryTransactions({}, sort, 0, 1)).total
    }
    const sort: TransactionSort = { field: 'createdAt', direction: 'desc' }
    await store.put('transactions', [a!, b!, c!])
    held = [a!, b!, c!]
    expect(await total()).toBe(3)
    // A changed row and an unchanged one are not new rows.
    const failed = { ...a!, status: 'FAILED', updatedAt: '2027-01-01T00:00:00.000Z' } as Transaction
    await store.put('transactions', [failed, b!, d!])
    held = [failed, b!, c!, d!]
    expect(await total()).toBe(4)
    await store.put('transactions', [], { remove: [b!.id, 'Transaction:never-there'] })
    held = [failed, c!, d!]
    expect(await total()).toBe(3)
    // A write that fails part way leaves nothing behind, the total included.
    await expect(store.put('transactions', [e!, { id: null } as unknown as Transaction])).rejects.toThrow()
    expect(await total()).toBe(3)
    await store.put('transactions', [c!, e!], { replaceAll: true })
    held = [c!, e!]
    expect(await total()).toBe(2)
    expect(store.count('transactions')).toBe(2)
    await store.close()
    const { store: reopened } = await CacheStore.open(file, key)
    expect(reopened.count('transactions')).toBe(2)
    expect(
      (await reopened.queryTransactions({}, { field: 'amount', direction: 'asc' }, 0, 10)).rows.map((t) => t.id)
    ).toEqual(oracle([c!, e!], {}, { field: 'amount', direction: 'asc' }))
    await reopened.close()
  })

  it('answers filtered, sorted windows exactly like a full scan would', async () => {
    const { store } = await CacheStore.open(path.join(dir, 'c'), key)
    const all = makeTransactions(3000, 7)
    // Insert out of order and in batches, then update some, to exercise incremental index maintenance.
    const shuffled = [...all].sort(() => 0) // stable
    const r = rng(3)
    for (let i = 0; i < shuffled.length; i += 250) await store.put('transactions', shuffled.slice(i, i + 250).reverse())
    const current = new Map(all.map((t) => [t.id, t]))
    for (let i = 0; i < 300; i++) {
      const t = all[Math.floor(r() * all.length)]! as any
      const next: any = {
        ...current.get(t.id),
        status: ['COMPLETED', 'FAILED', 'PENDING'][i % 3],
        updatedAt: new Date(Date.parse('2026-03-01T00:00:00Z') + i).toISOString()
      }
      if (i % 50 === 0) next.createdAt = new Date(Date.parse('2025-12-01T00:00:00Z') + i * 1000).toISOString()
      current.set(t.id, next)
      await store.put('transactions', [next])
    }
    const data = [...current.values()]
    const filters: TransactionFilter[] = [
      {},
      { status: ['PENDING'] },
      { status: ['COMPLETED', 'FAILED'], currency: 'USD' },
      { type: 'OUTGOING', accountId: 'InternalAccount:3' },
      { type: 'INCOMING', status: ['PENDING'] },
      { customerId: 'Customer:7', search: 'bob' },
      { search: 'invoice 12' },
      { createdFrom: '2026-01-01T00:10:00Z', createdTo: '2026-01-01T00:20:00Z', type: 'INCOMING' },
      { status: ['SHINY_NEW'] },
      { customerId: 'Customer:none' },
      // Many matches: windows walk a sort's index, reading the filter from its entries or from each walked row.
      { type: 'INCOMING', amountMin: 100_000 },
      { senderAccountId: 'InternalAccount:3' },
      { accountId: 'InternalAccount:3', status: ['COMPLETED', 'FAILED', 'PENDING'] }
    ]
    const sorts: TransactionSort[] = [
      { field: 'createdAt', direction: 'desc' },
      { field: 'createdAt', direction: 'asc' },
      { field: 'amount', direction: 'desc' },
      { field: 'status', direction: 'asc' },
      { field: 'updatedAt', direction: 'desc' }
    ]
    for (const f of filters) {
      for (const s of sorts) {
        const expected = oracle(data, f, s)
        for (const [offset, limit] of [
          [5, 40],
          [2, 5]
        ] as const) {
          const page = await store.queryTransactions(f, s, offset, limit)
          expect(page.total, JSON.stringify([f, s])).toBe(expected.length)
          expect(
            page.rows.map((t) => t.id),
            JSON.stringify([f, s, offset])
          ).toEqual(expected.slice(offset, offset + limit))
        }
      }
    }
    await store.close()
  }, 120_000) // 390 windows of 3,000 rows: 12-24 s beside other suites on two cores

  it('compacts the write-ahead log into the database, which reopens to the same content', async () => {
    const file = path.join(dir, 'c')
    const { store } = await CacheStore.open(file, key)
    const txs = makeTransactions(500)
    await store.put('transactions', txs)
    for (let round = 0; round < 5; round++) {
      await store.put(
        'transactions',
        txs.map((t) => ({ ...t, status: `S${round}`, updatedAt: `r${round}` }) as Transaction)
      )
    }
    expect((await stat(`${file}-wal`)).size).toBeGreaterThan(0)
    await store.compact()
    expect((await stat(`${file}-wal`)).size).toBe(0)
    await store.close()
    const { store: again } = await CacheStore.open(file, key)
    expect(again.count('transactions')).toBe(500)
    expect(again.get<any>('transactions', txs[10]!.id).status).toBe('S4')
    await again.close()
  })

  it('cannot be read with another key: it is set aside, kept, and an empty cache takes its place', async () => {
    const file = path.join(dir, 'c')
    const { store } = await CacheStore.open(file, key)
    await store.put('customers', [{ id: 'Customer:1' }])
    await store.close()
    const { store: other, info } = await CacheStore.open(file, randomBytes(32))
    expect(info).toMatchObject({ outcome: 'set-aside', reason: 'not readable with this key' })
    expect(other.count('customers')).toBe(0)
    await other.close()
    expect((await readdir(dir)).some((n) => n.startsWith('c.corrupt-'))).toBe(true)
  })

  it('never loses a write that races a compaction', async () => {
    const file = path.join(dir, 'race')
    const { store } = await CacheStore.open(file, key)
    const txs = makeTransactions(3_000, 11)
    await store.put('transactions', txs.slice(0, 1_000))
    const work: Promise<unknown>[] = []
    for (let i = 1; i < 30; i++) {
      const batch = txs.slice(1_000 + (i - 1) * 50, 1_000 + i * 50)
      work.push(store.put('transactions', batch, { meta: { 'tx.watermark': `w${i}` } }))
      if (i % 7 === 0) work.push(store.compact())
    }
    await Promise.all(work)
    await store.close()
    const { store: again } = await CacheStore.open(file, key)
    expect(again.count('transactions')).toBe(1_000 + 29 * 50)
    expect(again.meta('tx.watermark')).toBe('w29')
    await again.close()
  })

  it('sets a corrupt cache aside and opens empty instead of crashing', async () => {
    const file = path.join(dir, 'c')
    const { store } = await CacheStore.open(file, key)
    await store.put('transactions', makeTransactions(20))
    await store.put('customers', [{ id: 'Customer:1' }])
    await store.close()
    const bytes = await readFile(file)
    bytes[80]! ^= 0x55
    await writeFile(file, bytes)
    const { store: again, info } = await CacheStore.open(file, key)
    expect(info.outcome).toBe('set-aside')
    expect(again.count('transactions')).toBe(0)
    await again.put('customers', [{ id: 'Customer:2' }])
    await again.close()
    expect((await readdir(dir)).some((n) => n.startsWith('c.corrupt-'))).toBe(true)
    const { store: third } = await CacheStore.open(file, key)
    expect(third.all('customers')).toEqual([{ id: 'Customer:2' }])
    await third.close()
  })
})

describe('the cache schema', () => {
  it('brings a cache of schema 1 up to date, keeping its rows, and never opens a newer one as if it were its own', async () => {
    const { openEncryptedDatabase } = await import('../../../../src/main/infra/cache/sqlite')
    const { SCHEMA_VERSION } = await import('../../../../src/main/infra/cache/schema')
    const file = path.join(dir, 'v1.db')
    await cacheOfSchema(file, key, 1, makeTransactions(30))

    const { store: upgraded, info } = await CacheStore.open(file, key)
    expect(info.outcome).toBe('loaded')
    expect(upgraded.count('transactions')).toBe(30)
    await upgraded.close()
    const check = openEncryptedDatabase(file, key)
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION)
    expect((check.pragma('index_info(tx_source)') as unknown[]).length).toBe(8)
    check.pragma(`user_version = ${SCHEMA_VERSION + 1}`)
    check.close()
    const { store: newer, info: newerInfo } = await CacheStore.open(file, key)
    expect(newerInfo).toMatchObject({ outcome: 'set-aside', reason: 'written by a newer Paydesk' })
    expect(newer.count('transactions')).toBe(0)
    await newer.close()
  })
})
