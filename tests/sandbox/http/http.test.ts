import { describe, expect, it } from 'vitest'
import { ApiErrorBody } from '../../../src/shared/api/error'
import { createCustomer, expectError, sandboxForSuite } from '../util'

const c = sandboxForSuite({}, { ledger: false })

/** Every operation of spec section 4 plus the extras, with a body where one is needed. */
const ENDPOINTS: Array<[string, string, unknown?]> = [
  ['GET', '/discoveries'],
  ['POST', '/customers', { customerType: 'INDIVIDUAL' }],
  ['GET', '/customers'],
  ['GET', '/customers/Customer:x'],
  ['PATCH', '/customers/Customer:x', { fullName: 'A' }],
  ['DELETE', '/customers/Customer:x'],
  ['POST', '/customers/external-accounts', {}],
  ['GET', '/customers/external-accounts'],
  ['GET', '/customers/external-accounts/ExternalAccount:x'],
  ['PATCH', '/customers/external-accounts/ExternalAccount:x', { platformAccountId: 'a' }],
  ['DELETE', '/customers/external-accounts/ExternalAccount:x'],
  ['GET', '/platform/external-accounts'],
  ['GET', '/platform/internal-accounts'],
  ['GET', '/customers/internal-accounts'],
  ['GET', '/transactions'],
  ['GET', '/transactions/Transaction:x'],
  ['POST', '/transactions/Transaction:x/approve', {}],
  ['POST', '/transactions/Transaction:x/reject', {}],
  ['POST', '/transfer-out', {}],
  ['POST', '/quotes', {}],
  ['GET', '/quotes/Quote:x'],
  ['POST', '/sandbox/internal-accounts/InternalAccount:x/fund', { amount: 1 }],
  ['POST', '/sandbox/send', {}],
  ['POST', '/sandbox/uma/receive', {}],
  ['GET', '/__faults']
]

describe('authentication', () => {
  it.each(ENDPOINTS)('%s %s answers 401 without credentials', async (method, path, body) => {
    const r = await fetch(c.sb.baseUrl + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    expect(r.status).toBe(401)
    const json = await r.json()
    expect(ApiErrorBody.parse(json)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' })
    expect(r.headers.get('www-authenticate')).toMatch(/^Basic/)
  })

  it.each([
    ['wrong secret', (id: string) => `${id}:nope`],
    ['wrong token id', (_id: string) => `someone-else:${c.sb.clientSecret}`],
    ['no colon', (id: string) => id],
    ['empty', () => '']
  ])('rejects %s with 401 and creates nothing', async (_name, cred) => {
    const before = c.sb.server.state.store.customers.size
    const r = await c.post(
      '/customers',
      { customerType: 'INDIVIDUAL' },
      {
        authorization: `Basic ${Buffer.from(cred(c.sb.tokenId)).toString('base64')}`
      }
    )
    expectError(r, 401, 'UNAUTHORIZED')
    expect(c.sb.server.state.store.customers.size).toBe(before)
  })

  it('rejects a non-Basic scheme', async () => {
    expectError(await c.get('/customers', { authorization: `Bearer ${c.sb.clientSecret}` }), 401, 'UNAUTHORIZED')
  })

  it('accepts the right credentials on every endpoint (no 401)', async () => {
    for (const [method, path, body] of ENDPOINTS) {
      const r = await c.req(method, path, body)
      expect(r.status, `${method} ${path}`).not.toBe(401)
      if (r.status >= 400) expect(ApiErrorBody.safeParse(r.body).success, `${method} ${path}: ${r.text}`).toBe(true)
    }
  })
})

describe('routing and error bodies', () => {
  it('serves the API under /2025-10-13 only', async () => {
    expect(c.sb.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/2025-10-13$/)
    const r = await fetch(c.sb.baseUrl.replace('/2025-10-13', '/2024-01-01') + '/customers', {
      headers: { authorization: c.sb.authorization }
    })
    expect(r.status).toBe(404)
    expect(await r.json()).toMatchObject({ status: 404, code: 'NOT_FOUND' })
  })

  it('answers 404 with a JSON body for an unknown route', async () => {
    expectError(await c.get('/no-such-thing'), 404, 'NOT_FOUND')
    expectError(await c.get('/customers/Customer:x/extra/segments'), 404, 'NOT_FOUND')
  })

  it('answers 405 with Allow for a known path and a wrong method', async () => {
    const r = await c.req('PUT', '/transfer-out', {})
    expectError(r, 405, 'METHOD_NOT_ALLOWED')
    expect(r.headers.get('allow')).toContain('POST')
  })

  it('answers 404 for unknown ids with the reference codes', async () => {
    expectError(await c.get('/customers/Customer:nope'), 404, 'USER_NOT_FOUND')
    expectError(await c.get('/transactions/Transaction:nope'), 404, 'TRANSACTION_NOT_FOUND')
    expectError(await c.get('/quotes/Quote:nope'), 404, 'QUOTE_NOT_FOUND')
    // The published Error404 list has no per-account code: REFERENCE_NOT_FOUND (docs/real-service.md).
    expectError(await c.get('/customers/external-accounts/ExternalAccount:nope'), 404, 'REFERENCE_NOT_FOUND')
    expectError(await c.get('/platform/external-accounts/ExternalAccount:nope'), 404, 'REFERENCE_NOT_FOUND')
    expectError(await c.del('/customers/external-accounts/ExternalAccount:nope'), 404, 'REFERENCE_NOT_FOUND')
    expectError(
      await c.post('/sandbox/internal-accounts/InternalAccount:nope/fund', { amount: 5 }),
      404,
      'REFERENCE_NOT_FOUND'
    )
  })
})

describe('request bodies', () => {
  it('answers 400 for malformed JSON and changes nothing', async () => {
    const before = c.sb.server.state.store.customers.size
    const r = await c.post('/customers', '{"customerType": "INDIVIDUAL",')
    expectError(r, 400, 'INVALID_INPUT')
    expect(r.body.message).toMatch(/Malformed JSON/)
    expect(c.sb.server.state.store.customers.size).toBe(before)
  })

  it('answers 400 when a required body is missing or not an object', async () => {
    expectError(await c.post('/customers'), 400, 'INVALID_INPUT')
    expectError(await c.post('/customers', '[1,2]'), 400, 'INVALID_INPUT')
    expectError(await c.post('/customers', 'null'), 400, 'INVALID_INPUT')
  })

  it('answers 413 for a body over the limit, stays up and changes nothing', async () => {
    const before = c.sb.server.state.store.customers.size
    const big = JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'x'.repeat(2 * 1024 * 1024) })
    const r = await c.post('/customers', big)
    expectError(r, 413, 'PAYLOAD_TOO_LARGE')
    expect(c.sb.server.state.store.customers.size).toBe(before)
    // still serving
    expect((await c.get('/customers')).status).toBe(200)
  })

  it('answers 415 for a non-JSON body', async () => {
    const r = await c.post('/customers', 'customerType=INDIVIDUAL', {
      'content-type': 'application/x-www-form-urlencoded'
    })
    expectError(r, 415, 'UNSUPPORTED_MEDIA_TYPE')
  })

  it('lists every validation issue with its path', async () => {
    const r = await c.post('/customers', { customerType: 'BUSINESS', birthDate: '1990-02-30', extra: 1 })
    expectError(r, 400, 'INVALID_INPUT')
    const paths = r.body.details.issues.map((i: { path: string }) => i.path)
    expect(paths).toEqual(expect.arrayContaining(['customerType', 'birthDate']))
  })

  it('rejects unknown query parameters and malformed limits', async () => {
    expectError(await c.get('/transactions?bogus=1'), 400, 'INVALID_INPUT')
    for (const limit of ['0', '101', 'abc', '1.5', '-1']) {
      expectError(await c.get(`/transactions?limit=${limit}`), 400, 'INVALID_INPUT')
    }
    expect((await c.get('/transactions?limit=1')).status).toBe(200)
    expect((await c.get('/transactions?limit=100')).status).toBe(200)
  })

  it('keeps serving after garbage on the socket', async () => {
    const net = await import('node:net')
    const url = new URL(c.sb.baseUrl)
    await new Promise<void>((resolve) => {
      const s = net.connect(Number(url.port), url.hostname, () => {
        s.write('THIS IS NOT HTTP\r\n\r\n')
      })
      s.on('data', () => undefined)
      s.on('close', () => resolve())
      s.on('error', () => resolve())
    })
    const cust = await createCustomer(c)
    expect(cust.id).toMatch(/^Customer:/)
  })
})
