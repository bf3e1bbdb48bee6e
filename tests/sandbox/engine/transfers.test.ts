import { describe, expect, it } from 'vitest'
import { OutgoingTransaction } from '../../../src/shared/api/transaction'
import { InternalAccount } from '../../../src/shared/api/internal-account'
import {
  activeAccount,
  balanceOf,
  createCustomer,
  createUsAccount,
  expectError,
  expectRefusal,
  expectLedgerConsistent,
  expectNewTransaction,
  internalAccountOf,
  payer,
  sandboxForSuite,
  start,
  startStepped,
  waitFor,
  transferOut
} from '../util'
import { DURATIONS } from '../../../src/sandbox/state/timing'

const c = sandboxForSuite()

const FEE = 10

describe('POST /sandbox/internal-accounts/{id}/fund', () => {
  it('adds to the balance and answers the InternalAccount', async () => {
    const cust = await createCustomer(c)
    const id = await internalAccountOf(c, cust.id)
    const r = await c.post(`/sandbox/internal-accounts/${id}/fund`, { amount: 12_345 })
    expect(r.status).toBe(200)
    const a = InternalAccount.parse(r.body)
    expect(a.balance.amount).toBe(12_345)
    expect(a.balance.currency).toMatchObject({ code: 'USD', decimals: 2 })
    await c.post(`/sandbox/internal-accounts/${id}/fund`, { amount: 5 })
    expect(await balanceOf(c, id, cust.id)).toBe(12_350)
  })

  it.each([[0], [-1], [1.5], [100_000_000_001], ['100']])('400 for amount %j, balance unchanged', async (amount) => {
    const cust = await createCustomer(c)
    const id = await internalAccountOf(c, cust.id)
    expectError(await c.post(`/sandbox/internal-accounts/${id}/fund`, { amount }), 400, 'INVALID_INPUT')
    expect(await balanceOf(c, id, cust.id)).toBe(0)
  })

  it('accepts exactly 100000000000 and funds platform accounts', async () => {
    const platform = await c.get('/platform/internal-accounts?currency=USD')
    expect(platform.body.data).toHaveLength(1)
    const id = platform.body.data[0].id
    const before = platform.body.data[0].balance.amount
    expect((await c.post(`/sandbox/internal-accounts/${id}/fund`, { amount: 100_000_000_000 })).status).toBe(200)
    expect(await balanceOf(c, id)).toBe(before + 100_000_000_000)
  })
})

/** A transfer-out that must be refused with this status (and code). */
async function refusesTransfer(
  source: string,
  destination: string,
  amount: number | undefined,
  status: number,
  code?: string
) {
  const body = {
    source: { accountId: source },
    destination: { accountId: destination },
    ...(amount === undefined ? {} : { amount })
  }
  expectError(await c.post('/transfer-out', body), status, code)
}

describe('POST /transfer-out', () => {
  it('PENDING → PROCESSING → COMPLETED; debits amount + fee once; amounts add up', async () => {
    const { internal, account, customer } = await payer(c, '2222333301', 100_000)
    const r = await transferOut(c, internal, account.id, 12_550)
    expect(r.status, r.text).toBe(201)
    const tx = OutgoingTransaction.parse(r.body)
    expectNewTransaction(tx, 'OUTGOING', customer)
    expect(tx.id).toMatch(/^Transaction:/)
    expect(tx.source).toMatchObject({ sourceType: 'ACCOUNT', accountId: internal, currency: 'USD' })
    expect(tx.destination).toMatchObject({ destinationType: 'ACCOUNT', accountId: account.id, currency: 'USD' })
    expect(tx.sentAmount.amount).toBe(tx.receivedAmount!.amount + (tx.fees ?? 0))
    expect(tx.receivedAmount!.amount).toBe(12_550)
    expect(tx.fees).toBe(FEE)
    expect(await balanceOf(c, internal, customer.id)).toBe(100_000 - 12_550 - FEE)
    // The statuses on the way are the stepped-clock test's: at a 0.01 time scale a loaded machine may poll too late.
    const done = await waitFor(
      () => c.get(`/transactions/${tx.id}`),
      (x) => x.body.status === 'COMPLETED'
    )
    expect(typeof done.body.settledAt).toBe('string')
    expect(await balanceOf(c, internal, customer.id)).toBe(100_000 - 12_550 - FEE)
    expectLedgerConsistent(c)
  })

  it('passes through PROCESSING (observed with a stepped clock)', async () => {
    let now = Date.parse('2025-10-13T00:00:00Z')
    const fc = await start({ now: () => now, timeScale: 1 })
    try {
      const cust = await createCustomer(fc)
      const internal = await internalAccountOf(fc, cust.id)
      await fc.post(`/sandbox/internal-accounts/${internal}/fund`, { amount: 10_000 })
      const a = await createUsAccount(fc, cust.id, '7777000011')
      now += 5_001
      expect((await fc.get(`/customers/external-accounts/${a.id}`)).body.status).toBe('ACTIVE')
      const tx = (await transferOut(fc, internal, a.id, 100)).body
      expect(tx.status).toBe('PENDING')
      now += 1_000
      expect((await fc.get(`/transactions/${tx.id}`)).body.status).toBe('PROCESSING')
      now += 4_999
      expect((await fc.get(`/transactions/${tx.id}`)).body.status).toBe('PROCESSING')
      now += 1
      expect((await fc.get(`/transactions/${tx.id}`)).body.status).toBe('COMPLETED')
    } finally {
      await fc.sb.close()
    }
  })

  it('without amount sends the whole balance minus the fee', async () => {
    const { internal, account, customer } = await payer(c, '2222333302', 5_000)
    const r = await transferOut(c, internal, account.id)
    expect(r.status, r.text).toBe(201)
    expect(r.body.receivedAmount.amount).toBe(5_000 - FEE)
    expect(await balanceOf(c, internal, customer.id)).toBe(0)
  })

  it.each([
    ['002', 'fails at once'],
    ['003', 'fails at once']
  ])('destination suffix %s %s: FAILED with a failureReason, no debit', async (suffix) => {
    const { internal, account, customer } = await payer(c, `88880${suffix}`, 50_000)
    const r = await transferOut(c, internal, account.id, 1_000)
    expect(r.status).toBe(201)
    expect(r.body.status).toBe('FAILED')
    expect(r.body.failureReason).toBeTruthy()
    expect(await balanceOf(c, internal, customer.id)).toBe(50_000)
  })

  // Stepped clocks: at the shared sandbox's 0.01 scale the refund came 60 ms after the transfer, and the 005 failure
  // 300 ms after it, so a loaded machine could read the debit or the PENDING status too late.
  it('destination suffix 004: rejected by the bank after processing, refunded in full', async () => {
    const { c: fc, elapse } = await startStepped()
    try {
      const { internal, account, customer } = await payer(fc, '888800004', 50_000, elapse)
      const body = { source: { accountId: internal }, destination: { accountId: account.id }, amount: 1_000 }
      const r = await fc.post('/transfer-out', body)
      expect(r.body.status).toBe('PENDING')
      expect(await balanceOf(fc, internal, customer.id)).toBe(50_000 - 1_000 - FEE)
      elapse(DURATIONS.outgoingPending)
      expect((await fc.get(`/transactions/${r.body.id}`)).body.status).toBe('PROCESSING')
      expect(await balanceOf(fc, internal, customer.id)).toBe(50_000 - 1_000 - FEE)
      elapse(DURATIONS.outgoingProcessing)
      const failed = (await fc.get(`/transactions/${r.body.id}`)).body
      expect(failed).toMatchObject({ status: 'FAILED', failureReason: 'COUNTERPARTY_POST_TX_FAILED' })
      expect(failed.refund).toMatchObject({ status: 'COMPLETED', reason: 'TRANSACTION_FAILED' })
      expect(await balanceOf(fc, internal, customer.id)).toBe(50_000)
    } finally {
      await fc.sb.close()
    }
  })

  it('destination suffix 005: stays PENDING about 30 s (scaled), then fails', async () => {
    const { c: fc, elapse } = await startStepped()
    try {
      const { internal, account } = await payer(fc, '888800005', 50_000, elapse)
      const body = { source: { accountId: internal }, destination: { accountId: account.id }, amount: 1_000 }
      const r = await fc.post('/transfer-out', body)
      // Well past the time a normal transfer is PROCESSING or done.
      elapse(DURATIONS.outgoingPending + DURATIONS.outgoingProcessing)
      expect((await fc.get(`/transactions/${r.body.id}`)).body.status).toBe('PENDING')
      elapse(DURATIONS.pendingThenFail - DURATIONS.outgoingPending - DURATIONS.outgoingProcessing)
      expect((await fc.get(`/transactions/${r.body.id}`)).body.status).toBe('FAILED')
    } finally {
      await fc.sb.close()
    }
  })

  it('400 INVALID_AMOUNT when the balance is short; nothing changes', async () => {
    const { internal, account, customer } = await payer(c, '2222333303', 1_000)
    const txBefore = c.sb.server.state.store.transactions.size
    const r = await transferOut(c, internal, account.id, 995)
    expectError(r, 400, 'INVALID_AMOUNT')
    expect(r.body.details).toMatchObject({ reason: 'INSUFFICIENT_FUNDS', balance: 1_000, required: 995 + FEE })
    expect(await balanceOf(c, internal, customer.id)).toBe(1_000)
    expect(c.sb.server.state.store.transactions.size).toBe(txBefore)
  })

  it('refuses a PENDING destination (payments only to ACTIVE accounts) as 400, the reason in details', async () => {
    const { internal, customer } = await payer(c, '2222333304', 10_000)
    const pending = await createUsAccount(c, customer.id, '2222333399104')
    const r = await transferOut(c, internal, pending.id, 100)
    expectRefusal(r, 'EXTERNAL_ACCOUNT_NOT_ACTIVE')
    expect(await balanceOf(c, internal, customer.id)).toBe(10_000)
  })

  it("refuses another currency, another customer's account, unknown ids and a customer without KYC", async () => {
    const { internal, customer } = await payer(c, '2222333305', 10_000)
    const other = await payer(c, '2222333306', 0)
    await refusesTransfer(internal, other.account.id, 100, 400, 'INVALID_INPUT')
    const wallet = await c.post('/customers/external-accounts', {
      customerId: customer.id,
      currency: 'BTC',
      cryptoNetwork: 'SPARK_MAINNET',
      accountInfo: { accountType: 'SPARK_WALLET', address: (await import('../util')).sparkAddress(4242) }
    })
    await refusesTransfer(internal, wallet.body.id, 100, 400, 'INVALID_CURRENCY')
    await refusesTransfer('InternalAccount:nope', wallet.body.id, undefined, 404)
    await refusesTransfer(internal, 'ExternalAccount:nope', undefined, 404)
    await refusesTransfer(internal, wallet.body.id, 0, 400, 'INVALID_INPUT')
    await refusesTransfer('Customer:x', wallet.body.id, undefined, 400, 'INVALID_INPUT')

    const pendingKyc = await createCustomer(c, { fullName: 'Slow Review 001' })
    const pInternal = await internalAccountOf(c, pendingKyc.id)
    await c.post(`/sandbox/internal-accounts/${pInternal}/fund`, { amount: 10_000 })
    const pAccount = await createUsAccount(c, pendingKyc.id, '2222333307')
    await activeAccount(c, pAccount.id)
    // Transfer-out publishes no 403: 400 INVALID_INPUT with details.reason USER_NOT_READY.
    const notReady = await transferOut(c, pInternal, pAccount.id, 100)
    expectRefusal(notReady, 'USER_NOT_READY')
    expect(await balanceOf(c, internal, customer.id)).toBe(10_000)
  })

  it('from a platform account to any customer account, on behalf of the platform', async () => {
    const { account } = await payer(c, '2222333308', 0)
    const platform = (await c.get('/platform/internal-accounts?currency=USD')).body.data[0]
    await c.post(`/sandbox/internal-accounts/${platform.id}/fund`, { amount: 5_000 })
    const r = await transferOut(c, platform.id, account.id, 1_000)
    expect(r.status, r.text).toBe(201)
    expect(r.body.customerId).toBe(c.sb.server.state.store.platform.id)
    expect(r.body.platformCustomerId).toBe('platform')
  })
})

describe('Idempotency-Key on POST /transfer-out', () => {
  it('same key + same body: the stored response, no second debit', async () => {
    const { internal, account, customer } = await payer(c, '3333444401', 10_000)
    const body = { source: { accountId: internal }, destination: { accountId: account.id }, amount: 1_000 }
    const first = await c.post('/transfer-out', body, { 'idempotency-key': 'key-same-1' })
    expect(first.status).toBe(201)
    const second = await c.post(
      '/transfer-out',
      { amount: 1_000, destination: { accountId: account.id }, source: { accountId: internal } },
      { 'idempotency-key': 'key-same-1' }
    )
    expect(second.status).toBe(201)
    expect(second.body).toEqual(first.body)
    expect(second.headers.get('idempotent-replayed')).toBe('true')
    expect(await balanceOf(c, internal, customer.id)).toBe(10_000 - 1_000 - FEE)
    const list = await c.get(`/transactions?senderAccountIdentifier=${internal}`)
    expect(list.body.totalCount).toBe(1)
  })

  it('same key + different body: 400 with reason IDEMPOTENCY_KEY_REUSED (no 422 is published), nothing changes', async () => {
    const { internal, account, customer } = await payer(c, '3333444402', 10_000)
    await c.post(
      '/transfer-out',
      { source: { accountId: internal }, destination: { accountId: account.id }, amount: 1_000 },
      { 'idempotency-key': 'key-diff-1' }
    )
    const r = await c.post(
      '/transfer-out',
      { source: { accountId: internal }, destination: { accountId: account.id }, amount: 2_000 },
      { 'idempotency-key': 'key-diff-1' }
    )
    expectRefusal(r, 'IDEMPOTENCY_KEY_REUSED')
    expect(await balanceOf(c, internal, customer.id)).toBe(10_000 - 1_000 - FEE)
  })

  it('a 4xx is stored too: the retry gets the same 400 even after the balance is topped up', async () => {
    const { internal, account } = await payer(c, '3333444403', 100)
    const body = { source: { accountId: internal }, destination: { accountId: account.id }, amount: 1_000 }
    expectError(await c.post('/transfer-out', body, { 'idempotency-key': 'key-4xx' }), 400, 'INVALID_AMOUNT')
    await c.post(`/sandbox/internal-accounts/${internal}/fund`, { amount: 10_000 })
    const again = await c.post('/transfer-out', body, { 'idempotency-key': 'key-4xx' })
    expectError(again, 400, 'INVALID_AMOUNT')
    expect(again.headers.get('idempotent-replayed')).toBe('true')
  })

  it('a 5xx is not stored: the retry runs the request', async () => {
    const { internal, account, customer } = await payer(c, '3333444404', 10_000)
    c.sb.server.faults.add({ route: 'POST /transfer-out', kind: 'error', status: 503, times: 1 })
    const body = { source: { accountId: internal }, destination: { accountId: account.id }, amount: 500 }
    expectError(await c.post('/transfer-out', body, { 'idempotency-key': 'key-5xx' }), 503)
    expect(await balanceOf(c, internal, customer.id)).toBe(10_000)
    const ok = await c.post('/transfer-out', body, { 'idempotency-key': 'key-5xx' })
    expect(ok.status).toBe(201)
    expect(ok.headers.get('idempotent-replayed')).toBeNull()
    expect(await balanceOf(c, internal, customer.id)).toBe(10_000 - 500 - FEE)
  })

  it('different keys are different requests', async () => {
    const { internal, account, customer } = await payer(c, '3333444405', 10_000)
    const body = { source: { accountId: internal }, destination: { accountId: account.id }, amount: 500 }
    await c.post('/transfer-out', body, { 'idempotency-key': 'k-a' })
    await c.post('/transfer-out', body, { 'idempotency-key': 'k-b' })
    expect(await balanceOf(c, internal, customer.id)).toBe(10_000 - 2 * (500 + FEE))
  })

  it('rejects an over-long key', async () => {
    expectError(await c.post('/transfer-out', {}, { 'idempotency-key': 'x'.repeat(300) }), 400, 'INVALID_INPUT')
  })
})

describe('ledger', () => {
  it('many concurrent transfers never take a balance below zero and the journal always adds up', async () => {
    const { internal, account, customer } = await payer(c, '4444555501', 10_000)
    const results = await Promise.all(Array.from({ length: 20 }, () => transferOut(c, internal, account.id, 990)))
    const created = results.filter((r) => r.status === 201).length
    expect(created).toBe(10) // 10 × (990 + 10) = 10 000
    expect(results.filter((r) => r.status === 400).length).toBe(10)
    expect(await balanceOf(c, internal, customer.id)).toBe(0)
    expectLedgerConsistent(c)
  })
})
