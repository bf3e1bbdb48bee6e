import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../src/main/infra/api-client'
import {
  Customer,
  dataList,
  DiscoveryEntry,
  ExternalAccount,
  InternalAccount,
  pagedList,
  Transaction
} from '../../src/shared/api'
import {
  BANK_NAME_REQUIRED,
  FORM_ACCOUNT_TYPES,
  toCreateRequest
} from '../../src/renderer/src/views/external-accounts/account-form'
import { startTestSandbox, type TestSandbox } from '../support/sandbox'
import { startReceiver, type Receiver } from '../sandbox/http/webhooks/receiver'
import { formValues } from './form-values'
import { allowed, PROXY_ALLOW_LIST } from './proxy-allow-list'
import { startPrismProxy, type Prism } from './prism'
import { violationRecorder, type Exchange } from './proxy-violations'
import { publishedStatuses } from './published-openapi'
import { clientRequestsAndRefusals } from './proxy-session-clients'

let sandbox: TestSandbox
/** The platform's webhook endpoint: it approves every payment in its answer, as the approval protocol has it. */
let platform: Receiver
let prism: Prism
let client: ApiClient
const exchanges: Exchange[] = []

beforeAll(async () => {
  // With the seed data every default Local sandbox starts with: the session's lists read it too.
  sandbox = await startTestSandbox({ seed: true })
  platform = await startReceiver(() => sandbox.server.webhooks.publicKeyPem)
  platform.answer((d) =>
    d.type === 'INCOMING_PAYMENT.PENDING'
      ? { status: 200, body: { receiverCustomerInfo: { FULL_NAME: 'Amelia Hughes', BIRTH_DATE: '1979-11-02' } } }
      : { status: 200 }
  )
  const configured = await fetch(`${sandbox.baseUrl}/config`, {
    method: 'PATCH',
    headers: { authorization: sandbox.authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ webhookEndpoint: platform.url })
  })
  expect(configured.status).toBe(200)
  prism = await startPrismProxy(sandbox.baseUrl)
  client = new ApiClient({
    baseUrl: prism.baseUrl,
    tokenId: sandbox.tokenId,
    clientSecret: sandbox.clientSecret,
    maxRetries: 0,
    dispatcher: violationRecorder((e) => exchanges.push(e))
  })
}, 180_000)
afterAll(async () => {
  await client?.close()
  await prism?.close()
  await sandbox?.close()
  await platform?.close()
})

/** Polls through prism until `probe` has a value; generous, as each call is validated on a machine that may be loaded. */
async function eventually<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const until = Date.now() + 60_000
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

describe('the Local sandbox behind prism proxy (published OpenAPI), a full operator session', () => {
  it('speaks the published dialect: no violation outside the written allow-list', async () => {
    try {
      await operatorSession()
    } catch (error) {
      // A request Prism refused, or a response it turned into an error (--errors): say what it found on the way.
      const last = exchanges.at(-1)
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}\nlast exchange: ${JSON.stringify(last)}\n` +
          `${unexplained().join('\n')}\nPrism said:\n${prism.output().slice(-3_000)}`
      )
    }
    // Every exchange went through Prism and was validated; only allow-listed differences may remain, and every
    // answer's status is one its operation declares (an undeclared one is a difference Prism may only warn about).
    expect(exchanges.length).toBeGreaterThan(FORM_ACCOUNT_TYPES.length + 10)
    expect(unexplained()).toEqual([])
    expect(undeclared()).toEqual([])
    expect(exchanges.filter((e) => e.status >= 400).length, 'the session meets refusals too').toBeGreaterThan(8)
  }, 150_000)

  it('reads the declared statuses of an operation from the published document, by method and path', () => {
    const declared = publishedStatuses()
    expect(declared('POST', '/transfer-out')).toEqual(['201', '400', '401', '404', '500'])
    expect(declared('POST', '/quotes/Quote:1/execute')).toContain('409')
    expect(declared('POST', '/sandbox/send')).not.toContain('409')
    expect(declared('DELETE', '/customers/external-accounts/ExternalAccount:1?x=1')).toContain('204')
    expect(declared('PATCH', '/customers/Customer:1')).not.toContain('410')
    expect(declared('GET', '/no/such/operation')).toBeUndefined()
  })

  it('keeps the allow-list short and explained', () => {
    expect(PROXY_ALLOW_LIST.length).toBeLessThanOrEqual(10)
    for (const entry of PROXY_ALLOW_LIST) expect(entry.reason.length).toBeGreaterThan(20)
  })
})

function undeclared(): string[] {
  const declared = publishedStatuses()
  return exchanges
    .filter((e) => !(declared(e.method, e.path) ?? []).includes(String(e.status)))
    .map((e) => `${e.method} ${e.path} → ${e.status}, not declared by the operation`)
}

function unexplained(): string[] {
  return exchanges.flatMap((e) =>
    e.violations
      .filter((v) => !allowed(e, v))
      .map((v) => `${e.method} ${e.path} → ${e.status}: ${v.location.join('.')} ${v.code} ${v.message}`)
  )
}

async function operatorSession(): Promise<void> {
  {
    // Customers
    const customer = await client.request('POST', 'customers', {
      body: {
        customerType: 'INDIVIDUAL',
        platformCustomerId: 'op-session-1',
        fullName: 'Amelia Hughes',
        region: 'US',
        currencies: ['USD'],
        umaAddress: '$amelia@uma.example.com',
        kycStatus: 'APPROVED',
        email: 'amelia.hughes@example.com'
      },
      schema: Customer
    })
    await client.get(`customers/${encodeURIComponent(customer.id)}`, Customer)
    await client.get('customers', pagedList(Customer), { limit: 100 })

    // One account of every type the add form offers, exactly as the form builds it
    const created = new Map<string, string>()
    for (const type of FORM_ACCOUNT_TYPES) {
      const values = formValues(type, customer.id)
      if (BANK_NAME_REQUIRED.has(type)) {
        // The form offers these banks from the discovery endpoint, as the operator would pick one.
        const banks = await client.get('discoveries', dataList(DiscoveryEntry), { currency: values['currency']! })
        values['accountInfo.bankName'] = String(banks.data[0]?.bankName)
      }
      const body = toCreateRequest(values)
      const account = await client
        .request('POST', 'customers/external-accounts', { body, schema: ExternalAccount })
        .catch((error: unknown) => {
          throw new Error(`${type}: ${String(error)} ${JSON.stringify((error as { details?: unknown }).details)}`)
        })
      created.set(type, account.id)
    }
    await client.get('customers/external-accounts', pagedList(ExternalAccount), { customerId: customer.id, limit: 100 })
    await client.get('platform/external-accounts', pagedList(ExternalAccount), { limit: 100 })

    // Funding, then money out to the US bank account
    const internal = await client.get('customers/internal-accounts', pagedList(InternalAccount), {
      customerId: customer.id,
      limit: 100
    })
    const usd = internal.data.find((a) => a.balance.currency.code === 'USD')
    expect(usd, 'the customer has a USD internal account').toBeDefined()
    await client.request('POST', `sandbox/internal-accounts/${encodeURIComponent(usd!.id)}/fund`, {
      body: { amount: 500_00 },
      schema: InternalAccount
    })
    await client.get('platform/internal-accounts', dataList(InternalAccount))
    const destination = created.get('USD_ACCOUNT')!
    await eventually(async () => {
      const a = await client.get(`customers/external-accounts/${encodeURIComponent(destination)}`, ExternalAccount)
      return a.status === 'ACTIVE' ? a : undefined
    }, 'the US bank account to be ACTIVE')
    const sent = await client.request('POST', 'transfer-out', {
      body: { source: { accountId: usd!.id }, destination: { accountId: destination }, amount: 125_00 },
      idempotencyKey: 'session-transfer-1',
      retry: 'idempotent',
      schema: Transaction
    })
    await client.get(`transactions/${encodeURIComponent(sent.id)}`, Transaction)

    // A payment received, approved by the platform's answer to its approval webhook; approve after that is refused
    const received = await client.request('POST', 'sandbox/uma/receive', {
      body: {
        senderUmaAddress: '$success.usd@sandbox.uma.money',
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 10_00,
        customerId: customer.id
      },
      schema: Transaction
    })
    await eventually(async () => {
      const t = await client.get(`transactions/${encodeURIComponent(received.id)}`, Transaction)
      return t.status === 'PROCESSING' || t.status === 'COMPLETED' ? t : undefined
    }, 'the received payment to be approved')
    await expect(
      client.request('POST', `transactions/${encodeURIComponent(received.id)}/approve`, {
        body: { receiverCustomerInfo: { FULL_NAME: 'Amelia Hughes' } },
        schema: Transaction
      })
    ).rejects.toMatchObject({ httpStatus: 409 })

    // The transaction list, page by page
    let cursor: string | undefined
    let pages = 0
    const seen: string[] = []
    do {
      // The customer's own: the seeded history would take more pages than the loop reads.
      const page = await client.get('transactions', pagedList(Transaction), {
        customerId: customer.id,
        startDate: '2020-01-01T00:00:00Z',
        sortOrder: 'asc',
        limit: 1,
        ...(cursor && { cursor })
      })
      seen.push(...page.data.map((t) => t.id))
      cursor = page.hasMore ? page.nextCursor : undefined
      pages++
    } while (cursor && pages < 20)
    expect(pages).toBeGreaterThan(1)
    expect(seen).toEqual(expect.arrayContaining([sent.id, received.id]))

    // Discoveries, then deleting an account
    await client.get('discoveries', dataList(DiscoveryEntry), { country: 'US', currency: 'USD' })
    await client.request('DELETE', `customers/external-accounts/${encodeURIComponent(created.get('SPARK_WALLET')!)}`)

    // What the official clients send, and the refusals an operator meets, each in the operation's published terms
    await clientRequestsAndRefusals(client, { customerId: customer.id, usdInternal: usd!.id, usdAccount: destination })
  }
}
