import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../src/main/services/api-client'
import {
  Customer,
  dataList,
  ExternalAccount,
  ExternalAccountCreateRequest,
  InternalAccount,
  pagedList,
  Transaction
} from '../../src/shared/api'
import { INITIAL_VALUES, toCreateRequest } from '../../src/renderer/src/views/external-accounts/account-form'
import { SPARK } from '../shared/api/fixtures'
import { startPrismMock } from './prism'

const customer = 'Customer:019542f5-b3e7-1d02-0000-000000000001'
const person = {
  ...INITIAL_VALUES,
  customerId: customer,
  'accountInfo.routingNumber': '021000021',
  'accountInfo.accountNumber': '12345678901',
  'accountInfo.beneficiary.fullName': 'John Doe',
  'accountInfo.beneficiary.address.line1': '123 Main Street',
  'accountInfo.beneficiary.address.city': 'San Francisco',
  'accountInfo.beneficiary.address.postalCode': '94105',
  'accountInfo.beneficiary.address.country': 'US'
}

/** The three accounts the acceptance names, built by the add form exactly as the UI sends them. */
const WRITES: Array<[string, Record<string, string>]> = [
  ['a US bank account', person],
  [
    'a business-beneficiary account',
    { ...person, 'accountInfo.beneficiary.beneficiaryType': 'BUSINESS', 'accountInfo.beneficiary.legalName': 'Acme' }
  ],
  [
    'a Spark wallet',
    {
      ...INITIAL_VALUES,
      customerId: customer,
      'accountInfo.accountType': 'SPARK_WALLET',
      currency: 'BTC',
      cryptoNetwork: 'SPARK_MAINNET',
      'accountInfo.address': SPARK
    }
  ]
]

// Static mode only for now: Prism's dynamic mode invents ids without the "Type:" prefix our schemas require, which
// Paydesk rejects (left for the lead as an open point of issue 8).
describe.each(['static'] as const)('Paydesk’s client against the published OpenAPI (Prism, %s)', (mode) => {
  let prism: Awaited<ReturnType<typeof startPrismMock>>
  let client: ApiClient
  beforeAll(async () => {
    prism = await startPrismMock(mode)
    client = new ApiClient({ baseUrl: prism.baseUrl, tokenId: 'tok', clientSecret: 'secret', maxRetries: 0 })
  }, 60_000)
  afterAll(async () => {
    await prism?.close()
  })

  it('reads every list the UI shows', async () => {
    expect((await client.get('platform/internal-accounts', dataList(InternalAccount))).data.length).toBeGreaterThan(0)
    await client.get('platform/external-accounts', pagedList(ExternalAccount), { limit: 100 })
    await client.get('customers/external-accounts', pagedList(ExternalAccount), { limit: 100 })
    await client.get('customers/internal-accounts', pagedList(InternalAccount), { customerId: customer, limit: 100 })
    await client.get('customers', pagedList(Customer), { limit: 100 })
    await client.get('transactions', pagedList(Transaction), {
      startDate: '2025-10-01T00:00:00Z',
      sortOrder: 'asc',
      limit: 100
    })
  })

  it('Prism refuses the shapes Paydesk used to send (US_ACCOUNT with accountCategory)', async () => {
    const old = {
      customerId: customer,
      currency: 'USD',
      accountInfo: {
        accountType: 'US_ACCOUNT',
        accountNumber: '12345678901',
        routingNumber: '021000021',
        accountCategory: 'CHECKING',
        beneficiary: { beneficiaryType: 'BUSINESS', businessInfo: { legalName: 'Acme' } }
      }
    }
    // Prism answers a request that breaks the schema with the operation's documented 400 (or 422 when none is).
    const refused = await client.request('POST', 'customers/external-accounts', { body: old }).catch((e: unknown) => e)
    expect([400, 422]).toContain((refused as { httpStatus?: number }).httpStatus)
  })

  it.each(WRITES)('creates %s with a request Prism accepts', async (_what, values) => {
    const body = toCreateRequest(values)
    expect(ExternalAccountCreateRequest.safeParse(body).success).toBe(true)
    const created = await client.request('POST', 'customers/external-accounts', { body, schema: ExternalAccount })
    expect(created.id).toEqual(expect.any(String))
  })
})
