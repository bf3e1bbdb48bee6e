import { request } from 'undici'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSandboxServer } from '../../../src/sandbox/server'
import { activeAccount, createCustomer, expectError, sandboxForSuite, usAccountBody } from '../util'

const c = sandboxForSuite({}, { ledger: false })
afterEach(() => {
  c.sb.server.faults.clear()
})

const customers = () => c.sb.server.state.store.customers.size

/** POST /customers as a raw request: a reset or dropped connection shows as a rejected promise. */
const postCustomerRaw = (body: Record<string, unknown>) =>
  request(`${c.sb.baseUrl}/customers`, {
    method: 'POST',
    headers: { authorization: c.sb.authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body)
  })

describe('fault injection (programmatic controller)', () => {
  it('adds latency to matching routes only', async () => {
    const rule = c.sb.server.faults.add({ route: 'GET /customers', kind: 'latency', latencyMs: 150 })
    const t0 = Date.now()
    expect((await c.get('/customers')).status).toBe(200)
    // A lower bound only: a loaded machine makes a request slower, never faster.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140)
    // Which requests the rule delayed is counted, not timed: "fast enough" is a race on a loaded machine.
    expect((await c.get('/transactions')).status).toBe(200)
    expect(c.sb.server.faults.list().find((r) => r.id === rule.id)?.hits).toBe(1)
  })

  it('answers a 5xx with a JSON error body, without running the request', async () => {
    c.sb.server.faults.add({ route: 'POST /customers', kind: 'error', status: 500 })
    const before = customers()
    const r = await c.post('/customers', { customerType: 'INDIVIDUAL' })
    expectError(r, 500, 'INTERNAL_ERROR')
    expect(customers()).toBe(before)
  })

  it('answers 429 RATE_LIMITED with Retry-After', async () => {
    c.sb.server.faults.add({ route: '/transactions', kind: 'rateLimit', retryAfterSeconds: 7, times: 2 })
    const r = await c.get('/transactions')
    expectError(r, 429, 'RATE_LIMITED')
    expect(r.headers.get('retry-after')).toBe('7')
    expect((await c.get('/transactions')).status).toBe(429)
    expect((await c.get('/transactions')).status).toBe(200) // `times` used up
  })

  it('resets the connection before anything happens', async () => {
    c.sb.server.faults.add({ route: 'POST /customers', kind: 'reset', times: 1 })
    const before = customers()
    await expect(postCustomerRaw({ customerType: 'INDIVIDUAL' })).rejects.toThrow()
    expect(customers()).toBe(before)
  })

  it('"commit then drop": the request takes effect but no response arrives', async () => {
    c.sb.server.faults.add({ route: 'POST /customers', kind: 'commitThenDrop', times: 1 })
    const before = customers()
    await expect(postCustomerRaw({ customerType: 'INDIVIDUAL', platformCustomerId: 'dropped-1' })).rejects.toThrow()
    expect(customers()).toBe(before + 1)
    const r = await c.get('/customers?platformCustomerId=dropped-1')
    expect(r.body.data).toHaveLength(1)
  })

  it('commit-then-drop on transfer-out with an Idempotency-Key: the retry gets the stored answer, one debit', async () => {
    const cust = await createCustomer(c)
    const internal = (await c.get(`/customers/internal-accounts?customerId=${cust.id}`)).body.data[0].id
    await c.post(`/sandbox/internal-accounts/${internal}/fund`, { amount: 10_000 })
    const acct = await c.post('/customers/external-accounts', usAccountBody(cust.id, '12121212'))
    await activeAccount(c, acct.body.id)
    c.sb.server.faults.add({ route: 'POST /transfer-out', kind: 'commitThenDrop', times: 1 })
    const body = { source: { accountId: internal }, destination: { accountId: acct.body.id }, amount: 1_000 }
    await expect(
      request(`${c.sb.baseUrl}/transfer-out`, {
        method: 'POST',
        headers: { authorization: c.sb.authorization, 'content-type': 'application/json', 'idempotency-key': 'drop-1' },
        body: JSON.stringify(body)
      })
    ).rejects.toThrow()
    const retry = await c.post('/transfer-out', body, { 'idempotency-key': 'drop-1' })
    expect(retry.status, retry.text).toBe(201)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    const list = await c.get(`/transactions?senderAccountIdentifier=${internal}`)
    expect(list.body.totalCount).toBe(1)
    const acc = await c.get(`/customers/internal-accounts?customerId=${cust.id}`)
    expect(acc.body.data[0].balance.amount).toBe(10_000 - 1_000 - 10)
  })

  it('"hang": holds a request without an answer until the rule is removed, then lets it go on', async () => {
    const rule = c.sb.server.faults.add({ route: 'POST /customers', kind: 'hang', times: 1 })
    const before = customers()
    const held = c.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'held-1' })
    let answered = false
    void held.then(() => (answered = true))
    // Held once it has been counted; `times` used up, the next request goes through while the first still waits.
    await vi.waitFor(() => expect(c.sb.server.faults.list()).toEqual([]))
    expect((await c.get('/customers')).status).toBe(200)
    expect(answered).toBe(false)
    expect(customers()).toBe(before)
    expect(c.sb.server.faults.remove(rule.id)).toBe(false)
    expect((await held).status).toBe(201)
    expect(customers()).toBe(before + 1)
  })

  it('"hang" without times holds every matching request until the rules are cleared', async () => {
    c.sb.server.faults.add({ route: 'GET /customers', kind: 'hang' })
    const a = c.get('/customers')
    const b = c.get('/customers')
    await vi.waitFor(() => expect(c.sb.server.faults.list()[0]?.hits).toBe(2))
    c.sb.server.faults.clear()
    expect((await a).status).toBe(200)
    expect((await b).status).toBe(200)
  })

  it('matches every route with "*", and exact paths', async () => {
    c.sb.server.faults.add({ route: '*', kind: 'error', status: 503, times: 1 })
    expectError(await c.get('/discoveries'), 503)
    expect((await c.get('/discoveries')).status).toBe(200)
    const cust = await createCustomer(c)
    c.sb.server.faults.add({ route: `/customers/${cust.id}`, kind: 'error', status: 502 })
    expect((await c.get(`/customers/${cust.id}`)).status).toBe(502)
    expect((await c.get('/customers')).status).toBe(200)
  })
})

describe('fault injection over HTTP (POST /__faults)', () => {
  it('requires auth, validates, adds, lists and clears rules', async () => {
    const noAuth = await fetch(`${c.sb.baseUrl}/__faults`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' }
    })
    expect(noAuth.status).toBe(401)
    expectError(await c.post('/__faults', { kind: 'explode' }), 400, 'INVALID_INPUT')
    const r = await c.post('/__faults', { rules: [{ route: 'GET /discoveries', kind: 'error', status: 500 }] })
    expect(r.status, r.text).toBe(201)
    expect(r.body.data[0]).toMatchObject({ id: expect.any(Number), kind: 'error' })
    expect((await c.get('/discoveries')).status).toBe(500)
    expect((await c.get('/__faults')).body.data).toHaveLength(1)
    expect((await c.req('DELETE', '/__faults')).status).toBe(204)
    expect((await c.get('/discoveries')).status).toBe(200)
  })

  it('admin routes are not themselves subject to faults', async () => {
    await c.post('/__faults', { route: '*', kind: 'error', status: 500 })
    expect((await c.get('/__faults')).status).toBe(200)
    expect((await c.req('DELETE', '/__faults')).status).toBe(204)
  })
})

describe('off by default', () => {
  it('without { faults: true }: no /__faults route and the controller refuses rules', async () => {
    const s = await createSandboxServer({ memory: true, seed: false, log: () => undefined })
    try {
      const auth = `Basic ${Buffer.from(`${s.tokenId}:${s.clientSecret}`).toString('base64')}`
      const r = await fetch(`${s.baseUrl}/__faults`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'reset' })
      })
      expect(r.status).toBe(404)
      expect(() => s.faults.add({ kind: 'reset' })).toThrow(/off/)
    } finally {
      await s.close()
    }
  })
})
