import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3-multiple-ciphers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defaultNativeBinding } from '../../../src/sandbox/state/sqlite'
import { StoredTransaction } from '../../../src/sandbox/state/stored-transaction'
import type { TransactionRec } from '../../../src/sandbox/state/model'
import { type Client, createCustomer, DEFER, fakeClock, platformFor, start } from '../util'

let dir: string
let file: string
const open: Client[] = []
// A stepped clock shared by every run of a test: a deferred payment (202) keeps waiting for approve/reject across restarts.
let clock: ReturnType<typeof fakeClock>
beforeEach(() => {
  clock = fakeClock()
  dir = mkdtempSync(join(tmpdir(), 'sandbox-tx-table-'))
  file = join(dir, 'state.db')
})
afterEach(async () => {
  for (const c of open.splice(0)) await c.sb.close()
  rmSync(dir, { recursive: true, force: true })
})

async function boot(): Promise<Client> {
  const c = await start({
    dataFile: file,
    tokenId: 'rows-token',
    clientSecret: 'rows-secret',
    now: clock.now,
    timeScale: 1
  })
  open.push(c)
  return c
}
async function stop(c: Client): Promise<void> {
  await c.sb.close()
  open.splice(open.indexOf(c), 1)
}

const transactionsOf = (c: Client): TransactionRec[] => [...c.sb.server.state.store.transactions.values()]
const readSoFar = (c: Client): string[] =>
  transactionsOf(c)
    .filter((r) => !(r instanceof StoredTransaction) || r.loaded)
    .map((r) => r.id)
const idsOf = (res: { body: { data: { id: string }[] } }) => res.body.data.map((t) => t.id).sort()

/**
 * Two customers, each paid twice, every payment's approval webhook answered 202 (it waits for approve/reject); Bob's
 * first payment rejected, so statuses differ and a filter has rows to leave out.
 */
async function history(c: Client) {
  const alice = await createCustomer(c, { fullName: 'Alice Rows' })
  const bob = await createCustomer(c, { fullName: 'Bob Rows' })
  const paid: Record<string, string[]> = { [alice.id]: [], [bob.id]: [] }
  const platform = await platformFor(c)
  for (const customer of [alice, bob, alice, bob])
    paid[customer.id]!.push((await platform.receive(customer.id, DEFER)).id)
  await platform.close()
  const rejected = await c.req('POST', `/transactions/${paid[bob.id]![0]}/reject`)
  expect(rejected.status, rejected.text).toBe(200)
  return { alice: alice.id as string, bob: bob.id as string, paid, rejected: rejected.body.status as string }
}

describe('transactions in the state file', () => {
  it('a restart reads no document until the service uses one; filters pick rows by their keys alone', async () => {
    const a = await boot()
    const { alice, paid, rejected } = await history(a)
    const before = await a.get(`/transactions/${paid[alice]![0]}`)
    const all = transactionsOf(a).length
    await stop(a)

    const b = await boot()
    expect(transactionsOf(b)).toHaveLength(all)
    expect(readSoFar(b)).toEqual([])
    // Alice's payments in Bob's status: the rows in that status are tested for her and left out, unread.
    expect(rejected).not.toBe(before.body.status)
    expect((await b.get(`/transactions?customerId=${alice}&status=${rejected}`)).body.data).toEqual([])
    expect(readSoFar(b)).toEqual([])
    // Alice's payments by customer, and by customer and type: only the rows answered are read.
    const byCustomer = await b.get(`/transactions?customerId=${alice}`)
    expect(idsOf(byCustomer)).toEqual([...paid[alice]!].sort())
    const incoming = await b.get(`/transactions?customerId=${alice}&type=INCOMING&status=${before.body.status}`)
    expect(idsOf(incoming)).toEqual([...paid[alice]!].sort())
    expect(readSoFar(b).sort()).toEqual([...paid[alice]!].sort())
    // Read in full when asked for, as it was before the restart.
    expect((await b.get(`/transactions/${paid[alice]![0]}`)).body).toEqual(before.body)
  })

  it('a change to a transaction read after a restart is saved, keys and all', async () => {
    const a = await boot()
    const { bob, paid, rejected } = await history(a)
    await stop(a)

    const b = await boot()
    const id = paid[bob]![1]!
    const answer = await b.req('POST', `/transactions/${id}/reject`)
    expect(answer.status, answer.text).toBe(200)
    const both = [paid[bob]![0]!, id].sort()
    expect(idsOf(await b.get(`/transactions?customerId=${bob}&status=${rejected}`))).toEqual(both)
    await stop(b)

    const c = await boot()
    expect(idsOf(await c.get(`/transactions?customerId=${bob}&status=${rejected}`))).toEqual(both)
    expect((await c.get(`/transactions/${id}`)).body.status).toBe(rejected)
  })

  it('a state file of schema 1 (no keys table) gets its keys from the documents once, and filters as before', async () => {
    const a = await boot()
    const { alice, bob, paid } = await history(a)
    await stop(a)
    const db = new Database(file, { nativeBinding: defaultNativeBinding() })
    const keysAsWritten = db.prepare('SELECT * FROM transaction_keys ORDER BY id').all()
    db.exec("DROP TABLE transaction_keys; UPDATE meta SET value = '1' WHERE key = 'schema'")
    db.close()

    const b = await boot()
    expect(readSoFar(b)).toEqual([])
    expect(idsOf(await b.get(`/transactions?customerId=${bob}`))).toEqual([...paid[bob]!].sort())
    expect(idsOf(await b.get(`/transactions?customerId=${alice}&type=INCOMING`))).toEqual([...paid[alice]!].sort())
    await stop(b)
    const check = new Database(file, { readonly: true, nativeBinding: defaultNativeBinding() })
    const schema = check.prepare("SELECT value FROM meta WHERE key = 'schema'").pluck().get()
    const keysMigrated = check.prepare('SELECT * FROM transaction_keys ORDER BY id').all()
    check.close()
    expect(schema).toBe('2')
    // Every key, the ones the document keeps in `meta` (sender, receiver) as well as in `data`, as the writer put it.
    expect(keysMigrated).toEqual(keysAsWritten)
    expect(keysAsWritten).toHaveLength(Object.values(paid).flat().length)
    expect(keysAsWritten.some((k) => (k as { receiver: string | null }).receiver !== null)).toBe(true)
  })
})
