/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies under test are untyped JSON, checked by assertions and the shared schemas */
import { afterAll, beforeAll, expect } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../support/sandbox'
import type { SandboxServerOptions } from '../../src/sandbox/server'
import { sandboxSparkAddress } from '../../src/sandbox/engine/seed'
import { DURATIONS } from '../../src/sandbox/state/timing'
import { startReceiver, type Answer, type Receiver } from './http/webhooks/receiver'

export interface Res<T = any> {
  status: number
  body: T
  headers: Headers
  text: string
}

export interface Client {
  sb: TestSandbox
  req<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Res<T>>
  get<T = any>(path: string, headers?: Record<string, string>): Promise<Res<T>>
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>): Promise<Res<T>>
  patch<T = any>(path: string, body?: unknown): Promise<Res<T>>
  del<T = any>(path: string): Promise<Res<T>>
}

export function client(sb: TestSandbox): Client {
  const req = async <T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {}
  ): Promise<Res<T>> => {
    const h: Record<string, string> = { authorization: sb.authorization, ...headers }
    let payload: string | undefined
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body)
      h['content-type'] ??= 'application/json'
    }
    const r = await fetch(sb.baseUrl + path, {
      method,
      headers: h,
      ...(payload !== undefined ? { body: payload } : {})
    })
    const text = await r.text()
    let parsed: unknown = undefined
    if (text.length > 0) {
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = text
      }
    }
    return { status: r.status, body: parsed as T, headers: r.headers, text }
  }
  return {
    sb,
    req,
    get: (p, h) => req('GET', p, undefined, h),
    post: (p, b, h) => req('POST', p, b, h),
    patch: (p, b) => req('PATCH', p, b),
    del: (p) => req('DELETE', p)
  }
}

export async function start(opts: SandboxServerOptions = {}): Promise<Client> {
  return client(await startTestSandbox(opts))
}

/**
 * One sandbox for a whole test file: started before its tests, closed after them (checking the ledger first unless
 * `ledger` is false). The returned client is filled in by the time any test runs.
 */
export function sandboxForSuite(opts: SandboxServerOptions = {}, { ledger = true } = {}): Client {
  const suite = {} as Client
  beforeAll(async () => {
    Object.assign(suite, await start(opts))
  })
  afterAll(async () => {
    if (ledger) expectLedgerConsistent(suite)
    await suite.sb.close()
  })
  return suite
}

/** An incoming payment from the sandbox's always-successful USD sender (`extra` may name another sender or amount). */
export function receiveUsd(c: Client, customerId: string, extra: Record<string, unknown> = {}): Promise<Res> {
  return c.post('/sandbox/uma/receive', {
    senderUmaAddress: '$success.usd@sandbox.uma.money',
    customerId,
    receivingCurrencyCode: 'USD',
    receivingCurrencyAmount: 100,
    ...extra
  })
}

/** A transfer from an internal account to an external one (POST /transfer-out), as the platform sends it. */
export function transferOut(c: Client, source: string, destination: string, amount?: number): Promise<Res> {
  return c.post('/transfer-out', { source: { accountId: source }, destination: { accountId: destination }, amount })
}

/** A customer the sandbox's senders ask nothing about (fullName, birthDate and nationality on record). */
export const KNOWN_RECEIVER = { fullName: 'Test Person', birthDate: '1990-01-15', nationality: 'US' }

/** Answers to an approval webhook (docs/real-service.md): 200 approves, 403 rejects, 202 defers to approve/reject. */
export const APPROVE: Answer = { status: 200, body: {} }
export const REJECT: Answer = { status: 403, body: { reason: 'RESTRICTED_JURISDICTION' } }
export const DEFER: Answer = { status: 202 }

/**
 * The platform's end of the approval protocol, for tests that need an incoming payment decided: a signed-webhook
 * receiver set as the sandbox's webhookEndpoint. `receive` makes a payment and returns it once the answer to its
 * approval webhook has been applied (awaited, never timed): approved, rejected, or deferred, when approve/reject are
 * taken within the next 5 s of the sandbox's clock (a stepped clock makes that window exact).
 */
export interface Platform {
  receiver: Receiver
  receive(customerId: string, answer: Answer, extra?: Record<string, unknown>): Promise<any>
  close(): Promise<void>
}

export async function platformFor(c: Client): Promise<Platform> {
  const receiver = await startReceiver(() => c.sb.server.webhooks.publicKeyPem)
  const r = await c.patch('/config', { webhookEndpoint: receiver.url })
  expect(r.status, r.text).toBe(200)
  return {
    receiver,
    async receive(customerId, answer, extra = {}) {
      receiver.answer((d) => (d.type === 'INCOMING_PAYMENT.PENDING' ? answer : { status: 200 }))
      const made = await receiveUsd(c, customerId, extra)
      expect(made.status, made.text).toBe(200)
      // Its own webhook: payments made without `receive` may have queued theirs before it.
      while ((await receiver.next('INCOMING_PAYMENT.PENDING')).json.data.id !== made.body.id);
      await c.sb.server.webhooks.idle()
      return (await c.get(`/transactions/${made.body.id}`)).body
    },
    close: () => receiver.close()
  }
}

/** Poll `probe` until `accept` holds (or fail after `timeoutMs`). */
export async function waitFor<T>(probe: () => Promise<T>, accept: (v: T) => boolean, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs
  let last: T = await probe()
  while (!accept(last)) {
    if (Date.now() > until) throw new Error(`waitFor timed out; last value: ${JSON.stringify(last)}`)
    await new Promise((r) => setTimeout(r, 10))
    last = await probe()
  }
  return last
}

export function expectError(res: Res, status: number, code?: string): void {
  expect(res.status, res.text).toBe(status)
  expect(res.body).toMatchObject({ status, code: expect.any(String), message: expect.any(String) })
  if (code) expect(res.body.code).toBe(code)
}

/**
 * A refusal the published API has no status or code for in that operation: 400 INVALID_INPUT with the sandbox's
 * reason in details (docs/real-service.md, "Errors").
 */
export function expectRefusal(res: Res, reason: string): void {
  expectError(res, 400, 'INVALID_INPUT')
  expect(res.body.details?.reason, res.text).toBe(reason)
}

/** A transaction the sandbox has just created: of `type`, PENDING, naming its customer by both of its ids. */
export function expectNewTransaction(
  tx: unknown,
  type: 'INCOMING' | 'OUTGOING',
  customer: { id: string; platformCustomerId?: string }
): void {
  expect(tx).toMatchObject({
    type,
    status: 'PENDING',
    customerId: customer.id,
    platformCustomerId: customer.platformCustomerId
  })
}

export const usBeneficiary = {
  beneficiaryType: 'INDIVIDUAL',
  fullName: 'Test Person',
  address: { line1: '1 Test Street', city: 'Austin', postalCode: '73301', country: 'US' }
}

export async function createCustomer(c: Client, extra: Record<string, unknown> = {}): Promise<any> {
  const r = await c.post('/customers', { customerType: 'INDIVIDUAL', region: 'US', fullName: 'Test Person', ...extra })
  expect(r.status, r.text).toBe(201)
  return r.body
}

/**
 * A suite that creates external accounts: its own sandbox (no ledger check), one customer made before its tests, and US
 * account numbers from `firstNumber` up, so each suite's numbers differ and the sandbox's duplicate check only fires
 * where a test means it to.
 */
export function externalAccountSuite(firstNumber: number): {
  c: Client
  customer: { id: string }
  nextNumber: (suffix?: string) => string
} {
  const c = sandboxForSuite({}, { ledger: false })
  const customer = { id: '' }
  beforeAll(async () => {
    customer.id = (await createCustomer(c)).id
  })
  let seq = firstNumber
  return { c, customer, nextNumber: (suffix = '') => `${String(seq++).padStart(7, '1')}${suffix}` }
}

export function usAccountBody(
  customerId: string | undefined,
  accountNumber: string,
  extra: Record<string, unknown> = {}
) {
  return {
    ...(customerId ? { customerId } : {}),
    currency: 'USD',
    accountInfo: {
      accountType: 'US_ACCOUNT',
      accountNumber,
      routingNumber: '021000021',
      accountCategory: 'CHECKING',
      beneficiary: usBeneficiary
    },
    ...extra
  }
}

export async function createUsAccount(
  c: Client,
  customerId: string | undefined,
  accountNumber: string,
  extra: Record<string, unknown> = {}
) {
  const r = await c.post('/customers/external-accounts', usAccountBody(customerId, accountNumber, extra))
  expect(r.status, r.text).toBe(201)
  return r.body
}

/** A customer's USD internal account id. */
export async function internalAccountOf(c: Client, customerId: string, currency = 'USD'): Promise<string> {
  const r = await c.get(
    `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=${currency}`
  )
  expect(r.status, r.text).toBe(200)
  expect(r.body.data).toHaveLength(1)
  return r.body.data[0].id
}

export async function balanceOf(c: Client, accountId: string, customerId?: string): Promise<number> {
  const r = customerId
    ? await c.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&limit=100`)
    : await c.get('/platform/internal-accounts')
  const a = r.body.data.find((x: { id: string }) => x.id === accountId)
  expect(a, `account ${accountId}`).toBeTruthy()
  return a.balance.amount
}

export async function activeAccount(c: Client, id: string): Promise<any> {
  return (
    await waitFor(
      () => c.get(`/customers/external-accounts/${id}`),
      (r) => r.body?.status === 'ACTIVE'
    )
  ).body
}

export async function txStatus(c: Client, id: string, status: string, timeoutMs = 5000): Promise<any> {
  return (
    await waitFor(
      () => c.get(`/transactions/${id}`),
      (r) => r.body?.status === status,
      timeoutMs
    )
  ).body
}

/**
 * A funded, KYC-approved customer with an ACTIVE US account ending in `suffix`. On a stepped sandbox (`elapse` given)
 * the verification's time is stepped over instead of waited for.
 */
export async function payer(
  c: Client,
  accountNumber = '1234567890',
  fund = 1_000_000,
  elapse?: (seconds: number) => void
) {
  const customer = await createCustomer(c)
  const internal = await internalAccountOf(c, customer.id)
  if (fund > 0) expect((await c.post(`/sandbox/internal-accounts/${internal}/fund`, { amount: fund })).status).toBe(200)
  const account = await createUsAccount(c, customer.id, accountNumber)
  if (elapse) {
    elapse(DURATIONS.accountVerification)
    expect((await c.get(`/customers/external-accounts/${account.id}`)).body.status).toBe('ACTIVE')
  } else {
    await activeAccount(c, account.id)
  }
  return { customer, internal, account }
}

export const sparkAddress = sandboxSparkAddress

/** Fake clock for tests that step time explicitly. */
export function fakeClock(start = Date.parse('2025-10-13T12:00:00Z')) {
  let now = start
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms
    },
    set: (ms: number) => {
      now = ms
    }
  }
}

/**
 * A sandbox on a stepped clock at time scale 1: nothing moves on until the test advances time (`elapse`, in the
 * service's seconds), so what a test reads between two steps cannot change under it however slow the machine is.
 */
export async function startStepped(opts: SandboxServerOptions = {}) {
  const clock = fakeClock()
  const c = await start({ ...opts, now: clock.now, timeScale: 1 })
  return { c, clock, elapse: (seconds: number) => clock.advance(seconds * 1000) }
}

/** Balance = sum of the ledger journal, never negative, for every internal account. */
export function expectLedgerConsistent(c: Client): void {
  const { store, engine } = c.sb.server.state
  const totals = engine.ledgerTotals()
  for (const a of store.internalAccounts.values()) {
    expect(a.data.balance.amount, a.id).toBeGreaterThanOrEqual(0)
    expect(a.data.balance.amount, `balance of ${a.id} equals its journal`).toBe(totals.get(a.id) ?? 0)
  }
}
