import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CacheStore } from '../../../../src/main/infra/cache/store'
import { withRowNames } from '../../../../src/renderer/src/data/row-names'
import { narrowTransactions } from '../../../../src/renderer/src/views/transactions/search-narrowing'
import type { Transaction } from '../../../../src/shared/api'
import type { TransactionFilter, TransactionSort } from '../../../../src/shared/ipc/channels/data'
import { makeTransactions } from '../../../main/infra/cache/fixtures'
import { tempDir } from '../../../main/helpers'

// The renderer shows a narrowed answer before main's arrives: it must be main's answer, row for row, in main's order.
// So the narrowing is checked against the real cache store answering both searches.

let store: CacheStore
let cleanup: () => Promise<void>
const sort: TransactionSort = { field: 'amount', direction: 'desc' }

beforeAll(async () => {
  const temp = await tempDir('narrowing')
  cleanup = temp.cleanup
  store = (await CacheStore.open(path.join(temp.dir, 'cache.db'), randomBytes(32))).store
  const data = makeTransactions(3000, 7)
  // Text the case folding of either side could read differently: upper case, accents, a dotted capital I.
  Object.assign(data[5]!, { description: 'Café İNVOICE for BOB' })
  Object.assign(data[6]!, { description: 'Café olé' })
  await store.put('transactions', data)
  // Customers found by name: main finds their transactions through the names table, the renderer by the row's names.
  await store.put('customers', [
    {
      id: 'Customer:3',
      platformCustomerId: 'pc-3',
      customerType: 'INDIVIDUAL',
      umaAddress: '$j@x',
      fullName: 'Jane Smith'
    },
    {
      id: 'Customer:4',
      platformCustomerId: 'pc-4',
      customerType: 'INDIVIDUAL',
      umaAddress: '$t@x',
      fullName: 'Janet Jones'
    }
  ])
})
afterAll(async () => {
  await store.close()
  await cleanup()
})

/** Main's answer as the renderer holds it: each row with the names its window came with. */
const main = async (filter: TransactionFilter) =>
  withRowNames({ ok: true, value: await store.queryTransactions(filter, sort, 0, 500) }).value

describe('narrowing a whole answer to a longer search', () => {
  it.each([
    ['a longer needle', { search: '299' }, { search: '2990' }],
    ['a needle holding the old one in its middle', { search: 'voice 1' }, { search: 'nvoice 12' }],
    ['case and spaces as typed', { search: 'INVOICE 1' }, { search: '  invoice 12 ' }],
    [
      'with another filter kept',
      { search: 'Account:1', status: ['FAILED', 'PENDING'] },
      { search: 'externalaccount:12' }
    ],
    ['accents and a dotted capital', { search: 'café' }, { search: 'café i̇nv' }],
    ['a customer’s name', { search: 'jan' }, { search: 'jane s' }],
    ['a longer name', { search: 'JANE' }, { search: 'janet' }]
  ])('%s: the same rows as main, in main’s order', async (_, wider, narrower) => {
    const whole = await main(wider as TransactionFilter)
    expect(whole.rows.length).toBe(whole.total) // a whole answer
    const to = { ...wider, ...narrower } as TransactionFilter
    const narrowed = narrowTransactions({ filter: wider, sort }, { filter: to, sort }, whole.rows)
    const answer = await main(to)
    expect(answer.total).toBeGreaterThan(0)
    expect(answer.total).toBeLessThan(whole.total)
    expect(narrowed?.map((t) => t.id)).toEqual(answer.rows.map((t) => t.id))
  })

  const rows = [] as Transaction[]
  it.each([
    ['the same needle (nothing to narrow)', { search: 'bob' }, { search: ' BOB' }],
    ['from no search', {}, { search: 'bob1' }],
    ['when the needle does not hold the old one', { search: 'bob' }, { search: 'alice' }],
    ['when another filter changed', { search: 'bob', currency: 'USD' }, { search: 'bob1', currency: 'EUR' }]
  ])('refuses %s', (_, from, to) => {
    expect(narrowTransactions({ filter: from, sort }, { filter: to, sort }, rows)).toBeNull()
  })

  it('refuses another sort', () => {
    const other: TransactionSort = { field: 'createdAt', direction: 'desc' }
    expect(
      narrowTransactions({ filter: { search: 'bob' }, sort }, { filter: { search: 'bob1' }, sort: other }, rows)
    ).toBeNull()
  })
})
