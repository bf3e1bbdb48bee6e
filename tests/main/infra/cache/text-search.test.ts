/* eslint-disable @typescript-eslint/no-explicit-any -- the oracle reads test fixtures loosely on purpose */
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CacheStore } from '../../../../src/main/infra/cache/store'
import { checksCandidates, leadOf, matchOf, trigramSpans } from '../../../../src/main/infra/cache/text-search'
import { TransactionQueries } from '../../../../src/main/infra/cache/transaction-queries'
import type { Transaction } from '../../../../src/shared/api'
import type { TransactionFilter, TransactionSort } from '../../../../src/shared/ipc/channels/data'
import { tempDir } from '../../helpers'
import { makeTransactions, rng } from './fixtures'

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
    if (!sql.includes('CROSS JOIN tx ON tx.rid = w.rid')) return statement
    // A window's statement is kept (sqlite.ts statementOf): each of its runs is explained.
    for (const run of ['get', 'all'] as const) {
      const original = statement[run].bind(statement)
      statement[run] = (...params: unknown[]) => {
        plans.push(
          prepare(`EXPLAIN QUERY PLAN ${sql}`)
            .all(...params)
            .map((r: any) => r.detail as string)
        )
        return original(...params)
      }
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
    queries.window({ search: 'bob' }, { field: 'updatedAt', direction: 'desc' }, 0, 100)
    queries.window({ search: 'bob' }, { field: 'amount', direction: 'asc' }, 0, 100)
    // Up to the end of a stretch (text-walk.ts): a range of the index, read in order from its start.
    expect(plans[0]!.join('\n')).toMatch(/SEARCH tx USING COVERING INDEX tx_by_updated \(\(updated_at,created_at,id\)>/)
    expect(plans[1]!.join('\n')).toMatch(/SEARCH tx USING COVERING INDEX tx_by_amount \(\(amount,created_at,id\)</)
    // Nothing is sorted: the candidates are met in the index's order, and the window's rows read in the order of its keys.
    for (const plan of plans) expect(plan.filter((step) => step.includes('TEMP B-TREE'))).toHaveLength(0)

    plans.length = 0
    queries.window({ search: '299' }, { field: 'amount', direction: 'desc' }, 0, 100)
    expect(plans[0]!.join('\n')).not.toMatch(/SCAN tx USING COVERING INDEX/)
    // The candidates are sorted, and only they: the window's rows come in the order of their keys.
    expect(plans[0]!.filter((step) => step.includes('TEMP B-TREE'))).toHaveLength(1)
  })

  it('sorts the candidates that cluster far from where the sort starts, without walking for them', async () => {
    // Ten ids of the oldest rows: walking newest first, an even spread would meet one within 300 entries, but their
    // rowids say the window is 3,000 entries down (text-walk.ts).
    const filter = { search: 'n:000002' }
    const sort = { field: 'createdAt', direction: 'desc' } as const
    const expected = oracle(filter, sort)
    expect(expected).toHaveLength(10)
    for (const [offset, limit] of [
      [0, 1],
      [1, 2],
      [7, 5]
    ] as const) {
      plans.length = 0
      const { docs, total } = queries.window(filter, sort, offset, limit)
      expect(total).toBe(10)
      expect((JSON.parse(docs) as Transaction[]).map((t) => t.id)).toEqual(expected.slice(offset, offset + limit))
      if (offset === 0) {
        // The candidates sorted at once: the one statement reads no sort index in order, only each candidate's keys
        // from the narrow index by rowid (schema.ts KEYS_BY_ROWID), not from its row.
        expect(plans).toHaveLength(1)
        expect(plans[0]!.join('\n')).not.toMatch(/INDEX tx_by_(created|updated|amount|status)/)
        expect(plans[0]!.join('\n')).toMatch(/SEARCH tx USING COVERING INDEX tx_by_rid \(rid=\?\)/)
      }
    }
    expect((await store.queryTransactions(filter, sort, 0, 3)).rows.map((t) => t.id)).toEqual(expected.slice(0, 3))
  })

  it('refuses a needle the index cannot answer instead of scanning the table', async () => {
    await expect(store.queryTransactions({ search: 'bo' }, SORTS[0]!, 0, 10)).rejects.toThrow(/at least 3 characters/)
    await expect(store.countTransactions({ search: 'b' })).rejects.toThrow(/at least 3 characters/)
  })
})

describe('the FTS5 query of a needle', () => {
  it('leads with the runs of trigrams that are not dense, rarest first, and ends with the whole needle', () => {
    // Trigrams of 'n:0002991': 'n:0' ':00' '000' '002' '029' '299' '991'.
    expect(matchOf('n:0002991', [900, 900, 700, 3, 1, 1, 2])).toBe('"002991" AND "n:0002991"')
    expect(matchOf('ab000cd', [1, 2, 500, 600, 3])).toBe('"ab00" AND "0cd" AND "ab000cd"')
    expect(matchOf('say "hi" there', [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 90])).toBe(
      '"say ""hi"" ther" AND "say ""hi"" there"'
    )
  })

  it("has a lead only where some trigram is dense, and checks the lead's candidates only when they are few", () => {
    expect(leadOf('n:0002991', [900, 900, 700, 3, 1, 1, 2])).toBe('"002991"')
    expect(leadOf('supplier', [110, 109, 109, 110, 109, 110])).toBeNull()
    expect(leadOf('pay', [5000])).toBeNull()
    // The newest id's last 8 characters at a million rows: '000' spans 5,891 pages, its lead has 6 candidates.
    expect(checksCandidates(6, [5891, 57, 5, 4, 3, 1])).toBe(true)
    // A dense trigram of 57 pages costs less than reading 40 rows.
    expect(checksCandidates(40, [57, 5, 3])).toBe(false)
    expect(checksCandidates(1, [3, 1])).toBe(false)
  })

  it('is the needle as one phrase when no trigram is dense, or there is only one', () => {
    expect(matchOf('supplier', [110, 109, 109, 110, 109, 110])).toBe('"supplier"')
    expect(matchOf('abcd', [0, 3])).toBe('"abcd"')
    expect(matchOf('pay', [5000])).toBe('"pay"')
  })

  it('finds exactly the rows holding the needle whatever the spans say, and sees a dense trigram in the index', async () => {
    const temp = await tempDir('cache-text-plan')
    const own = (await CacheStore.open(path.join(temp.dir, 'cache.db'), randomBytes(32))).store
    try {
      await own.put('transactions', makeTransactions(8000, 7))
      const db = (own as any).db
      // One segment, as after the merge that follows a long first sync: 'n:0' is in every id, '991' in a few.
      db.exec(`INSERT INTO tx_search (tx_search) VALUES ('optimize')`)
      const spans = trigramSpans(db, 'n:0002991')
      expect(spans[0]!).toBeGreaterThan(4 * Math.max(1, spans.at(-1)!))
      expect(matchOf('n:0002991', spans)).toMatch(/^"[^"]*" AND .*"n:0002991"$/)
      expect(matchOf('n:0002991', spans).split(' AND ')[0]).not.toContain('n:0')

      const texts = db.prepare('SELECT search FROM tx').pluck().all() as string[]
      const count = (match: string) =>
        db.prepare('SELECT count(*) FROM tx_search WHERE tx_search MATCH ?').pluck().get(match) as number
      const random = rng(11)
      for (let i = 0; i < 60; i++) {
        const text = texts[Math.floor(random() * texts.length)]!
        const length = 3 + Math.floor(random() * 10)
        const at = Math.floor(random() * Math.max(1, text.length - length))
        const needle = text.slice(at, at + length)
        // Any estimate at all: each trigram dense or not at random.
        const guessed = Array.from({ length: needle.length - 2 }, () => (random() < 0.4 ? 1000 : 1))
        const expected = texts.filter((t) => t.includes(needle)).length
        expect(count(matchOf(needle, guessed)), JSON.stringify([needle, guessed])).toBe(expected)
        expect(count(matchOf(needle, trigramSpans(db, needle))), needle).toBe(expected)
      }
      for (const search of ['n:0002991', 'n:0007', 'invoice 71', 'customer:4']) {
        const expected = texts.filter((t) => t.includes(search)).length
        expect((await own.queryTransactions({ search }, SORTS[1]!, 0, 50)).total, search).toBe(expected)
      }
    } finally {
      await own.close()
      await temp.cleanup()
    }
  })

  it('checks the few rows holding a rare part of the needle for the whole of it, and finds no row that holds only the part', async () => {
    const temp = await tempDir('cache-text-check')
    const own = (await CacheStore.open(path.join(temp.dir, 'cache.db'), randomBytes(32))).store
    try {
      // 'n:0' is in every id and, many times over, in every description (so its doclist spans many pages, as '000'
      // does at a million rows); ':0zq7k' is in six descriptions, three of them after 'n' (the needle) and three not.
      const rows = makeTransactions(8000, 9).map((t) => ({ ...t, description: 'n:0 '.repeat(30) }))
      for (const [i, text] of [
        'pay n:0zq7k',
        'n:0zq7k refund',
        'x n:0zq7k y',
        'pay x:0zq7k',
        'm:0zq7k',
        ':0zq7k'
      ].entries())
        (rows[i * 1000 + 17] as { description?: string }).description = text
      await own.put('transactions', rows)
      const db = (own as any).db
      db.exec(`INSERT INTO tx_search (tx_search) VALUES ('optimize')`)
      expect(leadOf('n:0zq7k', trigramSpans(db, 'n:0zq7k'))).toBe('":0zq7k"')
      expect(checksCandidates(6, trigramSpans(db, 'n:0zq7k'))).toBe(true)
      /** Every statement run, with its parameters. */
      const ran: [string, unknown[]][] = []
      const queries = new TransactionQueries(db)
      const prepare = db.prepare.bind(db)
      db.prepare = (sql: string) => {
        const statement = prepare(sql)
        for (const run of ['get', 'all'] as const) {
          const original = statement[run].bind(statement)
          statement[run] = (...params: unknown[]) => (ran.push([sql, params]), original(...params))
        }
        return statement
      }
      try {
        for (const sort of SORTS) {
          const { docs, total } = queries.window({ search: 'N:0zq7K' }, sort, 0, 10)
          const ids = (JSON.parse(docs) as Transaction[]).map((t) => t.id)
          expect(total).toBe(3)
          expect(ids.sort()).toEqual(['Transaction:0000017', 'Transaction:0001017', 'Transaction:0002017'])
        }
        const status = ['COMPLETED', 'PENDING', 'FAILED']
        expect(queries.count({ search: 'n:0zq7k', status })).toBe(
          [0, 1, 2].filter((i) => status.includes(String(rows[i * 1000 + 17]!.status))).length
        )
      } finally {
        db.prepare = prepare
      }
      // The rows were found by their own text, not by the doclist of 'n:0' (the whole phrase never reached FTS5).
      expect(ran.some(([sql]) => sql.includes('instr(tx.search'))).toBe(true)
      expect(ran.flatMap(([, params]) => params)).not.toContain('"n:0zq7k"')
      expect(ran.flatMap(([, params]) => params).some((p) => typeof p === 'string' && p.includes('"n:0zq7k"'))).toBe(
        false
      )
    } finally {
      await own.close()
      await temp.cleanup()
    }
  })
})
