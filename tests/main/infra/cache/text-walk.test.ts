/* eslint-disable @typescript-eslint/no-explicit-any -- the oracle reads test fixtures loosely on purpose */
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrate } from '../../../../src/main/infra/cache/schema'
import { openEncryptedDatabase, type SqliteDatabase } from '../../../../src/main/infra/cache/sqlite'
import { candidatesFrom, nthHighestCandidate, textSearchOf } from '../../../../src/main/infra/cache/text-search'
import {
  floorPays,
  GIVE_UP_SLACK,
  LONGEST_SLACK,
  MIN_STRETCH,
  nextBudget,
  ROWID_MARGIN,
  rowidStretch,
  stretchOf,
  walkInStretches,
  type Walk
} from '../../../../src/main/infra/cache/text-walk'
import { TransactionQueries } from '../../../../src/main/infra/cache/transaction-queries'
import { putDocuments } from '../../../../src/main/infra/cache/writes'
import type { Transaction } from '../../../../src/shared/api'
import type { TransactionFilter, TransactionSort } from '../../../../src/shared/ipc/channels/data'
import { transactionSearchText } from '../../../../src/shared/transaction-search'
import { tempDir } from '../../helpers'
import { makeTransactions, rng, traceStatements } from './fixtures'

// A text search's window, found by walking the sort's index in stretches (with a rowid floor for a dense needle) or
// by sorting the candidates once a clustered needle's walk gives up, holds exactly the rows a plain filter and sort
// put there: whether the rows were written in creation order (the floor leaves most candidates out) or shuffled (it
// leaves none out) or in creation order but for a few older rows written last (a first stretch ends at a row found by
// rowid, and the rowids are not quite in order), with ties in creation time, for every sort, offset and limit.

const N = 12_000
/**
 * Rows 600-696 of N, at the oldest end when newest first, and three of the newest: a needle that clusters, with few
 * enough candidates (100) that sorting them costs less than walking the whole index.
 */
const CLUSTER = (i: number) => (i >= 600 && i < 697) || i >= N - 3
/** One row in two below row 9,000, one in a hundred above: dense, and sparse at the top of newest first. */
const DENSE = (i: number) => (i < 9_000 ? i % 2 === 0 : i % 100 === 0)

function dataset(): Transaction[] {
  return makeTransactions(N, 9).map((t, i) => {
    const words = [CLUSTER(i) ? 'klustr' : '', DENSE(i) ? 'dnsx' : ''].filter(Boolean)
    // Runs of eight rows share a creation time: ties are broken by id, in the sort's direction.
    const createdAt = new Date(Date.parse('2026-01-01T00:00:00Z') + Math.floor(i / 8) * 1000).toISOString()
    return { ...t, createdAt, updatedAt: createdAt, description: words.join(' ') || undefined } as Transaction
  })
}

function oracle(data: Transaction[], f: TransactionFilter, s: TransactionSort): string[] {
  const needle = f.search!.trim().toLowerCase()
  const money = (t: any) => (t.type === 'OUTGOING' ? t.sentAmount : t.receivedAmount)
  const rows = data.filter(
    (t) => transactionSearchText(t).includes(needle) && (!f.status || f.status.includes((t as any).status))
  )
  const key = (t: any): number | string =>
    s.field === 'amount' ? money(t).amount : s.field === 'status' ? t.status : Date.parse(t[s.field])
  rows.sort((a: any, b: any) => {
    const [ka, kb] = [key(a), key(b)]
    const c = ka < kb ? -1 : ka > kb ? 1 : Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : 1)
    return s.direction === 'asc' ? c : -c
  })
  return rows.map((t) => t.id)
}

const ORDERS = ['ordered', 'fewLate', 'manyLate', 'shuffled'] as const
type Order = (typeof ORDERS)[number]
/** The ids of a window's documents (the text of one JSON array). */
const ids = (docs: string) => (JSON.parse(docs) as Transaction[]).map((t) => t.id)
const NEWEST: TransactionSort = { field: 'createdAt', direction: 'desc' }

describe('a text search walked in stretches', () => {
  const data = dataset()
  let cleanup: () => Promise<void>
  const dbs: SqliteDatabase[] = []
  /**
   * The same rows written in creation order; in that order but for one older row in 150 written last (a few late
   * rows: creation-order.ts merges them); in that order but for one row in 30 written 200 rows late (too many late
   * rows to merge, rowids still nearly follow creation time: text-walk.ts ends a first stretch by rowid); and shuffled
   * (rowids then say nothing of creation time).
   */
  const written: Record<Order, { queries: TransactionQueries; statements: string[] }> = {} as never

  beforeAll(async () => {
    const temp = await tempDir('cache-walk')
    cleanup = temp.cleanup
    const r = rng(3)
    const shuffled = data
      .map((t) => ({ t, k: r() }))
      .sort((a, b) => a.k - b.k)
      .map((x) => x.t)
    const late = (i: number) => i < 9_000 && i % 150 === 7
    const fewLate = [...data.filter((_, i) => !late(i)), ...data.filter((_, i) => late(i))]
    const delayed = (i: number) => i < 9_000 && i % 30 === 7
    const manyLate = data.flatMap((t, i) => [
      ...(delayed(i) ? [] : [t]),
      ...(i >= 200 && delayed(i - 200) ? [data[i - 200]!] : [])
    ])
    for (const [name, rows] of [
      ['ordered', data],
      ['fewLate', fewLate],
      ['manyLate', manyLate],
      ['shuffled', shuffled]
    ] as const) {
      const db = openEncryptedDatabase(path.join(temp.dir, `${name}.db`), randomBytes(32))
      dbs.push(db)
      migrate(db)
      putDocuments(db, { c: 'transactions', docs: rows })
      written[name] = { queries: new TransactionQueries(db), statements: traceStatements(db) }
    }
  }, 60_000)
  afterAll(async () => {
    for (const db of dbs) db.close()
    await cleanup()
  })

  it.each([
    ['a needle that clusters at the far end of the sort', { search: 'klustr' }],
    ['a dense needle, sparse where newest first starts', { search: 'DNSX' }],
    ['a dense needle with another filter', { search: 'dnsx', status: ['FAILED', 'COMPLETED'] }]
  ] as [string, TransactionFilter][])('%s: the rows of a plain filter and sort', (_, filter) => {
    const sorts: TransactionSort[] = [
      NEWEST,
      { field: 'createdAt', direction: 'asc' },
      { field: 'amount', direction: 'desc' }
    ]
    for (const name of ORDERS) {
      for (const sort of sorts) {
        const expected = oracle(data, filter, sort)
        for (const [offset, limit] of [
          [0, 60],
          [0, 42],
          [1, 2],
          [45, 60],
          [expected.length - 5, 60]
        ] as const) {
          const { docs, total } = written[name].queries.window(filter, sort, offset, limit)
          const at = JSON.stringify([name, filter, sort, offset, limit])
          expect(total, at).toBe(expected.length)
          expect(ids(docs), at).toEqual(expected.slice(offset, offset + limit))
        }
      }
    }
  })

  it("leaves a dense needle's candidates below the stretch's least rowid out of the walk, and sorts a clustered one's", () => {
    const { queries, statements } = written.manyLate
    statements.length = 0
    queries.window({ search: 'dnsx' }, NEWEST, 0, 60)
    // Written (nearly) in creation order: the few candidates from the floor up are read from FTS5 and listed.
    expect(statements.some((s) => s.includes('json_each'))).toBe(true)
    // Shuffled, the floor leaves nearly every candidate in, too many to list: FTS5 applies the floor itself.
    written.shuffled.statements.length = 0
    written.shuffled.queries.window({ search: 'dnsx' }, NEWEST, 0, 60)
    expect(written.shuffled.statements.some((s) => s.includes('tx_search.rowid >= ?'))).toBe(true)
    // Rowids follow creation time only where the rows were written in its order (or nearly).
    const [ordered, shuffled] = [dbs[0]!, dbs[3]!]
    expect(rowidStretch(ordered, textSearchOf('klustr')!, 5, N)).toBe(ROWID_MARGIN * (N - 696 + 1))
    expect(rowidStretch(shuffled, textSearchOf('klustr')!, 5, N)).toBeNull()
    // The 5th newest candidate's rowid is far below the top: no stretch within the allowance, the candidates sorted.
    statements.length = 0
    queries.window({ search: 'klustr' }, NEWEST, 3, 2)
    expect(statements.filter((s) => s.includes('created_at DESC, id DESC LIMIT 1 OFFSET'))).toHaveLength(0)
    // The window's own statement.
    expect(statements.filter((s) => s.includes('WHERE rid IN')).at(-1)).toMatch(
      /WHERE rid IN \(SELECT rowid FROM tx_search/
    )
  })

  it('ends a first stretch at the row its rowid says where rowids follow creation time, and counts entries elsewhere', () => {
    const seeks = (s: string) => s.includes('WHERE rid <= ? ORDER BY rid DESC')
    const counts = (s: string) => s.includes('created_at DESC, id DESC LIMIT 1 OFFSET')
    for (const name of ORDERS) {
      written[name].statements.length = 0
      written[name].queries.window({ search: 'dnsx' }, NEWEST, 0, 60)
    }
    expect(written.manyLate.statements.filter(seeks)).toHaveLength(1)
    expect(written.manyLate.statements.some(counts)).toBe(false)
    expect(written.shuffled.statements.some(seeks)).toBe(false)
    expect(written.shuffled.statements.some(counts)).toBe(true)
  })
})

describe("a search's candidates read from the end of FTS5's doclists", () => {
  it('are exactly the rows holding the needle from the floor up, or none past the cap; and the n-th highest', async () => {
    const temp = await tempDir('cache-walk-rowids')
    const db = openEncryptedDatabase(path.join(temp.dir, 'cache.db'), randomBytes(32))
    try {
      migrate(db)
      const data = dataset()
      putDocuments(db, { c: 'transactions', docs: data })
      const search = textSearchOf('dnsx')!
      const holding = db
        .prepare("SELECT rid FROM tx WHERE instr(search, 'dnsx') > 0 ORDER BY rid DESC")
        .pluck()
        .all() as number[]
      for (const floor of [1, 2, 9_001, 9_002, 11_901, N, N + 1]) {
        const expected = holding.filter((r) => r >= floor)
        expect(candidatesFrom(db, search, floor, 10_000), String(floor)).toEqual(expected)
        expect(candidatesFrom(db, search, floor, expected.length), String(floor)).toEqual(expected)
        if (expected.length) expect(candidatesFrom(db, search, floor, expected.length - 1)).toBeNull()
      }
      for (const n of [1, 2, 30, holding.length]) expect(nthHighestCandidate(db, search, n)).toBe(holding[n - 1])
      expect(nthHighestCandidate(db, search, holding.length + 1)).toBeNull()
    } finally {
      db.close()
      await temp.cleanup()
    }
  })
})

describe('stretches', () => {
  const walk = { candidates: 1_000, rows: 1_000_000, need: 60, wanted: 60 }

  it('start where an even spread of the candidates would hold the window, and never below a few pages', () => {
    expect(stretchOf(walk, 1)).toBe(60_000)
    expect(stretchOf({ ...walk, candidates: 500_000 }, 1)).toBe(MIN_STRETCH)
  })

  it('grow to what the density seen says holds the window, at least half as long again; with none seen, give up or double', () => {
    // 30 of 60 rows in 60,000 entries: 150,000 entries with the margin.
    expect(nextBudget({ ...walk, sortAll: null }, 60_000, 30)).toBe(150_000)
    expect(nextBudget({ ...walk, sortAll: null }, 60_000, 59)).toBe(90_000)
    expect(nextBudget({ ...walk, sortAll: null }, 60_000, 0)).toBe(120_000)
    expect(nextBudget({ ...walk, sortAll: () => [] }, 60_000, 0)).toBe(Infinity)
  })

  it('floor only where the candidates outnumber half the stretch', () => {
    expect(floorPays(73_491, 13_000)).toBe(true)
    expect(floorPays(4_708, 19_000)).toBe(false)
  })

  function fake(found: (budget: number) => number, sortAll: boolean, first: number | null = null, ends = Infinity) {
    const log: string[] = []
    const w: Walk = {
      ...walk,
      firstStretch: first,
      endAt: (budget) => (log.push(`walk ${budget}`), budget < ends ? [budget] : null),
      floorOf: () => 1,
      select: (end) => (log.push(`select ${end ? String(end[0]) : 'all'}`), Array(end ? found(end[0] as number) : 60)),
      sortAll: sortAll ? () => (log.push('sort'), Array(60)) : null
    }
    return { rows: walkInStretches(w).length, log }
  }

  it('end the first stretch where the rowids say, and count the entries of every later one', () => {
    const log: string[] = []
    walkInStretches({
      ...walk,
      firstStretch: 5_000,
      endAt: (budget) => (log.push(`walk ${budget}`), [budget]),
      firstEndAt: (budget) => (log.push(`seek ${budget}`), [budget]),
      floorOf: () => 1,
      select: (end) => Array((end![0] as number) > 5_000 ? 60 : 10),
      sortAll: null
    })
    expect(log).toEqual(['seek 5000', 'walk 37500'])
  })

  it('start where the rowids say, sort at once when that is past the allowance, and walk on otherwise', () => {
    expect(fake(() => 60, true, 5_000).log).toEqual(['walk 5000', 'select 5000'])
    expect(fake(() => 60, true, 10).log).toEqual([`walk ${MIN_STRETCH}`, `select ${MIN_STRETCH}`])
    expect(fake(() => 60, true, stretchOf(walk, GIVE_UP_SLACK) + 1).log).toEqual(['sort'])
    // A walk that may not give up walks the rest of the list instead.
    expect(fake(() => 60, false, stretchOf(walk, LONGEST_SLACK) + 1).log).toEqual(['select all'])
  })

  it('sort the candidates once no stretch within the allowance would hold the window, and walk on otherwise', () => {
    expect(fake(() => 1, true).log).toEqual(['walk 60000', 'select 60000', 'sort'])
    const dense = fake(() => 0, false).log
    // Doubling from 60,000 entries up to 64 times that.
    expect(dense.filter((l) => l.startsWith('walk'))).toHaveLength(7)
    expect(dense.at(-1)).toBe('select all')
    // Half the window in the first stretch: the next one at the same density holds it.
    expect(fake((b) => (b > 60_000 ? 60 : 30), true).log).toEqual([
      'walk 60000',
      'select 60000',
      'walk 150000',
      'select 150000'
    ])
    // A list shorter than the stretch is walked to its end.
    expect(fake(() => 0, true, null, 1).log).toEqual(['walk 60000', 'select all'])
  })
})
