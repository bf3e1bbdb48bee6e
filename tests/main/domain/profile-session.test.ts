import { randomUUID } from 'node:crypto'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SandboxServer } from '../../../src/sandbox/server'
import { ApiClient } from '../../../src/main/infra/api-client'
import { dataList, InternalAccount } from '../../../src/shared/api'
import { requireRealKeyring } from '../../support/keyring'
import {
  addProfile,
  backendAgainstSandbox,
  dataChangedFor,
  moneySetup,
  outgoing,
  sandboxApi,
  sandboxesPerTest,
  startBackend,
  startSandbox,
  waitFor
} from '../sandbox-env'

requireRealKeyring()

const sandbox = sandboxesPerTest()
const env = backendAgainstSandbox('session', { sandbox: false })

/** n incoming payments through the sandbox (they stay PENDING: see the approval window in `sandbox`). */
async function payments(server: SandboxServer, n: number, amount = 1_00) {
  const api = sandboxApi(server)
  const c = await api<{ id: string }>('POST', 'customers', {
    customerType: 'INDIVIDUAL',
    region: 'US',
    currencies: ['USD'],
    fullName: `Pat Doe ${randomUUID().slice(0, 4)}`
  })
  const ids: string[] = []
  for (let i = 0; i < n; i++) {
    const t = await api<{ id: string }>('POST', 'sandbox/uma/receive', {
      senderUmaAddress: '$success.usd@sandbox.uma.money',
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: amount + i,
      customerId: c.id
    })
    ids.push(t.id)
  }
  return { customerId: c.id, ids }
}

const dataChanged = (collection: string) => dataChangedFor(env.h, collection)

describe('data channels: cache first, then refresh', () => {
  it('answers from the cache with syncedAt, refreshes in the background and emits data.changed', async () => {
    const server = await sandbox()
    await addProfile(env.h, server)
    await payments(server, 1)
    const first = await env.h.call('customers.query', {})
    expect(first).toMatchObject({ rows: [], total: 0, syncedAt: null })
    await waitFor(() => dataChanged('customers').length > 0)
    const second = await env.h.call('customers.query', {})
    expect(second.total).toBe(1)
    expect(second.syncedAt).not.toBeNull()

    const internal = await env.h.call('internalAccounts.list', {})
    expect(internal.syncedAt).toBeNull()
    await waitFor(() => dataChanged('internalAccounts').length > 0)
    const internal2 = await env.h.call('internalAccounts.list', { scope: 'platform', currency: 'USD' })
    expect(internal2.rows).toHaveLength(1)
    expect(Number.isInteger(internal2.rows[0]!.balance.amount)).toBe(true)

    await env.h.call('sync.now', null)
    const page = await env.h.call('transactions.query', { filter: { type: 'INCOMING' }, limit: 10 })
    expect(page.total).toBe(1)
    expect(page.syncedAt).not.toBeNull()
    const one = await env.h.call('transactions.get', { id: page.rows[0]!.id })
    expect(one.transaction?.id).toBe(page.rows[0]!.id)

    expect((await env.h.call('discoveries.list', { country: 'PH' })).syncedAt).toBeNull()
    await waitFor(() => dataChanged('discoveries').length > 0)
    expect((await env.h.call('discoveries.list', { country: 'PH' })).rows.length).toBeGreaterThan(0)

    await moneySetup(server)
    await env.h.call('externalAccounts.query', {})
    await waitFor(() => dataChanged('externalAccounts').length > 0)
    expect((await env.h.call('externalAccounts.query', { scope: 'platform' })).total).toBe(1)
  })

  it('refreshes customers incrementally: new and changed ones arrive, deleted ones leave', async () => {
    const server = await sandbox()
    await addProfile(env.h, server)
    const api = sandboxApi(server)
    const a = await api<{ id: string }>('POST', 'customers', { customerType: 'INDIVIDUAL', fullName: 'Ann One' })
    const b = await api<{ id: string }>('POST', 'customers', { customerType: 'INDIVIDUAL', fullName: 'Bob Two' })
    await env.h.call('customers.query', {})
    await waitFor(() => dataChanged('customers').length === 1)
    expect((await env.h.call('customers.query', {})).total).toBe(2)
    await api('POST', 'customers', { customerType: 'INDIVIDUAL', fullName: 'Cy Three' })
    await api('PATCH', `customers/${a.id}`, { fullName: 'Ann Renamed' })
    await api('DELETE', `customers/${b.id}`)
    await new Promise((r) => setTimeout(r, 3_100)) // background refreshes are at most one per 3 s
    await env.h.call('customers.query', {})
    await waitFor(() => dataChanged('customers').length === 2)
    const after = await env.h.call('customers.query', { sort: { field: 'fullName', direction: 'asc' } })
    expect(after.rows.map((c) => c.fullName)).toEqual(['Ann Renamed', 'Cy Three'])
  })

  it('syncs incrementally: a poll with nothing new costs one request and writes nothing', async () => {
    const server = await sandbox()
    await addProfile(env.h, server)
    await payments(server, 250)
    await env.h.call('sync.now', null)
    expect((await env.h.call('transactions.query', { limit: 1 })).total).toBe(250)
    const cacheFile = path.join(
      env.dir,
      'profiles',
      (await env.h.call('profiles.list', null)).activeProfileId,
      'cache.db'
    )
    let requests = 0
    const api = sandboxApi(server)
    // Past the overlap window the engine re-reads (2 s, plus up to 1 s as the Date header is truncated to seconds).
    await new Promise((r) => setTimeout(r, 3_500))
    await env.h.call('sync.now', null)
    const sizeBefore = (await readFile(cacheFile)).length
    const list = server.faults.add({ route: 'GET /transactions', kind: 'latency', latencyMs: 0 })
    const all = server.faults.add({ route: '*', kind: 'latency', latencyMs: 0 })
    await env.h.call('sync.now', null)
    const hits = (id: number) => server.faults.list().find((r) => r.id === id)!.hits
    expect(hits(list.id)).toBe(1)
    requests = hits(all.id)
    // One list request plus at most a handful of in-flight checks (approval queue), never a page per 100 history rows.
    expect(requests).toBeLessThanOrEqual(6)
    const sizeAfterIdle = (await readFile(cacheFile)).length
    expect(sizeAfterIdle - sizeBefore).toBeLessThan(200) // the syncedAt stamp only
    await payments(server, 3)
    await env.h.call('sync.now', null)
    expect((await env.h.call('transactions.query', { limit: 1 })).total).toBe(253)
    const changes = env.h.events.filter((e) => e.event === 'transactions.changed').at(-1)!.payload as {
      changes: unknown[]
    }
    expect(changes.changes).toHaveLength(3)
    void api
  })
})

describe('live status of what the operator looks at', () => {
  it('keeps polling a transaction whose detail is open until it is final, even one this Paydesk did not start', async () => {
    const server = await sandbox({ timeScale: 1 }) // real-time durations: PENDING 1 s, then PROCESSING 5 s
    await addProfile(env.h, server)
    const { api, internalId, externalId } = await moneySetup(server)
    await waitFor(
      async () => (await api('GET', `customers/external-accounts/${externalId}`)).status === 'ACTIVE',
      10_000
    )
    // Started elsewhere (another tool, the platform's backend): not in this Paydesk's transfer journal.
    const sent = await api<{ id: string }>('POST', 'transfer-out', {
      source: { accountId: internalId },
      destination: { accountId: externalId },
      amount: 1_00
    })
    await env.h.call('sync.now', null)
    expect((await env.h.call('transactions.get', { id: sent.id })).transaction?.status).toBe('PENDING')

    // A poll past the listing's overlap window: from now on only a re-check by id can see this transaction change.
    await new Promise((r) => setTimeout(r, 3_500))
    await env.h.call('sync.now', null)
    // The service finishes it; no new transaction is created, and the once-a-minute reconcile is not due.
    await waitFor(async () => (await api('GET', `transactions/${sent.id}`)).status === 'COMPLETED', 15_000, 100)
    env.h.events.length = 0
    await env.h.call('sync.now', null)
    const changed = env.h.events.filter((e) => e.event === 'transactions.changed')
    expect(
      changed.map((e) => (e.payload as { changes: Array<{ id: string; status: string }> }).changes).flat()
    ).toContainEqual(expect.objectContaining({ id: sent.id, status: 'COMPLETED' }))
  }, 40_000)
})

describe('offline', () => {
  it('keeps cached views working, fails writes with OFFLINE, and queues nothing', async () => {
    const stateFile = path.join(env.dir, 'sandbox-state.json')
    const server = await startSandbox({ memory: false, dataFile: stateFile })
    await addProfile(env.h, server)
    const { internalId, externalId } = await moneySetup(server)
    await payments(server, 5)
    await env.h.call('sync.now', null)
    await env.h.call('internalAccounts.list', {})
    await waitFor(() => dataChanged('internalAccounts').length > 0)
    const port = server.port
    await server.close()

    const status = await env.h.call('sync.now', null)
    expect(status).toMatchObject({ state: 'offline', code: 'OFFLINE' })
    expect(status.offlineSince).not.toBeNull()
    expect(
      env.h.events.some((e) => e.event === 'sync.status' && (e.payload as { state: string }).state === 'offline')
    ).toBe(true)

    const cached = await env.h.call('transactions.query', { filter: { type: 'INCOMING' } })
    expect(cached.total).toBe(5)
    expect((await env.h.call('internalAccounts.list', {})).rows.length).toBeGreaterThan(0)

    const send = (await env.h.raw('transfers.send', {
      actionId: randomUUID(),
      sourceAccountId: internalId,
      destinationAccountId: externalId,
      amount: 1_00
    })) as { ok: boolean; error: { code: string; message: string } }
    expect(send).toMatchObject({ ok: false, error: { code: 'OFFLINE' } })
    expect(send.error.message).toMatch(/offline: the transfer was not sent and nothing was queued/)
    const create = await env.h.raw('customers.create', { customerType: 'INDIVIDUAL', fullName: 'Queued Never' })
    expect(create).toMatchObject({ ok: false, error: { code: 'OFFLINE' } })
    expect((create as { error: { message: string } }).error.message).toMatch(/nothing was queued/)

    // Back online: polling resumes and nothing that failed offline happens by itself.
    const back = await sandbox({ memory: false, dataFile: stateFile, port })
    expect((await env.h.call('sync.now', null)).state).toBe('live')
    await env.h.call('sync.now', null)
    expect(await outgoing(back)).toHaveLength(0)
    const customers = await sandboxApi(back)<{ data: Array<{ fullName?: string }> }>('GET', 'customers?limit=100')
    expect(customers.data.some((c) => c.fullName === 'Queued Never')).toBe(false)
  })
})

describe('cache corruption', () => {
  it('sets a corrupt cache aside, never crashes, and rebuilds it from the service', async () => {
    const server = await sandbox()
    const view = await addProfile(env.h, server)
    await payments(server, 7)
    await env.h.call('sync.now', null)
    expect((await env.h.call('transactions.query', {})).total).toBe(7)
    await env.h.close()
    const folder = path.join(env.dir, 'profiles', view.id)
    const file = path.join(folder, 'cache.db')
    const bytes = await readFile(file)
    for (let i = 60; i < bytes.length - 40; i += 97) bytes[i]! ^= 0xa5
    await writeFile(file, bytes)

    env.h = await startBackend(env.dir, env.service, { autoSync: false })
    const empty = await env.h.call('transactions.query', {})
    expect(empty.total).toBe(0)
    expect((await readdir(folder)).some((n) => n.startsWith('cache.db.corrupt-'))).toBe(true)
    expect(env.h.logs.some((l) => /set aside/.test(l))).toBe(true)
    await env.h.call('sync.now', null)
    expect((await env.h.call('transactions.query', {})).total).toBe(7)
  })

  it('treats a cache whose key is gone from the keychain as undecryptable and rebuilds it', async () => {
    const server = await sandbox()
    const view = await addProfile(env.h, server)
    await payments(server, 2)
    await env.h.call('sync.now', null)
    await env.h.close()
    const { createKeytarStore, cacheKeyAccount } = await import('../../../src/main/infra/keychain')
    await createKeytarStore(env.service).delete(cacheKeyAccount(view.id))
    env.h = await startBackend(env.dir, env.service, { autoSync: false })
    expect((await env.h.call('transactions.query', {})).total).toBe(0)
    // The cache no key opens is set aside (kept), not deleted.
    expect(
      (await readdir(path.join(env.dir, 'profiles', view.id))).some((n) => n.startsWith('cache.db.corrupt-'))
    ).toBe(true)
    await env.h.call('sync.now', null)
    expect((await env.h.call('transactions.query', {})).total).toBe(2)
  })
})

describe('profile isolation', () => {
  it('never mixes data or events between profiles; removing one removes its secret, key and cache', async () => {
    const a = await sandbox({ clientSecret: 'secret-a-1234' })
    const b = await sandbox({ clientSecret: 'secret-b-5678' })
    const pa = await addProfile(env.h, a, { name: 'A' })
    await payments(a, 3)
    await env.h.call('sync.now', null)
    const pb = await addProfile(env.h, b, { name: 'B' })
    await payments(b, 1, 9_99)
    await env.h.call('sync.now', null)
    const inB = await env.h.call('transactions.query', {})
    expect(inB).toMatchObject({ profileId: pb.id, total: 1 })
    await env.h.call('profiles.switch', { id: pa.id })
    const inA = await env.h.call('transactions.query', {})
    expect(inA).toMatchObject({ profileId: pa.id, total: 3 })
    expect(inA.rows.map((r) => r.id)).not.toContain(inB.rows[0]!.id)
    // Every event names its profile; A's changes are A's payments only.
    const aIds = new Set(inA.rows.map((r) => r.id))
    for (const e of env.h.events.filter((e) => e.event === 'transactions.changed')) {
      const p = e.payload as { profileId: string; changes: Array<{ id: string }> }
      for (const c of p.changes) expect(aIds.has(c.id)).toBe(p.profileId === pa.id)
    }
    // Remove B: its keychain entries and folder go.
    const { createKeytarStore, cacheKeyAccount, secretAccount } = await import('../../../src/main/infra/keychain')
    const ks = createKeytarStore(env.service)
    expect(await ks.get(cacheKeyAccount(pb.id))).toBeDefined()
    await env.h.call('profiles.remove', { id: pb.id })
    expect(await ks.get(cacheKeyAccount(pb.id))).toBeUndefined()
    expect(await ks.get(secretAccount(pb.id))).toBeUndefined()
    const left = await readdir(path.join(env.dir, 'profiles'))
    expect(left).toContain(pa.id)
    expect(left).not.toContain(pb.id)
  })
})

describe('client resilience against the sandbox', () => {
  it('waits for Retry-After on 429 and backs off on 5xx, over real HTTP', async () => {
    const server = await sandbox()
    const attempts: Array<{ status?: number; at: number; retryInMs?: number }> = []
    const client = new ApiClient({
      baseUrl: server.baseUrl,
      tokenId: server.tokenId,
      clientSecret: server.clientSecret,
      baseDelayMs: 50,
      random: () => 1,
      onAttempt: (i) =>
        attempts.push({
          ...(i.status !== undefined && { status: i.status }),
          at: Date.now(),
          ...(i.retryInMs !== undefined && { retryInMs: i.retryInMs })
        })
    })
    server.faults.add({ route: 'GET /platform/internal-accounts', kind: 'rateLimit', retryAfterSeconds: 1, times: 1 })
    const started = Date.now()
    await client.get('platform/internal-accounts', dataList(InternalAccount))
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000)
    expect(attempts.map((a) => a.status)).toEqual([429, 200])
    expect(attempts[0]!.retryInMs).toBe(1_000)

    attempts.length = 0
    server.faults.add({ route: 'GET /platform/internal-accounts', kind: 'error', status: 503, times: 3 })
    await client.get('platform/internal-accounts', dataList(InternalAccount))
    expect(attempts.map((a) => a.status)).toEqual([503, 503, 503, 200])
    expect(attempts.slice(0, 3).map((a) => a.retryInMs)).toEqual([50, 100, 200])

    attempts.length = 0
    server.faults.add({ route: 'GET /platform/internal-accounts', kind: 'reset', times: 1 })
    await client.get('platform/internal-accounts', dataList(InternalAccount))
    expect(attempts).toHaveLength(2)
    await client.close()
  })
})
