/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies under test are untyped JSON, checked by assertions and the shared schemas */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IncomingTransaction } from '../../../src/shared/api/transaction'
import { DURATIONS } from '../../../src/sandbox/state/timing'
import {
  balanceOf,
  type Client,
  createCustomer,
  createUsAccount,
  DEFER,
  expectError,
  expectNewTransaction,
  fakeClock,
  internalAccountOf,
  KNOWN_RECEIVER,
  platformFor,
  sandboxForSuite,
  start,
  type Platform
} from '../util'

// A stepped clock drives every deadline and settlement of the suite: a payment moves on only when a test advances
// time, so nothing a test checks can change under it however slow the machine is (at a scaled real clock the 30 ms
// settlement used to credit the account before "nothing credited yet" was read).
const clock = fakeClock()
const c = sandboxForSuite({ now: clock.now, timeScale: 1 })
// The platform defers every approval webhook (202): approve/reject then decide, within 5 s of the stepped clock.
let platform: Platform
beforeAll(async () => {
  platform = await platformFor(c)
})
afterAll(async () => {
  await platform.close()
})
const elapse = (seconds: number) => clock.advance(seconds * 1000)
const statusOf = async (id: string) => (await c.get(`/transactions/${id}`)).body

const SUCCESS = '$success.usd@sandbox.uma.money'
const receive = (cl: Client, body: Record<string, unknown>) =>
  cl.post('/sandbox/uma/receive', {
    senderUmaAddress: SUCCESS,
    receivingCurrencyCode: 'USD',
    receivingCurrencyAmount: 10_000,
    ...body
  })

/** A payment already approved or rejected takes neither decision again. */
async function expectDecided(id: string): Promise<void> {
  for (const decision of ['approve', 'reject']) {
    expectError(await c.post(`/transactions/${id}/${decision}`, {}), 409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL')
  }
}

describe('POST /sandbox/uma/receive', () => {
  it('creates an incoming payment waiting for approval (PENDING), to the primary internal account', async () => {
    const cust = await createCustomer(c)
    const internal = await internalAccountOf(c, cust.id)
    const r = await receive(c, { customerId: cust.id, receivingCurrencyAmount: 12_345 })
    expect(r.status, r.text).toBe(200)
    const tx = IncomingTransaction.parse(r.body)
    expectNewTransaction(tx, 'INCOMING', cust)
    expect(tx.receivedAmount).toMatchObject({ amount: 12_345, currency: { code: 'USD' } })
    expect(tx.destination).toMatchObject({ destinationType: 'ACCOUNT', accountId: internal, currency: 'USD' })
    expect(tx.source).toMatchObject({ sourceType: 'UMA_ADDRESS', umaAddress: SUCCESS })
    expect(tx.reconciliationInstructions?.reference).toMatch(/\S/)
    expect(tx.rateDetails?.gridApiFixedFee).toBeGreaterThanOrEqual(0)
    expect(await balanceOf(c, internal, cust.id)).toBe(0)
  })

  it('finds the receiver by umaAddress', async () => {
    const cust = await createCustomer(c, { umaAddress: '$receiver.one@uma.example.com' })
    const r = await receive(c, { receiverUmaAddress: '$receiver.one@uma.example.com' })
    expect(r.status, r.text).toBe(200)
    expect(r.body.customerId).toBe(cust.id)
    expectError(await receive(c, { receiverUmaAddress: '$nobody@uma.example.com' }), 404, 'USER_NOT_FOUND')
    const other = await createCustomer(c)
    expectError(await receive(c, { receiverUmaAddress: '$receiver.one@uma.example.com', customerId: other.id }), 400)
  })

  it('404 for an unknown sender; 400 without a receiver; nothing is created', async () => {
    const cust = await createCustomer(c)
    const before = c.sb.server.state.store.transactions.size
    expectError(await receive(c, { customerId: cust.id, senderUmaAddress: '$someone@sandbox.uma.money' }), 404)
    expectError(await receive(c, { customerId: cust.id, senderUmaAddress: '$success.jpy@sandbox.uma.money' }), 404)
    expectError(await receive(c, {}), 400, 'INVALID_INPUT')
    expectError(await receive(c, { customerId: 'Customer:nope' }), 404, 'USER_NOT_FOUND')
    expectError(await receive(c, { customerId: cust.id, receivingCurrencyAmount: 0 }), 400, 'INVALID_INPUT')
    expectError(await receive(c, { customerId: cust.id, receivingCurrencyAmount: 1.25 }), 400, 'INVALID_INPUT')
    expectError(await receive(c, { customerId: cust.id, receivingCurrencyCode: 'GBP' }), 400, 'INVALID_CURRENCY')
    expect(c.sb.server.state.store.transactions.size).toBe(before)
  })

  it.each([
    ['Kay Park 001', 'PENDING'],
    ['Kay Park 002', 'REJECTED'],
    ['Kay Park 003', 'UNVERIFIED']
  ])('403 USER_NOT_READY for a customer whose KYC is %s', async (fullName) => {
    const cust = await createCustomer(c, { fullName })
    expectError(await receive(c, { customerId: cust.id }), 403, 'USER_NOT_READY')
  })

  it('accepts each test sender; $success.eur and $success.mxn convert into the receiving currency', async () => {
    const cust = await createCustomer(c)
    for (const sender of [
      '$success.eur@sandbox.uma.money',
      '$success.mxn@sandbox.uma.money',
      '$success.usd@sandbox.grid.uma.money'
    ]) {
      const r = await receive(c, { customerId: cust.id, senderUmaAddress: sender })
      expect(r.status, `${sender}: ${r.text}`).toBe(200)
      expect(r.body.receivedAmount.amount).toBe(10_000)
      expect(r.body.source.currency).toBe(sender.includes('.eur') ? 'EUR' : sender.includes('.mxn') ? 'MXN' : 'USD')
    }
  })

  it('$fail.compliance.usd fails at once with a failureReason and credits nothing', async () => {
    const cust = await createCustomer(c)
    const internal = await internalAccountOf(c, cust.id)
    const r = await receive(c, { customerId: cust.id, senderUmaAddress: '$fail.compliance.usd@sandbox.uma.money' })
    expect(r.status).toBe(200)
    expect(r.body.status).toBe('FAILED')
    expect(r.body.failureReason).toBeTruthy()
    expectError(
      await c.post(`/transactions/${r.body.id}/approve`, {}),
      409,
      'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL'
    )
    expect(await balanceOf(c, internal, cust.id)).toBe(0)
  })
})

describe('approve / reject / timeout', () => {
  /** A payment whose approval webhook was answered 202: approve/reject decide it. */
  const deferred = (customerId: string, extra: Record<string, unknown> = {}) =>
    platform.receive(customerId, DEFER, { receivingCurrencyAmount: 10_000, ...extra })

  it('approve → PROCESSING → COMPLETED, crediting the primary internal account', async () => {
    const cust = await createCustomer(c, KNOWN_RECEIVER)
    const internal = await internalAccountOf(c, cust.id)
    const tx = await deferred(cust.id, { receivingCurrencyAmount: 4_321 })
    const r = await c.post(`/transactions/${tx.id}/approve`, {
      receiverCustomerInfo: { FULL_NAME: 'Test Person', BIRTH_DATE: '1990-01-01' }
    })
    expect(r.status, r.text).toBe(200)
    expect(IncomingTransaction.parse(r.body).status).toBe('PROCESSING')
    expect(await balanceOf(c, internal, cust.id)).toBe(0)
    elapse(DURATIONS.incomingProcessing)
    const done = await statusOf(tx.id)
    expect(done.status).toBe('COMPLETED')
    expect(done.settledAt).toBeTruthy()
    expect(await balanceOf(c, internal, cust.id)).toBe(4_321)
    await expectDecided(tx.id)
  })

  it('approve accepts an empty body', async () => {
    const cust = await createCustomer(c, KNOWN_RECEIVER)
    const tx = await deferred(cust.id)
    const r = await c.req('POST', `/transactions/${tx.id}/approve`)
    expect(r.status, r.text).toBe(200)
  })

  it('validates the approve body', async () => {
    const cust = await createCustomer(c, KNOWN_RECEIVER)
    const tx = await deferred(cust.id)
    expectError(
      await c.post(`/transactions/${tx.id}/approve`, { receiverCustomerInfo: { fullName: 'x' } }),
      400,
      'INVALID_INPUT'
    )
    expectError(await c.post(`/transactions/${tx.id}/approve`, { somethingElse: 1 }), 400, 'INVALID_INPUT')
    expect((await c.get(`/transactions/${tx.id}`)).body.status).toBe('PENDING')
  })

  it('deposits into the default deposit external account when one is set (no internal credit)', async () => {
    const cust = await createCustomer(c, KNOWN_RECEIVER)
    const internal = await internalAccountOf(c, cust.id)
    const dep = await createUsAccount(c, cust.id, '6060606060', { defaultUmaDepositAccount: true })
    elapse(DURATIONS.accountVerification)
    expect((await c.get(`/customers/external-accounts/${dep.id}`)).body.status).toBe('ACTIVE')
    const tx = await deferred(cust.id, { receivingCurrencyAmount: 9_999 })
    expect(tx.destination.accountId).toBe(dep.id)
    expect((await c.post(`/transactions/${tx.id}/approve`, {})).status).toBe(200)
    elapse(DURATIONS.incomingProcessing)
    expect((await statusOf(tx.id)).status).toBe('COMPLETED')
    expect(await balanceOf(c, internal, cust.id)).toBe(0)
    const list = await c.get(`/transactions?receiverAccountIdentifier=${encodeURIComponent(dep.id)}`)
    expect(list.body.data.map((t: any) => t.id)).toEqual([tx.id])
  })

  it('409 when the default deposit account is not ACTIVE yet', async () => {
    const cust = await createCustomer(c, KNOWN_RECEIVER)
    await createUsAccount(c, cust.id, '6060606104', { defaultUmaDepositAccount: true })
    expectError(await receive(c, { customerId: cust.id }), 409, 'EXTERNAL_ACCOUNT_NOT_ACTIVE')
  })

  it('reject → REJECTED, nothing credited, then 409', async () => {
    const cust = await createCustomer(c, KNOWN_RECEIVER)
    const internal = await internalAccountOf(c, cust.id)
    const tx = await deferred(cust.id)
    const r = await c.post(`/transactions/${tx.id}/reject`, { reason: 'RESTRICTED_JURISDICTION' })
    expect(r.status).toBe(200)
    expect(r.body.status).toBe('REJECTED')
    // Past the 5 s: the cancelled deadline does not turn the rejection into a failure.
    elapse(DURATIONS.approvalDeferral)
    expect((await statusOf(tx.id)).status).toBe('REJECTED')
    expect(await balanceOf(c, internal, cust.id)).toBe(0)
    await expectDecided(tx.id)
  })

  it('deferred (202), then no decision within 5 s → FAILED with PAYMENT_APPROVAL_TIMED_OUT', async () => {
    const cust = await createCustomer(c, KNOWN_RECEIVER)
    const tx = await deferred(cust.id)
    elapse(DURATIONS.approvalDeferral)
    const failed = await statusOf(tx.id)
    expect(failed).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' })
    expectError(await c.post(`/transactions/${tx.id}/approve`, {}), 409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL')
  })

  it('the 5 s after a 202 are exact and observable at once (stepped clock)', async () => {
    const clock = fakeClock()
    const fc = await start({ now: clock.now, timeScale: 1 })
    const own = await platformFor(fc)
    try {
      const cust = await createCustomer(fc, KNOWN_RECEIVER)
      const a = await own.receive(cust.id, DEFER)
      const b = await own.receive(cust.id, DEFER)
      clock.advance(4_999)
      expect((await fc.get(`/transactions/${a.id}`)).body.status).toBe('PENDING')
      expect((await fc.post(`/transactions/${b.id}/approve`, {})).status).toBe(200)
      clock.advance(1)
      const r = (await fc.get(`/transactions/${a.id}`)).body
      expect(r).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' })
      expect((await fc.get(`/transactions/${b.id}`)).body.status).not.toBe('FAILED')
    } finally {
      await own.close()
      await fc.sb.close()
    }
  })

  it('$pending.long.usd stays PROCESSING long after approval', async () => {
    const cust = await createCustomer(c, KNOWN_RECEIVER)
    const internal = await internalAccountOf(c, cust.id)
    const tx = await deferred(cust.id, { senderUmaAddress: '$pending.long.usd@sandbox.uma.money' })
    expect((await c.post(`/transactions/${tx.id}/approve`, {})).status).toBe(200)
    const normal = await deferred(cust.id)
    expect((await c.post(`/transactions/${normal.id}/approve`, {})).status).toBe(200)
    elapse(DURATIONS.pendingLong - 1)
    expect((await statusOf(normal.id)).status).toBe('COMPLETED')
    expect((await statusOf(tx.id)).status).toBe('PROCESSING')
    expect(await balanceOf(c, internal, cust.id)).toBe(10_000)
    elapse(1)
    expect((await statusOf(tx.id)).status).toBe('COMPLETED')
    expect(await balanceOf(c, internal, cust.id)).toBe(20_000)
  })

  it('approve/reject 404 for unknown ids', async () => {
    expectError(await c.post('/transactions/Transaction:nope/approve', {}), 404, 'TRANSACTION_NOT_FOUND')
    expectError(await c.post('/transactions/Transaction:nope/reject', {}), 404, 'TRANSACTION_NOT_FOUND')
  })
})
