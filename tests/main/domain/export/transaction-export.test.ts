import { randomBytes } from 'node:crypto'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { parse } from 'csv-parse/sync'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CacheStore } from '../../../../src/main/infra/cache/store'
import { exportTransactionsCsv } from '../../../../src/main/domain/export/transaction-export'
import { tempDir } from '../../helpers'
import { makeTransactions } from '../../infra/cache/fixtures'

let dir: string
let cleanup: () => Promise<void>
let store: CacheStore
beforeEach(async () => {
  ;({ dir, cleanup } = await tempDir('export'))
  store = (await CacheStore.open(path.join(dir, 'cache.db'), randomBytes(32))).store
  await store.put('transactions', makeTransactions(1234, 5))
})
afterEach(async () => {
  await store.close()
  await cleanup()
})

describe('exportTransactionsCsv', () => {
  it('writes the filtered set in the sort order, page by page, reporting progress', async () => {
    const file = path.join(dir, 'out.csv')
    const filter = { type: 'INCOMING' as const, currency: 'USD' }
    const sort = { field: 'amount' as const, direction: 'asc' as const }
    const progress: number[] = []
    const result = await exportTransactionsCsv({
      source: store,
      filter,
      sort,
      file,
      pageRows: 50,
      onProgress: (p) => progress.push(p.written)
    })
    const rows = parse(await readFile(file), { columns: true, bom: true }) as Record<string, string>[]
    const expected = (await store.queryTransactions(filter, sort, 0, 500)).rows.map((t) => t.id)
    expect(rows.map((r) => r['id'])).toEqual(expected)
    expect(result).toMatchObject({ written: expected.length, total: expected.length })
    expect(progress.length).toBeGreaterThan(3)
    expect(progress.at(-1)).toBe(expected.length)
    expect(await readdir(dir)).not.toContain('out.csv.partial')
  })

  it('names each row’s customer in customer_name, from the cache page by page, searched by name too', async () => {
    await store.put('customers', [
      {
        id: 'Customer:7',
        platformCustomerId: 'pc-7',
        customerType: 'INDIVIDUAL',
        umaAddress: '$p@x',
        fullName: 'Priya Raman'
      }
    ])
    const file = path.join(dir, 'priya.csv')
    const filter = { search: 'priya' }
    await exportTransactionsCsv({
      source: store,
      filter,
      sort: { field: 'createdAt', direction: 'asc' },
      file,
      pageRows: 7
    })
    const rows = parse(await readFile(file), { columns: true, bom: true }) as Record<string, string>[]
    expect(rows.length).toBe(makeTransactions(1234, 5).filter((t) => t.customerId === 'Customer:7').length)
    expect(rows.length).toBeGreaterThan(7)
    expect(new Set(rows.map((r) => `${r['customer_id']} ${r['customer_name']}`))).toEqual(
      new Set(['Customer:7 Priya Raman'])
    )
  })

  it('cancelled halfway: no file, no partial file, and an existing file at the destination is untouched', async () => {
    const file = path.join(dir, 'out.csv')
    await writeFile(file, 'earlier export')
    const controller = new AbortController()
    const run = exportTransactionsCsv({
      source: store,
      filter: {},
      sort: { field: 'createdAt', direction: 'desc' },
      file,
      pageRows: 100,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.written >= 300) controller.abort()
      }
    })
    await expect(run).rejects.toThrow()
    expect(await readFile(file, 'utf8')).toBe('earlier export')
    expect((await readdir(dir)).filter((f) => f.includes('partial'))).toEqual([])
  })
})
