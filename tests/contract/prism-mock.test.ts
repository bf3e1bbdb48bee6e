import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ApiClient } from '../../src/main/infra/api-client'
import {
  Customer,
  CustomerCreateRequest,
  dataList,
  DiscoveryEntry,
  ExternalAccount,
  ExternalAccountCreateRequest,
  FundInternalAccountRequest,
  InternalAccount,
  SandboxReceiveRequest,
  Transaction
} from '../../src/shared/api'
import { INITIAL_VALUES, toCreateRequest } from '../../src/renderer/src/views/external-accounts/account-form'
import { SPARK } from '../shared/api/fixtures'
import { startPrismMock } from './prism'
import { publishedValidator } from './published-openapi'

const customer = 'Customer:019542f5-b3e7-1d02-0000-000000000001'
const internalAccount = 'InternalAccount:a12dcbd6-dced-4ec4-b756-3c3a9ea3d123'
const externalAccount = 'ExternalAccount:e85dcbd6-dced-4ec4-b756-3c3a9ea3d965'
const transaction = 'Transaction:019542f5-b3e7-1d02-0000-000000000005'
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
const ACCOUNTS: Array<[string, Record<string, string>]> = [
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

type Exchange = {
  /** What Paydesk reads the body (or, for a list, each item) with. */
  paydesk: z.ZodType
  /** The published schema of the whole body. */
  published: string
  /** A list: its items are read one by one, as sync does (`readItems`), so one bad item costs only itself. */
  list?: boolean
  call: (c: ApiClient) => Promise<unknown>
}

const raw = z.unknown()

/** Every read the UI makes (sync, the views, the connection test), read with the schemas Paydesk reads it with. */
const READS: Array<[string, Exchange]> = [
  [
    'platform internal accounts',
    {
      paydesk: InternalAccount,
      published: 'PlatformInternalAccountListResponse',
      list: true,
      call: (c) => c.get('platform/internal-accounts', raw)
    }
  ],
  [
    'platform external accounts',
    {
      paydesk: ExternalAccount,
      published: 'ExternalAccountListResponse',
      list: true,
      call: (c) => c.get('platform/external-accounts', raw, { limit: 100 })
    }
  ],
  [
    'customer external accounts',
    {
      paydesk: ExternalAccount,
      published: 'ExternalAccountListResponse',
      list: true,
      call: (c) => c.get('customers/external-accounts', raw, { customerId: customer, limit: 100 })
    }
  ],
  [
    'customer internal accounts',
    {
      paydesk: InternalAccount,
      published: 'InternalAccountListResponse',
      list: true,
      call: (c) => c.get('customers/internal-accounts', raw, { customerId: customer, limit: 100 })
    }
  ],
  [
    'customers',
    {
      paydesk: Customer,
      published: 'CustomerListResponse',
      list: true,
      call: (c) => c.get('customers', raw, { limit: 100 })
    }
  ],
  [
    'one customer',
    {
      paydesk: Customer,
      published: 'CustomerOneOf',
      call: (c) => c.get(`customers/${encodeURIComponent(customer)}`, raw)
    }
  ],
  [
    'transactions',
    {
      paydesk: Transaction,
      published: 'TransactionListResponse',
      list: true,
      call: (c) => c.get('transactions', raw, { startDate: '2025-10-01T00:00:00Z', sortOrder: 'asc', limit: 100 })
    }
  ],
  [
    'one transaction',
    {
      paydesk: Transaction,
      published: 'TransactionOneOf',
      call: (c) => c.get(`transactions/${encodeURIComponent(transaction)}`, raw)
    }
  ],
  [
    'discoveries',
    {
      paydesk: DiscoveryEntry,
      published: 'DiscoveryListResponse',
      list: true,
      call: (c) => c.get('discoveries', raw, { country: 'US', currency: 'USD' })
    }
  ]
]

/** Every write the UI makes besides adding an account, each body checked by the request schema main validates with. */
const WRITES: Array<[string, Exchange]> = [
  [
    'create a customer',
    {
      paydesk: Customer,
      published: 'CustomerOneOf',
      call: (c) =>
        c.request('POST', 'customers', {
          body: CustomerCreateRequest.parse({
            customerType: 'INDIVIDUAL',
            platformCustomerId: 'op-1',
            fullName: 'Jane Doe',
            umaAddress: '$jane@uma.example.com'
          }),
          schema: raw
        })
    }
  ],
  [
    'fund an internal account (sandbox)',
    {
      paydesk: InternalAccount,
      published: 'InternalAccount',
      call: (c) =>
        c.request('POST', `sandbox/internal-accounts/${encodeURIComponent(internalAccount)}/fund`, {
          body: FundInternalAccountRequest.parse({ amount: 100_000 }),
          schema: raw
        })
    }
  ],
  [
    'simulate a received payment (sandbox)',
    {
      paydesk: Transaction,
      published: 'IncomingTransaction',
      call: (c) =>
        c.request('POST', 'sandbox/uma/receive', {
          body: SandboxReceiveRequest.parse({
            senderUmaAddress: '$success.usd@sandbox.uma.money',
            receivingCurrencyCode: 'USD',
            receivingCurrencyAmount: 1000,
            customerId: customer
          }),
          schema: raw
        })
    }
  ],
  [
    'send money out (transfer-out)',
    {
      paydesk: Transaction,
      published: 'TransactionOneOf',
      call: (c) =>
        c.request('POST', 'transfer-out', {
          body: { source: { accountId: internalAccount }, destination: { accountId: externalAccount }, amount: 12550 },
          idempotencyKey: '550e8400-e29b-41d4-a716-446655440000',
          schema: raw
        })
    }
  ],
  [
    'approve a payment',
    {
      paydesk: Transaction,
      published: 'IncomingTransaction',
      call: (c) =>
        c.request('POST', `transactions/${encodeURIComponent(transaction)}/approve`, {
          body: { receiverCustomerInfo: { FULL_NAME: 'Jane Doe' } },
          schema: raw
        })
    }
  ],
  [
    'reject a payment',
    {
      paydesk: Transaction,
      published: 'IncomingTransaction',
      call: (c) =>
        c.request('POST', `transactions/${encodeURIComponent(transaction)}/reject`, {
          body: { reason: 'RESTRICTED_JURISDICTION' },
          schema: raw
        })
    }
  ]
]

const published = publishedValidator()

/**
 * Paydesk must read whatever the published document allows. Dynamic mode also invents bodies the document itself
 * refuses (its allOf/oneOf merging gives an IncomingTransaction `type: OUTGOING`, a destination without its required
 * members...): Paydesk may refuse one of those, and only those. Returns how many bodies (or items) Paydesk read.
 */
function expectReadable(exchange: Exchange, body: unknown): number {
  const bodies = exchange.list ? ((body as { data?: unknown[] }).data ?? []) : [body]
  expect(bodies, 'a list answered without its data array').toEqual(expect.any(Array))
  let read = 0
  for (const item of bodies) {
    const parsed = exchange.paydesk.safeParse(item)
    if (parsed.success) {
      read++
      continue
    }
    const envelope = exchange.list ? { ...(body as object), data: [item] } : item
    const violations = published(exchange.published, envelope)
    expect(
      violations,
      `Paydesk refused a body the published document allows: ${JSON.stringify(parsed.error.issues[0])}`
    ).not.toEqual([])
  }
  return read
}

// Static mode answers the documented examples; dynamic mode invents every value from the schemas (ids without the
// "Type:" prefix, random strings for enums), which Paydesk must read as the tolerant response schemas promise.
describe.each(['static', 'dynamic'] as const)('Paydesk’s client against the published OpenAPI (Prism, %s)', (mode) => {
  let prism: Awaited<ReturnType<typeof startPrismMock>>
  let client: ApiClient
  beforeAll(async () => {
    prism = await startPrismMock(mode)
    client = new ApiClient({ baseUrl: prism.baseUrl, tokenId: 'tok', clientSecret: 'secret', maxRetries: 0 })
  }, 180_000)
  afterAll(async () => {
    await client?.close()
    await prism?.close()
  })

  it.each(READS)('reads %s', async (_what, exchange) => {
    // Dynamic mode draws new values on every call: several draws. Static mode's examples must all be read.
    let read = 0
    for (let i = 0; i < (mode === 'dynamic' ? 4 : 1); i++) read += expectReadable(exchange, await exchange.call(client))
    if (mode === 'static') expect(read).toBeGreaterThan(0)
  })

  it('lists the published example accounts', async () => {
    if (mode === 'dynamic') return // only static mode answers the examples
    expect((await client.get('platform/internal-accounts', dataList(InternalAccount))).data.length).toBeGreaterThan(0)
  })

  it.each(WRITES)('can %s with a request Prism accepts', async (_what, exchange) => {
    const read = expectReadable(exchange, await exchange.call(client))
    if (mode === 'static') expect(read).toBe(1)
  })

  it('can delete an external account with a request Prism accepts', async () => {
    await expect(
      client.request('DELETE', `customers/external-accounts/${encodeURIComponent(externalAccount)}`)
    ).resolves.not.toThrow()
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

  it.each(ACCOUNTS)('creates %s with a request Prism accepts', async (_what, values) => {
    const body = toCreateRequest(values)
    expect(ExternalAccountCreateRequest.safeParse(body).success).toBe(true)
    const created = await client.request('POST', 'customers/external-accounts', { body, schema: ExternalAccount })
    expect(created.id).toEqual(expect.any(String))
  })
})
