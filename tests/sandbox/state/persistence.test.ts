import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3-multiple-ciphers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defaultNativeBinding } from '../../../src/sandbox/state/sqlite'
import {
  type Client,
  createCustomer,
  DEFER,
  expectLedgerConsistent,
  fakeClock,
  internalAccountOf,
  KNOWN_RECEIVER,
  platformFor,
  receiveUsd,
  start,
  waitFor
} from '../util'

let dir: string
let file: string
const open: Client[] = []
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-persist-'))
  file = join(dir, 'nested', 'state.db')
})
afterEach(async () => {
  for (const c of open.splice(0)) await c.sb.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Reads the state database as another process would (while the sandbox may still have it open). */
function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(file, { readonly: true, nativeBinding: defaultNativeBinding() })
  try {
    return db.prepare(sql).all(...params) as T[]
  } finally {
    db.close()
  }
}
const countOf = (kind: string): number =>
  query<{ n: number }>('SELECT count(*) AS n FROM docs WHERE kind = ?', kind)[0]?.n ?? -1

const creds = { tokenId: 'persist-token', clientSecret: 'persist-secret' }
async function boot(extra: Record<string, unknown> = {}): Promise<Client> {
  const c = await start({ dataFile: file, ...creds, ...extra })
  open.push(c)
  return c
}
/** A sandbox on a stepped clock holding one payment its platform deferred (202): it waits until approved or timed out. */
async function deferredPayment() {
  const clock = fakeClock()
  const a = await boot({ now: clock.now, timeScale: 1 })
  const platform = await platformFor(a)
  const cust = await createCustomer(a, KNOWN_RECEIVER)
  const tx = await platform.receive(cust.id, DEFER)
  return { clock, a, platform, cust, tx }
}

async function stop(c: Client): Promise<void> {
  await c.sb.close()
  open.splice(open.indexOf(c), 1)
}

describe('state file', () => {
  it('is created at first start and survives a restart (customers, balances, transactions, ledger)', async () => {
    const a = await boot()
    expect(existsSync(file)).toBe(true)
    const cust = await createCustomer(a, { fullName: 'Persisted Person' })
    const internal = await internalAccountOf(a, cust.id)
    await a.post(`/sandbox/internal-accounts/${internal}/fund`, { amount: 4_242 })
    const tx = (await receiveUsd(a, cust.id)).body
    await stop(a)

    const b = await boot()
    expect((await b.get(`/customers/${cust.id}`)).body.fullName).toBe('Persisted Person')
    const acc = await b.get(`/customers/internal-accounts?customerId=${cust.id}`)
    expect(acc.body.data[0].balance.amount).toBe(4_242)
    expect((await b.get(`/transactions/${tx.id}`)).body.id).toBe(tx.id)
    expectLedgerConsistent(b)
    // new ids keep sorting after old ones
    const later = await createCustomer(b)
    const list = await b.get('/customers?limit=1')
    expect(list.body.data[0].id).toBe(later.id)
    expect(later.id > cust.id).toBe(true)
  })

  it('keeps pending time-based transitions across a restart (the 5 s after a 202)', async () => {
    const { clock, a, platform, tx } = await deferredPayment()
    await stop(a)
    await platform.close()
    clock.advance(5_000)
    const b = await boot({ now: clock.now, timeScale: 1 })
    expect((await b.get(`/transactions/${tx.id}`)).body).toMatchObject({
      status: 'FAILED',
      failureReason: 'PAYMENT_APPROVAL_TIMED_OUT'
    })
  })

  it('is written soon after a change without an explicit save (debounced), as a SQLite database', async () => {
    const a = await boot()
    const cust = await createCustomer(a, { fullName: 'Debounced' })
    await waitFor(
      async () => query<{ id: string }>("SELECT id FROM docs WHERE kind = 'customer'").map((r) => r.id),
      (ids) => ids.includes(cust.id),
      3000
    )
    for (let i = 0; i < 30; i++) await createCustomer(a)
    await a.sb.server.state.save()
    expect(query<{ value: string }>("SELECT value FROM meta WHERE key = 'format'")[0]?.value).toBe(
      'paydesk-sandbox-state'
    )
    expect(countOf('customer')).toBe(31)
  })

  it('a save writes only the records that changed, not the whole state', async () => {
    // A stepped clock: the payment stays deferred (202) until approved, however slow the machine.
    const { a, platform, cust, tx } = await deferredPayment()
    await platform.close()
    await a.sb.server.state.save()
    // Edit the stored copy of the customer behind the sandbox's back: a later save of an unrelated change must
    // leave that row alone, which a whole-state rewrite would not.
    const raw = new Database(file, { nativeBinding: defaultNativeBinding() })
    raw.prepare("UPDATE docs SET doc = json_set(doc, '$.data.fullName', 'Untouched') WHERE id = ?").run(cust.id)
    raw.close()
    expect((await a.post(`/transactions/${tx.id}/approve`, {})).status).toBe(200)
    await a.sb.server.state.save()
    const row = query<{ doc: string }>("SELECT doc FROM docs WHERE kind = 'customer' AND id = ?", cust.id)[0]
    expect(JSON.parse(row?.doc ?? '{}').data.fullName).toBe('Untouched')
    const saved = query<{ doc: string }>('SELECT doc FROM transactions WHERE id = ?', tx.id)[0]
    expect(JSON.parse(saved?.doc ?? '{}').data.status).not.toBe('PENDING')
  })

  it('imports a JSON state file of the previous format and keeps it beside the database', async () => {
    const a = await boot()
    const cust = await createCustomer(a, { fullName: 'From JSON' })
    await a.sb.server.state.save()
    const customers = query<{ doc: string }>("SELECT doc FROM docs WHERE kind = 'customer'").map((r) =>
      JSON.parse(r.doc)
    )
    const internalAccounts = query<{ doc: string }>("SELECT doc FROM docs WHERE kind = 'internalAccount'").map((r) =>
      JSON.parse(r.doc)
    )
    const meta = Object.fromEntries(
      query<{ key: string; value: string }>('SELECT key, value FROM meta').map((r) => [r.key, r.value])
    )
    await stop(a)
    rmSync(file)
    for (const side of ['-wal', '-shm']) rmSync(file + side, { force: true })
    const legacy = {
      format: 'paydesk-sandbox-state',
      version: 1,
      savedAt: meta.savedAt,
      seq: Number(meta.seq),
      platform: JSON.parse(meta.platform as string),
      customers,
      externalAccounts: [],
      internalAccounts,
      transactions: [],
      quotes: [],
      journal: [],
      idempotency: [],
      jobs: []
    }
    writeFileSync(file, JSON.stringify(legacy))
    const messages: string[] = []
    const b = await boot({ log: (m: string) => messages.push(m) })
    expect((await b.get(`/customers/${cust.id}`)).body.fullName).toBe('From JSON')
    expect(messages.join('\n')).toMatch(/imported the JSON state file/)
    expect(JSON.parse(readFileSync(`${file}.v1.json`, 'utf8')).customers).toHaveLength(1)
    expect(countOf('customer')).toBe(1)
  })

  it('a corrupt file is set aside as <file>.corrupt-<timestamp> with a clear message, never lost', async () => {
    const a = await boot()
    await stop(a)
    writeFileSync(file, '{"format":"paydesk-sandbox-state", truncated')
    const messages: string[] = []
    const b = await boot({ log: (m: string) => messages.push(m) })
    const aside = readdirSync(join(dir, 'nested')).filter((n) => /^state\.db\.corrupt-[^.]*$/.test(n))
    expect(aside).toHaveLength(1)
    expect(readFileSync(join(dir, 'nested', aside[0] as string), 'utf8')).toBe(
      '{"format":"paydesk-sandbox-state", truncated'
    )
    expect(messages.join('\n')).toContain(aside[0])
    expect(messages.join('\n')).toMatch(/could not be read/)
    expect(b.sb.server.state.corruptFileMovedTo).toContain('.corrupt-')
    // fresh state works and is saved again
    await createCustomer(b)
    await b.sb.server.state.save()
    expect(countOf('customer')).toBe(1)
  })

  it('a foreign binary file is set aside too', async () => {
    mkdirSync(join(dir, 'nested'), { recursive: true })
    writeFileSync(file, Buffer.from([0, 1, 2, 3, 255, 254]))
    const b = await boot({ log: () => undefined })
    expect(b.sb.server.state.corruptFileMovedTo).toContain('state.db.corrupt-')
  })

  it('valid JSON that is not sandbox state is also set aside', async () => {
    writeFileSync(join(dir, 'other.json'), JSON.stringify({ hello: 'world' }))
    file = join(dir, 'other.json')
    await boot({ log: () => undefined })
    expect(readdirSync(dir).some((n) => n.startsWith('other.json.corrupt-'))).toBe(true)
  })

  it('seeds only on the first start', async () => {
    const a = await boot({ seed: true })
    const count = (await a.get('/customers?limit=100&isIncludingDeleted=true')).body.totalCount
    expect(count).toBeGreaterThan(0)
    await createCustomer(a)
    await stop(a)
    const b = await boot({ seed: true })
    expect((await b.get('/customers?limit=100&isIncludingDeleted=true')).body.totalCount).toBe(count + 1)
  })

  it('memory mode writes nothing even when a file is named', async () => {
    const a = await start({ dataFile: file, memory: true })
    open.push(a)
    await createCustomer(a)
    await a.sb.server.state.save()
    await stop(a)
    expect(existsSync(file)).toBe(false)
  })
})
