/* eslint-disable @typescript-eslint/no-explicit-any -- the tests read the store's own connection */
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { migrate, TEXT_DEFERRED_KEY } from '../../../../src/main/infra/cache/schema'
import { openEncryptedDatabase, type SqliteDatabase } from '../../../../src/main/infra/cache/sqlite'
import { CacheStore } from '../../../../src/main/infra/cache/store'
import { mergeText, putDocuments, setMeta, textSegments } from '../../../../src/main/infra/cache/writes'
import { MERGE_HOLD_MS } from '../../../../src/main/infra/cache/merge-schedule'
import { tempDir } from '../../helpers'
import { makeTransactions } from './fixtures'

let dir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir, cleanup } = await tempDir('cache-writes')))
afterEach(() => cleanup())
const key = randomBytes(32)

const NEEDLES = ['transaction:000', 'invoice 1', 'n:0001', 'customer:4', 'bob', 'externalaccount:9']

/** Each needle's rows as the text index finds them, and as a scan of the stored text does. */
function searched(db: SqliteDatabase) {
  return NEEDLES.map((needle) => ({
    needle,
    index: db.prepare('SELECT rowid FROM tx_search WHERE tx_search MATCH ? ORDER BY rowid').pluck().all(`"${needle}"`),
    scan: db.prepare('SELECT rid FROM tx WHERE instr(search, ?) ORDER BY rid').pluck().all(needle)
  }))
}

/** A cache database whose rows were written in batches: each batch leaves a segment of its own in the text index. */
function writtenInBatches(file: string, rows: ReturnType<typeof makeTransactions>, batch: number) {
  const db = openEncryptedDatabase(file, key)
  migrate(db)
  for (let i = 0; i < rows.length; i += batch) putDocuments(db, { c: 'transactions', docs: rows.slice(i, i + batch) })
  return db
}

/** Waits, as long as a loaded machine needs, for the writer thread's background merge to leave one segment. */
async function mergedToOne(db: SqliteDatabase) {
  await vi.waitFor(() => expect(textSegments(db)).toBe(1), { timeout: 60_000, interval: 50 })
}

describe('merging the text index', () => {
  it('ends with one segment that finds exactly what the segments found, step by step', () => {
    const db = writtenInBatches(path.join(dir, 'c.db'), makeTransactions(3000, 3), 500)
    const before = textSegments(db)
    expect(before).toBeGreaterThan(1)
    const found = searched(db)
    for (const f of found) expect(f.index, f.needle).toEqual(f.scan)
    expect(found.every((f) => f.scan.length > 0)).toBe(true)

    let steps = 0
    while (mergeText(db, 16)) steps += 1
    expect(steps).toBeGreaterThan(1)
    expect(textSegments(db)).toBe(1)
    expect(searched(db)).toEqual(found)
    // Nothing left: another step is a no-op.
    expect(mergeText(db, 16)).toBe(false)
    db.close()
  })

  it('does nothing while the index is left behind for a rebuild', () => {
    const db = writtenInBatches(path.join(dir, 'c.db'), makeTransactions(2000, 3), 500)
    const before = textSegments(db)
    setMeta(db, { [TEXT_DEFERRED_KEY]: true })
    expect(mergeText(db, 1000)).toBe(false)
    expect(textSegments(db)).toBe(before)
    db.close()
  })

  it('runs in the writer thread on an index of many segments, and writes that arrive meanwhile are found', async () => {
    const file = path.join(dir, 'c.db')
    const rows = makeTransactions(4000, 4)
    const raw = writtenInBatches(file, rows.slice(0, 3000), 300)
    const before = textSegments(raw)
    raw.close()
    expect(before).toBeGreaterThan(4)

    const opened = Date.now()
    const { store } = await CacheStore.open(file, key)
    const db = (store as any).db as SqliteDatabase
    // Not while the app starts: its first screen is read then (merge-schedule.ts, whose test checks the rest with a
    // fake clock). The thread started after `opened` and rests MERGE_HOLD_MS from its start, so a count read before
    // then cannot have seen a step; a loaded machine that took longer to get here makes the check moot, not wrong.
    await store.writesOffThread()
    const early = textSegments(db)
    if (Date.now() - opened < MERGE_HOLD_MS) expect(early).toBe(before)
    // A sync that lands while the merge runs: answered between steps, its rows in the index.
    for (let i = 3000; i < 4000; i += 250) await store.put('transactions', rows.slice(i, i + 250))
    await mergedToOne(db)
    const found = searched(db)
    for (const f of found) expect(f.index, f.needle).toEqual(f.scan)
    const sort = { field: 'createdAt', direction: 'asc' } as const
    expect((await store.queryTransactions({ search: 'transaction:0003' }, sort, 0, 2000)).total).toBe(1000)
    await store.close()
  }, 90_000)

  it('rests while the list is read, and merges once the reading stops', async () => {
    const file = path.join(dir, 'c.db')
    const raw = writtenInBatches(file, makeTransactions(3000, 5), 300)
    const before = textSegments(raw)
    raw.close()

    const opened = Date.now()
    const { store } = await CacheStore.open(file, key)
    const db = (store as any).db as SqliteDatabase
    await store.writesOffThread()
    // The operator reads the list (a query every 300 ms) for longer than the thread's own rest at its start. A step
    // starts only MERGE_HOLD_MS after the last read began (or after the thread's start, itself after `opened`), so
    // while no two reads are that far apart none can have run. A loaded machine can stretch a gap past it: from
    // there the check is moot, never wrong.
    const sort = { field: 'createdAt', direction: 'desc' } as const
    let lastRead = opened
    let unbroken = true
    while (Date.now() < opened + MERGE_HOLD_MS + 2000) {
      const asking = Date.now()
      const answer = store.queryTransactions({}, sort, 0, 42) // marks the read before it returns
      unbroken &&= Date.now() - lastRead < MERGE_HOLD_MS
      lastRead = asking
      await answer
      await new Promise((r) => setTimeout(r, 300))
    }
    const seen = textSegments(db)
    if (unbroken && Date.now() - lastRead < MERGE_HOLD_MS) expect(seen).toBe(before)
    await mergedToOne(db)
    await store.close()
  }, 90_000)
})
