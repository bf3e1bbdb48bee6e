import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../src/main/infra/api-client'
import { InternalAccount } from '../../src/shared/api'
import { SPARK } from '../shared/api/fixtures'
import { createCustomer, start, type Client } from '../sandbox/util'
import { publishedValidator } from './published-openapi'

const validatePublished = publishedValidator()
let c: Client
let client: ApiClient

beforeAll(async () => {
  c = await start()
  client = new ApiClient({
    baseUrl: c.sb.baseUrl,
    tokenId: c.sb.tokenId,
    clientSecret: c.sb.clientSecret,
    maxRetries: 0
  })
})
afterAll(async () => {
  await client.close()
  await c.sb.close()
})

describe('an unknown account answers a code of the published Error404 list', () => {
  it.each([
    ['GET', '/customers/external-accounts/ExternalAccount:nope'],
    ['DELETE', '/customers/external-accounts/ExternalAccount:nope'],
    ['GET', '/platform/external-accounts/ExternalAccount:nope'],
    ['POST', '/sandbox/internal-accounts/InternalAccount:nope/fund']
  ])('%s %s', async (method, path) => {
    const r = await c.req(method, path, method === 'POST' ? { amount: 5 } : undefined)
    expect(r.status).toBe(404)
    expect(validatePublished('Error404', r.body)).toEqual([])
    expect(r.body).toMatchObject({ code: 'REFERENCE_NOT_FOUND' })
  })

  it('a customer’s account asked for under /platform answers the same published code', async () => {
    const customer = await createCustomer(c)
    const created = await c.post('/customers/external-accounts', {
      customerId: customer.id,
      currency: 'BTC',
      cryptoNetwork: 'SPARK_MAINNET',
      accountInfo: { accountType: 'SPARK_WALLET', address: SPARK }
    })
    expect(created.status, created.text).toBe(201)
    const r = await c.get(`/platform/external-accounts/${encodeURIComponent(created.body.id)}`)
    expect(r.status).toBe(404)
    expect(validatePublished('Error404', r.body)).toEqual([])
  })
})

describe('Paydesk says which thing the service does not have', () => {
  it('an unknown external account: a sentence naming it, with the service code', async () => {
    const error = await client
      .request('DELETE', `customers/external-accounts/${encodeURIComponent('ExternalAccount:nope')}`)
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'NOT_FOUND', serviceCode: 'REFERENCE_NOT_FOUND', httpStatus: 404 })
    expect((error as Error).message).toMatch(/^The service has no such external account: it may have been deleted\./)
  })

  it('an unknown internal account: a sentence naming it', async () => {
    const error = await client
      .request('POST', `sandbox/internal-accounts/${encodeURIComponent('InternalAccount:nope')}/fund`, {
        body: { amount: 5 },
        schema: InternalAccount
      })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'NOT_FOUND', serviceCode: 'REFERENCE_NOT_FOUND' })
    expect((error as Error).message).toMatch(/^The service has no such internal account\./)
  })
})
