import { beforeAll, describe, expect, it } from 'vitest'
import { Quote } from '../../../src/shared/api/quote'
import { OutgoingTransaction } from '../../../src/shared/api/transaction'
import { DURATIONS } from '../../../src/sandbox/state/timing'
import {
  activeAccount,
  balanceOf,
  type Client,
  createCustomer,
  expectError,
  expectRefusal,
  expectLedgerConsistent,
  fakeClock,
  internalAccountOf,
  sandboxForSuite,
  start,
  startStepped,
  txStatus,
  usAccountBody
} from '../util'

const c = sandboxForSuite()
let platformUsd: string
beforeAll(async () => {
  platformUsd = (await c.get('/platform/internal-accounts?currency=USD')).body.data[0].id
  await c.post(`/sandbox/internal-accounts/${platformUsd}/fund`, { amount: 10_000_000 })
})

/** A platform quote to a new MXN account with this CLABE, sent; with the platform's USD balance before it. */
async function sendQuoteTo(clabe: string) {
  const dest = await mxnAccount(c, clabe)
  const before = await balanceOf(c, platformUsd)
  const q = (await c.post('/quotes', quoteBody(platformUsd, dest))).body
  await c.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD' })
  return { q, before }
}

/** A Mexican customer's CLABE account, just added: the service is still verifying it (PENDING). Its id. */
async function pendingMxnAccount(cl: Client, clabe: string): Promise<string> {
  const cust = await createCustomer(cl, { region: 'MX', fullName: 'Carla Ruiz' })
  const r = await cl.post('/customers/external-accounts', {
    customerId: cust.id,
    currency: 'MXN',
    accountInfo: {
      accountType: 'MXN_ACCOUNT',
      clabeNumber: clabe,
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Carla Ruiz' }
    }
  })
  expect(r.status, r.text).toBe(201)
  return r.body.id
}

/** On a stepped sandbox (`elapse` given) the account's verification is stepped over instead of waited for. */
async function mxnAccount(cl: Client, clabe: string, elapse?: (seconds: number) => void): Promise<string> {
  const id = await pendingMxnAccount(cl, clabe)
  if (elapse) {
    elapse(DURATIONS.accountVerification)
    expect((await cl.get(`/customers/external-accounts/${id}`)).body.status).toBe('ACTIVE')
  } else {
    await activeAccount(cl, id)
  }
  return id
}

const quoteBody = (source: string, dest: string, extra: Record<string, unknown> = {}) => ({
  source: { sourceType: 'ACCOUNT', accountId: source },
  destination: { destinationType: 'ACCOUNT', accountId: dest },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: 10_000,
  ...extra
})

/** The platform's USD account on `sandbox`, funded with `amount` (minor units): what these tests' quotes pay from. */
async function fundedPlatformUsd(sandbox: Client, amount: number): Promise<string> {
  const id = (await sandbox.get('/platform/internal-accounts?currency=USD')).body.data[0].id
  await sandbox.post(`/sandbox/internal-accounts/${id}/fund`, { amount })
  return id
}

describe('POST /quotes, GET /quotes/{id}', () => {
  it('accepts the published lookupId, purposeOfPayment and senderCustomerInfo the official clients send', async () => {
    const dest = await mxnAccount(c, '012180015000000122')
    const r = await c.post(
      '/quotes',
      quoteBody(platformUsd, dest, {
        lookupId: 'Lookup:019542f5-b3e7-1d02-0000-000000000009',
        purposeOfPayment: 'GOODS_OR_SERVICES',
        senderCustomerInfo: { FULL_NAME: 'Jane Sender', NATIONALITY: 'FR' }
      })
    )
    expect(r.status, r.text).toBe(201)
    expect(Quote.parse(r.body).status).toBe('PENDING')
  })

  it('creates a PENDING quote with a PENDING outgoing transaction whose amounts add up', async () => {
    const dest = await mxnAccount(c, '012180015000000123')
    const r = await c.post('/quotes', quoteBody(platformUsd, dest, { description: 'Invoice 7' }))
    expect(r.status, r.text).toBe(201)
    const q = Quote.parse(r.body)
    expect(q.id).toMatch(/^Quote:/)
    expect(q).toMatchObject({ status: 'PENDING', totalSendingAmount: 10_000, feesIncluded: 10 })
    expect(q.sendingCurrency?.code).toBe('USD')
    expect(q.receivingCurrency?.code).toBe('MXN')
    expect(Date.parse(q.expiresAt as string)).toBeGreaterThan(Date.parse(q.createdAt as string))
    // 9 990 cents at 0.055 USD per MXN ≈ 181 636 centavos
    expect(q.totalReceivingAmount).toBe(Math.floor(((10_000 - 10) / 100 / 0.055) * 100))
    expect((await c.get(`/quotes/${q.id}`)).body).toEqual(r.body)
    const tx = OutgoingTransaction.parse((await c.get(`/transactions/${q.transactionId}`)).body)
    expect(tx).toMatchObject({ status: 'PENDING', quoteId: q.id, fees: 10, description: 'Invoice 7' })
    expect(tx.sentAmount.amount).toBe(q.totalSendingAmount)
    expect(tx.receivedAmount?.amount).toBe(q.totalReceivingAmount)
  })

  it('locks the receiving side', async () => {
    const dest = await mxnAccount(c, '012180015000000124')
    const r = await c.post(
      '/quotes',
      quoteBody(platformUsd, dest, { lockedCurrencySide: 'RECEIVING', lockedCurrencyAmount: 100_000 })
    )
    expect(r.status, r.text).toBe(201)
    expect(r.body.totalReceivingAmount).toBe(100_000)
    const net = r.body.totalSendingAmount - r.body.feesIncluded
    expect(Math.floor((net / 100 / 0.055) * 100)).toBeGreaterThanOrEqual(100_000)
    expect(Math.floor(((net - 1) / 100 / 0.055) * 100)).toBeLessThan(100_000)
  })

  it('validates: 400 for bad bodies, unknown accounts and a non-ACTIVE destination (POST /quotes has no 404, 409)', async () => {
    const dest = await mxnAccount(c, '012180015000000125')
    expectError(
      await c.post('/quotes', { ...quoteBody(platformUsd, dest), lockedCurrencySide: 'BOTH' }),
      400,
      'INVALID_INPUT'
    )
    expectError(
      await c.post('/quotes', { ...quoteBody(platformUsd, dest), lockedCurrencyAmount: -5 }),
      400,
      'INVALID_INPUT'
    )
    const unknownSource = await c.post('/quotes', quoteBody('InternalAccount:nope', dest))
    expectRefusal(unknownSource, 'REFERENCE_NOT_FOUND')
    expect(unknownSource.body.details.field).toBe('source.accountId')
    const unknownDestination = await c.post('/quotes', quoteBody(platformUsd, 'ExternalAccount:nope'))
    expectRefusal(unknownDestination, 'REFERENCE_NOT_FOUND')
    expect(unknownDestination.body.details.field).toBe('destination.accountId')
    const pending = await pendingMxnAccount(c, '012180015000000104')
    expectRefusal(await c.post('/quotes', quoteBody(platformUsd, pending)), 'EXTERNAL_ACCOUNT_NOT_ACTIVE')
    expectError(await c.get('/quotes/Quote:nope'), 404, 'QUOTE_NOT_FOUND')
  })
})

describe('POST /sandbox/send', () => {
  it('funds the quote: PROCESSING → COMPLETED, debiting totalSendingAmount once', async () => {
    // Its own sandbox on a stepped clock: PROCESSING lasts until the test steps past it, however loaded the machine.
    const { c: slow, elapse } = await startStepped()
    try {
      const usd = await fundedPlatformUsd(slow, 10_000_000)
      const dest = await mxnAccount(slow, '012180015000000126', elapse)
      const q = (await slow.post('/quotes', quoteBody(usd, dest))).body
      const before = await balanceOf(slow, usd)
      const r = await slow.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD' })
      expect(r.status, r.text).toBe(200)
      const tx = OutgoingTransaction.parse(r.body)
      expect(tx).toMatchObject({ id: q.transactionId, status: 'PROCESSING', quoteId: q.id })
      expect(await balanceOf(slow, usd)).toBe(before - q.totalSendingAmount)
      expect((await slow.get(`/quotes/${q.id}`)).body.status).toBe('PROCESSING')
      elapse(DURATIONS.outgoingProcessing)
      expect((await slow.get(`/transactions/${tx.id}`)).body.status).toBe('COMPLETED')
      expect((await slow.get(`/quotes/${q.id}`)).body.status).toBe('COMPLETED')
      // Sandbox send publishes no 409.
      expectRefusal(await slow.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD' }), 'QUOTE_NOT_PENDING')
      expect(await balanceOf(slow, usd)).toBe(before - q.totalSendingAmount)
      // an outgoing payment cannot be approved or rejected
      expectError(
        await slow.post(`/transactions/${tx.id}/approve`, {}),
        409,
        'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL'
      )
      expectLedgerConsistent(slow)
    } finally {
      await slow.sb.close()
    }
  })

  it('a wrong currency is 400 and changes nothing; a wrong amount fails the payment (FUNDING_AMOUNT_MISMATCH)', async () => {
    const dest = await mxnAccount(c, '012180015000000127')
    const q = (await c.post('/quotes', quoteBody(platformUsd, dest))).body
    const before = await balanceOf(c, platformUsd)
    expectError(await c.post('/sandbox/send', { quoteId: q.id, currencyCode: 'EUR' }), 400, 'INVALID_CURRENCY')
    expect((await c.get(`/quotes/${q.id}`)).body.status).toBe('PENDING')
    const r = await c.post('/sandbox/send', {
      quoteId: q.id,
      currencyCode: 'USD',
      currencyAmount: q.totalSendingAmount + 1
    })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ status: 'FAILED', failureReason: 'FUNDING_AMOUNT_MISMATCH' })
    expect(await balanceOf(c, platformUsd)).toBe(before)
    expectError(await c.post('/sandbox/send', { quoteId: 'Quote:nope', currencyCode: 'USD' }), 404, 'QUOTE_NOT_FOUND')
    expectError(await c.post('/sandbox/send', { quoteId: q.id }), 400, 'INVALID_INPUT')
  })

  it('400 INVALID_AMOUNT when the source cannot pay; nothing changes', async () => {
    const cust = await createCustomer(c)
    const usd = await internalAccountOf(c, cust.id)
    await c.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 500 })
    const acct = await c.post('/customers/external-accounts', usAccountBody(cust.id, '11112222'))
    await activeAccount(c, acct.body.id)
    const q = (await c.post('/quotes', quoteBody(usd, acct.body.id))).body
    expectError(await c.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD' }), 400, 'INVALID_AMOUNT')
    expect((await c.get(`/quotes/${q.id}`)).body.status).toBe('PENDING')
    expect(await balanceOf(c, usd, cust.id)).toBe(500)
  })

  it('an expired quote: refused (send 400, execute 409, the reason QUOTE_EXPIRED), its transaction EXPIRED', async () => {
    const clock = fakeClock()
    const fc = await start({ now: clock.now, timeScale: 1 })
    try {
      const p = await fundedPlatformUsd(fc, 100_000)
      const acct = await pendingMxnAccount(fc, '012180015000000128')
      clock.advance(5_000)
      const q = (await fc.post('/quotes', quoteBody(p, acct))).body
      clock.advance(300_000)
      const r = await fc.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD' })
      expectRefusal(r, 'QUOTE_EXPIRED')
      const executed = await fc.post(`/quotes/${q.id}/execute`)
      expectError(executed, 409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL')
      expect(executed.body.details.reason).toBe('QUOTE_EXPIRED')
      expect((await fc.get(`/quotes/${q.id}`)).body.status).toBe('EXPIRED')
      expect((await fc.get(`/transactions/${q.transactionId}`)).body.status).toBe('EXPIRED')
      expect(await balanceOf(fc, p)).toBe(100_000)
    } finally {
      await fc.sb.close()
    }
  })

  it('immediatelyExecute runs the quote at once; POST /quotes/{id}/execute does the same later', async () => {
    const dest = await mxnAccount(c, '012180015000000129')
    const now = (await c.post('/quotes', quoteBody(platformUsd, dest, { immediatelyExecute: true }))).body
    expect(now.status).toBe('PROCESSING')
    const later = (await c.post('/quotes', quoteBody(platformUsd, dest))).body
    const ex = await c.post(`/quotes/${later.id}/execute`)
    expect(ex.status, ex.text).toBe(200)
    expect(ex.body.status).toBe('PROCESSING')
    // Executing twice is final: the 409 (a published code, the reason in details) tells clients not to retry it.
    const again = await c.post(`/quotes/${later.id}/execute`)
    expectError(again, 409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL')
    expect(again.body.details.reason).toBe('QUOTE_NOT_PENDING')
    expect(again.headers.get('x-should-retry')).toBe('false')
    // Replayed under its Idempotency-Key, the stored 409 says so too.
    const keyed = { 'idempotency-key': 'execute-spent-1' }
    expect((await c.post(`/quotes/${later.id}/execute`, undefined, keyed)).status).toBe(409)
    const replayed = await c.post(`/quotes/${later.id}/execute`, undefined, keyed)
    expect(replayed.status).toBe(409)
    expect(replayed.headers.get('idempotent-replayed')).toBe('true')
    expect(replayed.headers.get('x-should-retry')).toBe('false')
  })
})

describe('quote destination suffix scenarios (reference)', () => {
  it.each([
    ['002', 'FAILED', 'QUOTE_EXECUTION_FAILED', false],
    ['004', 'FAILED', 'COUNTERPARTY_POST_TX_FAILED', true],
    ['006', 'FAILED', 'COUNTERPARTY_POST_TX_FAILED', true]
  ])('suffix %s → %s (%s), refunded: %s', async (suffix, status, reason, refunded) => {
    const dest = await mxnAccount(c, `012180015000000${suffix}`)
    const before = await balanceOf(c, platformUsd)
    const q = (await c.post('/quotes', quoteBody(platformUsd, dest))).body
    await c.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD' })
    const tx = await txStatus(c, q.transactionId, status)
    expect(tx.failureReason).toBe(reason)
    if (refunded) expect(tx.refund.status).toBe('COMPLETED')
    expect(await balanceOf(c, platformUsd)).toBe(before)
  })

  it('suffix 005: completes, then is returned by the bank (FAILED and refunded)', async () => {
    const { q, before } = await sendQuoteTo('012180015000000005')
    await txStatus(c, q.transactionId, 'COMPLETED')
    expect(await balanceOf(c, platformUsd)).toBe(before - q.totalSendingAmount)
    const failed = await txStatus(c, q.transactionId, 'FAILED')
    expect(failed.refund.status).toBe('COMPLETED')
    expect(await balanceOf(c, platformUsd)).toBe(before)
  })

  it('suffix 007: payout and refund both fail (money stays debited)', async () => {
    const { q, before } = await sendQuoteTo('012180015000000007')
    const failed = await txStatus(c, q.transactionId, 'FAILED')
    expect(failed.refund.status).toBe('FAILED')
    expect(await balanceOf(c, platformUsd)).toBe(before - q.totalSendingAmount)
  })

  it('suffix 003: completes only after about 6 minutes (scaled)', async () => {
    // A stepped clock: at a 0.002 scale "still PROCESSING once the normal one completed" raced a 720 ms timer.
    const { c: fc, elapse } = await startStepped()
    try {
      const p = await fundedPlatformUsd(fc, 100_000)
      const dest = await mxnAccount(fc, '012180015000000003', elapse)
      const normal = await mxnAccount(fc, '012180015000000130', elapse)
      const slow = (await fc.post('/quotes', quoteBody(p, dest))).body
      const fast = (await fc.post('/quotes', quoteBody(p, normal))).body
      await fc.post('/sandbox/send', { quoteId: slow.id, currencyCode: 'USD' })
      await fc.post('/sandbox/send', { quoteId: fast.id, currencyCode: 'USD' })
      const statusOf = async (id: string) => (await fc.get(`/transactions/${id}`)).body.status
      elapse(DURATIONS.outgoingProcessing)
      expect(await statusOf(fast.transactionId)).toBe('COMPLETED')
      elapse(DURATIONS.quoteSlow - DURATIONS.outgoingProcessing - 1)
      expect(await statusOf(slow.transactionId)).toBe('PROCESSING')
      elapse(1)
      expect(await statusOf(slow.transactionId)).toBe('COMPLETED')
    } finally {
      await fc.sb.close()
    }
  })
})

describe('UMA address destination (reference UmaAddressDestination)', () => {
  const umaBody = (destination: Record<string, unknown>) => ({
    source: { sourceType: 'ACCOUNT', accountId: platformUsd },
    destination: { destinationType: 'UMA_ADDRESS', ...destination },
    lockedCurrencySide: 'RECEIVING',
    lockedCurrencyAmount: 50_000
  })

  it('quotes in the currency asked for, executes once and completes', async () => {
    const before = await balanceOf(c, platformUsd)
    const r = await c.post('/quotes', umaBody({ umaAddress: '$carla@uma.example.com', currency: 'MXN' }))
    expect(r.status, r.text).toBe(201)
    const q = Quote.parse(r.body)
    expect(q.destination).toMatchObject({ destinationType: 'UMA_ADDRESS', umaAddress: '$carla@uma.example.com' })
    expect(q.receivingCurrency?.code).toBe('MXN')
    expect(q.totalReceivingAmount).toBe(50_000)
    const ex = await c.post(`/quotes/${q.id}/execute`)
    expect(ex.status, ex.text).toBe(200)
    const tx = await txStatus(c, q.transactionId as string, 'COMPLETED')
    expect(tx.destination).toMatchObject({ destinationType: 'UMA_ADDRESS', umaAddress: '$carla@uma.example.com' })
    expect(await balanceOf(c, platformUsd)).toBe(before - (q.totalSendingAmount as number))
  })

  it('refuses a malformed address or an unknown currency; nothing is created', async () => {
    expectError(await c.post('/quotes', umaBody({ umaAddress: 'carla at example' })), 400, 'INVALID_INPUT')
    expectError(await c.post('/quotes', umaBody({ umaAddress: '$carla@uma.example.com', currency: 'XYZ' })), 400)
  })
})
