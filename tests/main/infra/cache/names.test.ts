import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SCHEMA_VERSION } from '../../../../src/main/infra/cache/schema'
import { openEncryptedDatabase } from '../../../../src/main/infra/cache/sqlite'
import { CacheStore } from '../../../../src/main/infra/cache/store'
import { putDocuments } from '../../../../src/main/infra/cache/writes'
import type { Transaction } from '../../../../src/shared/api'
import type { TransactionFilter, TransactionSort } from '../../../../src/shared/ipc/channels/data'
import { transactionSearchText } from '../../../../src/shared/transaction-search'
import { tempDir } from '../../helpers'
import { cacheOfSchema, makeTransactions } from './fixtures'

let dir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir, cleanup } = await tempDir('names')))
afterEach(() => cleanup())
const key = randomBytes(32)
// The store starts its reader and writer threads (through tsx, from source): seconds beside other suites on two cores.
vi.setConfig({ testTimeout: 120_000 })

const usd = { amount: 100, currency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 } }
/** Customer:0..49 as the fixtures' transactions name them; three are Janes, one of them only by surname. */
const NAMES: Record<string, string> = {
  'Customer:3': 'Jane Smith',
  'Customer:17': 'Mary-Jane Okafor',
  'Customer:28': 'Priya Janeway'
}
const customers = Array.from({ length: 50 }, (_, i) => ({
  id: `Customer:${i}`,
  platformCustomerId: `pc-Customer:${i}`,
  customerType: 'INDIVIDUAL',
  umaAddress: `$c${i}@uma.money`,
  ...(i % 10 === 9 ? {} : { fullName: NAMES[`Customer:${i}`] ?? `Person ${i}` })
}))
const internalAccounts = [
  { id: 'InternalAccount:0', balance: usd },
  { id: 'InternalAccount:1', balance: usd, customerId: 'Customer:3' }
]
const externalAccounts = [
  {
    id: 'ExternalAccount:0',
    customerId: 'Customer:3',
    currency: 'USD',
    accountInfo: {
      accountType: 'US_ACCOUNT',
      accountNumber: '000123453210',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Priya Raman' }
    }
  },
  { id: 'ExternalAccount:1', customerId: 'Customer:3', currency: 'BTC', accountInfo: { accountType: 'SPARK_WALLET' } }
]

async function filled(transactions: Transaction[]): Promise<CacheStore> {
  const { store } = await CacheStore.open(path.join(dir, 'c.db'), key)
  await store.put('customers', customers)
  await store.put('internalAccounts', internalAccounts)
  await store.put('externalAccounts', externalAccounts)
  await store.put('transactions', transactions)
  return store
}

const nameOf = (id: string) => customers.find((c) => c.id === id)?.fullName ?? `pc-${id}`
/** What a search should find, decided the slow way: the row's own text, or its customer's name. */
const expected = (all: Transaction[], needle: string, keep: (t: Transaction) => boolean = () => true) =>
  all.filter(
    (t) =>
      keep(t) &&
      (transactionSearchText(t).includes(needle) ||
        nameOf((t as { customerId: string }).customerId)
          .toLowerCase()
          .includes(needle))
  )

describe('names in the cache', () => {
  it('gives a window and an export page the names of the customers and accounts its rows name', async () => {
    const all = makeTransactions(200)
    const store = await filled(all)
    const sort: TransactionSort = { field: 'createdAt', direction: 'asc' }
    const { rows, names } = await store.queryTransactions({ customerId: 'Customer:3' }, sort, 0, 100)
    expect(rows.length).toBeGreaterThan(0)
    expect(names['Customer:3']).toBe('Jane Smith')
    expect(Object.keys(names).filter((id) => id.startsWith('Customer:'))).toEqual(['Customer:3'])
    const outgoing = await store.queryTransactions({ type: 'OUTGOING' }, sort, 0, 100)
    expect(outgoing.names['InternalAccount:0']).toBe('Platform · USD')
    expect(outgoing.names['InternalAccount:1']).toBe('Jane Smith · USD')
    const toPriya = await store.queryTransactions({ receiverAccountId: 'ExternalAccount:0' }, sort, 0, 100)
    expect(toPriya.names['ExternalAccount:0']).toBe('Priya Raman · US bank …3210')
    expect(store.namesOf(['ExternalAccount:1', 'Customer:9'])).toEqual({
      // A wallet names no beneficiary: its holder is the customer it belongs to.
      'ExternalAccount:1': 'Jane Smith · Spark',
      // A customer without a full name goes by the platform's id for them.
      'Customer:9': 'pc-Customer:9'
    })
    const page = await store.transactionPage({}, sort, null, 50)
    expect(page.names[(page.rows[0] as { customerId: string }).customerId]).toBeTruthy()
    expect(store.namesOf(['Customer:17', 'ExternalAccount:404', null])).toEqual({ 'Customer:17': 'Mary-Jane Okafor' })
    await store.close()
  })

  it('names each window’s rows as their customer and accounts are written after them, renamed and removed', async () => {
    const all = makeTransactions(300)
    const { store } = await CacheStore.open(path.join(dir, 'c.db'), key)
    // The rows first, as a sync may write them: their names come when the customer and accounts do.
    await store.put('transactions', all)
    const sort: TransactionSort = { field: 'createdAt', direction: 'desc' }
    const mine = { accountId: 'InternalAccount:1' }
    expect((await store.queryTransactions(mine, sort, 0, 100)).names).toEqual({})
    await store.put('customers', customers)
    await store.put('internalAccounts', internalAccounts)
    const named = await store.queryTransactions(mine, sort, 0, 100)
    expect(named.rows.length).toBeGreaterThan(0)
    expect(named.names).toMatchObject({ 'InternalAccount:1': 'Jane Smith · USD' })
    const janes = await store.queryTransactions({ customerId: 'Customer:3' }, sort, 0, 100)
    expect(janes.names['Customer:3']).toBe('Jane Smith')
    // A rename relabels the customer's rows and the rows of the accounts they hold.
    await store.put('customers', [{ ...customers[3]!, fullName: 'Jane Doe' }])
    expect((await store.queryTransactions({ customerId: 'Customer:3' }, sort, 0, 100)).names['Customer:3']).toBe(
      'Jane Doe'
    )
    expect((await store.queryTransactions(mine, sort, 0, 100)).names['InternalAccount:1']).toBe('Jane Doe · USD')
    // An account the service removed is shown by its id again.
    await store.put('internalAccounts', [], { remove: ['InternalAccount:1'] })
    expect((await store.queryTransactions(mine, sort, 0, 100)).names['InternalAccount:1']).toBeUndefined()
    const page = await store.transactionPage({ customerId: 'Customer:3' }, sort, null, 50)
    expect(page.names['Customer:3']).toBe('Jane Doe')
    await store.close()
  })

  it('upgrades a cache whose rows kept names (schema 9, filled or not) or had none (8): named at once, nothing to fill', async () => {
    const all = makeTransactions(300)
    const sort: TransactionSort = { field: 'createdAt', direction: 'asc' }
    const want = {
      'Customer:3': 'Jane Smith',
      'InternalAccount:1': 'Jane Smith · USD',
      'ExternalAccount:0': 'Priya Raman · US bank …3210'
    }
    for (const [version, pending] of [
      [8, false],
      [9, false],
      [9, true]
    ] as const) {
      const file = path.join(dir, `old-${version}-${pending}.db`)
      await cacheOfSchema(file, key, version, all)
      const old = openEncryptedDatabase(file, key)
      putDocuments(old, { c: 'customers', docs: customers })
      putDocuments(old, { c: 'internalAccounts', docs: internalAccounts })
      putDocuments(old, { c: 'externalAccounts', docs: externalAccounts })
      // Upgraded to 9 from 8 and closed before the writer thread filled the rows' names.
      if (pending) old.prepare(`INSERT INTO meta (k, v) VALUES ('tx.namesPending', 'true')`).run()
      old.close()
      const { store } = await CacheStore.open(file, key)
      const check = openEncryptedDatabase(file, key)
      try {
        expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION)
        // No trigger writes labels onto the rows any more, and no fill is pending.
        expect(
          check
            .prepare(`SELECT count(*) FROM sqlite_schema WHERE name LIKE 'names_%' AND type = 'trigger'`)
            .pluck()
            .get()
        ).toBe(0)
        expect(check.prepare(`SELECT count(*) FROM meta WHERE k = 'tx.namesPending'`).pluck().get()).toBe(0)
      } finally {
        check.close()
      }
      const windows = await Promise.all(
        [
          { customerId: 'Customer:3' },
          { accountId: 'InternalAccount:1' },
          { receiverAccountId: 'ExternalAccount:0' }
        ].map((filter) => store.queryTransactions(filter, sort, 0, 300))
      )
      expect(Object.assign({}, ...windows.map((w) => w.names)), String(version)).toMatchObject(want)
      // A rename is shown at once, whatever the rows kept before the upgrade.
      await store.put('customers', [{ ...customers[3]!, fullName: 'Jane Doe' }])
      const renamed = await store.queryTransactions({ customerId: 'Customer:3' }, sort, 0, 300)
      expect(renamed.names['Customer:3']).toBe('Jane Doe')
      await store.close()
    }
  })

  it('finds a customer’s transactions by any part of their name, alone and with other filters, in every order', async () => {
    const all = makeTransactions(3_000)
    const store = await filled(all)
    const cases: [TransactionFilter, TransactionSort][] = [
      [{ search: 'jane' }, { field: 'createdAt', direction: 'desc' }],
      [{ search: 'JANE' }, { field: 'createdAt', direction: 'asc' }],
      [
        { search: 'jane', status: ['COMPLETED', 'FAILED'] },
        { field: 'amount', direction: 'desc' }
      ],
      [{ search: 'janeway' }, { field: 'updatedAt', direction: 'desc' }],
      // A needle both in names and in the rows' own text (descriptions say "for Bob"; "Person 1" names customers).
      [{ search: 'person 1' }, { field: 'status', direction: 'asc' }],
      [{ search: 'invoice 1' }, { field: 'createdAt', direction: 'desc' }],
      [
        { search: 'jane', type: 'INCOMING', currency: 'USD' },
        { field: 'createdAt', direction: 'desc' }
      ]
    ]
    for (const [filter, sort] of cases) {
      const needle = filter.search!.toLowerCase()
      const want = expected(
        all,
        needle,
        (t) =>
          (!filter.status || filter.status.includes(t.status as string)) &&
          (!filter.type || t.type === filter.type) &&
          (!filter.currency ||
            ((t as { receivedAmount?: { currency: { code: string } } }).receivedAmount ?? { currency: { code: '' } })
              .currency.code === filter.currency)
      )
      const ids = new Set<string>()
      let total = -1
      for (let offset = 0; offset < Math.max(1, want.length); offset += 100) {
        const window = await store.queryTransactions(filter, sort, offset, 100)
        total = window.total
        for (const t of window.rows) ids.add(t.id)
      }
      expect({ filter, total }).toEqual({ filter, total: want.length })
      expect([...ids].sort()).toEqual(want.map((t) => t.id).sort())
      expect(await store.countTransactions(filter)).toBe(want.length)
    }
    expect(expected(all, 'jane').length).toBeGreaterThan(100)
    await store.close()
  })

  it('follows a rename: the customer’s name, their accounts’ labels and what a search finds', async () => {
    const all = makeTransactions(500)
    const store = await filled(all)
    const sort: TransactionSort = { field: 'createdAt', direction: 'desc' }
    expect((await store.queryTransactions({ search: 'jane smith' }, sort, 0, 100)).total).toBeGreaterThan(0)
    await store.put('customers', [{ ...customers[3]!, fullName: 'Jane Doe' }])
    expect((await store.queryTransactions({ search: 'jane smith' }, sort, 0, 100)).total).toBe(0)
    const renamed = await store.queryTransactions({ search: 'jane doe' }, sort, 0, 100)
    expect(renamed.total).toBe(all.filter((t) => (t as { customerId: string }).customerId === 'Customer:3').length)
    expect(store.namesOf(['Customer:3', 'InternalAccount:1', 'ExternalAccount:1'])).toEqual({
      'Customer:3': 'Jane Doe',
      'InternalAccount:1': 'Jane Doe · USD',
      'ExternalAccount:1': 'Jane Doe · Spark'
    })
    // A customer the service deleted is no longer named.
    await store.put('customers', [], { remove: ['Customer:3'] })
    expect(store.namesOf(['Customer:3'])).toEqual({})
    await store.close()
  })

  it('labels what an older cache holds as it upgrades, without touching its transactions', async () => {
    const file = path.join(dir, 'old.db')
    const all = makeTransactions(300)
    await cacheOfSchema(file, key, 6, all)
    const db = openEncryptedDatabase(file, key)
    const insert = db.prepare('INSERT INTO docs (c, id, fp, doc) VALUES (?, ?, ?, ?)')
    for (const [c, docs] of [
      ['customers', customers],
      ['internalAccounts', internalAccounts],
      ['externalAccounts', externalAccounts]
    ] as const)
      for (const d of docs) insert.run(c, d.id, JSON.stringify(d), JSON.stringify(d))
    db.close()

    const { store, info } = await CacheStore.open(file, key)
    expect(info.outcome).toBe('loaded')
    const check = openEncryptedDatabase(file, key)
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION)
    check.close()
    expect(store.count('transactions')).toBe(300)
    const janes = await store.queryTransactions({ search: 'jane' }, { field: 'createdAt', direction: 'desc' }, 0, 100)
    expect(janes.total).toBe(expected(all, 'jane').length)
    expect(janes.names['Customer:3']).toBe('Jane Smith')
    expect(store.namesOf(['InternalAccount:1'])).toEqual({ 'InternalAccount:1': 'Jane Smith · USD' })
    await store.close()
  })
})
