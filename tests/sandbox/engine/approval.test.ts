/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies under test are untyped JSON, checked by assertions */
/**
 * The approval protocol against a platform endpoint written here: one test per answer. The sandbox's clock is injected
 * and stepped by the test, so the 5 s of a 202 are exact; HTTP timeouts stay at their real 5 s, far from any answer.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  type Client,
  createCustomer,
  expectError,
  fakeClock,
  internalAccountOf,
  balanceOf,
  start,
  receiveUsd
} from '../util'
import { startReceiver, type Answer, type Receiver } from '../http/webhooks/receiver'

let c: Client
let clock: ReturnType<typeof fakeClock>
let platform: Receiver

beforeEach(async () => {
  clock = fakeClock()
  c = await start({ timeScale: 1, now: clock.now })
  platform = await startReceiver(() => c.sb.server.webhooks.publicKeyPem)
  expect((await c.patch('/config', { webhookEndpoint: platform.url })).status).toBe(200)
})

afterEach(async () => {
  await c.sb.close()
  await platform.close()
  expect(platform.problems).toEqual([])
})

/** A customer whose record lacks birthDate and nationality (and fullName unless given). */
async function receiver(extra: Record<string, unknown> = {}): Promise<any> {
  return createCustomer(c, { fullName: undefined, ...extra })
}

/** An incoming payment, its approval webhook answered by `answer`, the answer applied. */
async function receive(customerId: string, answer: Answer): Promise<{ id: string; webhook: any }> {
  platform.answer((d) => (d.type === 'INCOMING_PAYMENT.PENDING' ? answer : { status: 200 }))
  const r = await receiveUsd(c, customerId, { receivingCurrencyAmount: 10_000 })
  expect(r.status, r.text).toBe(200)
  expect(r.body.status).toBe('PENDING')
  const webhook = await platform.next('INCOMING_PAYMENT.PENDING')
  await c.sb.server.webhooks.idle()
  return { id: r.body.id, webhook: webhook.json }
}

/** An incoming payment whose approval webhook finds no endpoint, once the sandbox has tried it: its id. */
async function receiveUndelivered(sandbox: Client, customerId: string): Promise<string> {
  const r = await receiveUsd(sandbox, customerId, { receivingCurrencyAmount: 700 })
  expect(r.status, r.text).toBe(200)
  sandbox.sb.server.state.runDue()
  await sandbox.sb.server.webhooks.idle()
  return r.body.id
}

const tx = async (id: string): Promise<any> => (await c.get(`/transactions/${id}`)).body

/** Steps the sandbox's clock by `ms` and applies what became due. */
function advance(ms: number): void {
  clock.advance(ms)
  c.sb.server.state.runDue()
}

const infoOK = { receiverCustomerInfo: { FULL_NAME: 'Ana Receiver', BIRTH_DATE: '1990-01-02' } }

describe('the approval webhook', () => {
  it('asks for the receiver fields the record lacks (mandatory FULL_NAME, BIRTH_DATE; optional NATIONALITY)', async () => {
    const bare = await receiver()
    const { webhook } = await receive(bare.id, { status: 200, body: infoOK })
    expect(webhook).toMatchObject({
      type: 'INCOMING_PAYMENT.PENDING',
      data: { status: 'PENDING', customerId: bare.id }
    })
    expect(webhook.id).toMatch(/^Webhook:/)
    expect(webhook.data.requestedReceiverCustomerInfoFields).toEqual([
      { name: 'FULL_NAME', mandatory: true },
      { name: 'BIRTH_DATE', mandatory: true },
      { name: 'NATIONALITY', mandatory: false }
    ])
    const known = await receiver({ fullName: 'Kim Known', birthDate: '1980-05-05', nationality: 'US' })
    expect((await receive(known.id, { status: 200 })).webhook.data).not.toHaveProperty(
      'requestedReceiverCustomerInfoFields'
    )
  })

  it('200 with the mandatory fields approves: PROCESSING, then COMPLETED and credited, then INCOMING_PAYMENT.COMPLETED', async () => {
    const cust = await receiver()
    const internal = await internalAccountOf(c, cust.id)
    const { id } = await receive(cust.id, { status: 200, body: infoOK })
    expect((await tx(id)).status).toBe('PROCESSING')
    advance(3_000)
    expect((await tx(id)).status).toBe('COMPLETED')
    expect(await balanceOf(c, internal, cust.id)).toBe(10_000)
    const completed = await platform.next('INCOMING_PAYMENT.COMPLETED')
    expect(completed.json.data).toMatchObject({ id, status: 'COMPLETED' })
    const order = platform.deliveries.filter((d) => d.json.data?.id === id).map((d) => d.type)
    expect(order).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.COMPLETED'])
  })

  it('200 without a mandatory field fails the payment with MISSING_MANDATORY_PAYEE_DATA; nothing is credited', async () => {
    const cust = await receiver()
    const internal = await internalAccountOf(c, cust.id)
    const { id } = await receive(cust.id, { status: 200, body: { receiverCustomerInfo: { FULL_NAME: 'Ana' } } })
    expect(await tx(id)).toMatchObject({ status: 'FAILED', failureReason: 'MISSING_MANDATORY_PAYEE_DATA' })
    expect((await platform.next('INCOMING_PAYMENT.FAILED')).json.data).toMatchObject({ id, status: 'FAILED' })
    advance(3_000)
    expect(await balanceOf(c, internal, cust.id)).toBe(0)
  })

  it('403 rejects the payment', async () => {
    const cust = await receiver()
    const { id } = await receive(cust.id, { status: 403, body: { code: 'FORBIDDEN', reason: 'RESTRICTED' } })
    expect((await tx(id)).status).toBe('REJECTED')
  })

  it('422 fails the payment and keeps the sender fields the platform asked for', async () => {
    const cust = await receiver()
    const { id } = await receive(cust.id, { status: 422, body: { requiredFields: ['TAX_ID'] } })
    expect(await tx(id)).toMatchObject({ status: 'FAILED', failureReason: 'PAY_REQUEST_FAILED' })
    expect(c.sb.server.state.store.transactions.get(id)?.meta.approval).toMatchObject({
      answerStatus: 422,
      requiredFields: ['TAX_ID']
    })
  })

  it('202 defers: approve at 4 s works (a missing mandatory field is refused first, changing nothing)', async () => {
    const cust = await receiver()
    const { id } = await receive(cust.id, { status: 202 })
    expect((await tx(id)).status).toBe('PENDING')
    advance(4_000)
    const short = await c.post(`/transactions/${id}/approve`, { receiverCustomerInfo: { FULL_NAME: 'Ana' } })
    expectError(short, 400, 'MISSING_MANDATORY_USER_INFO')
    expect(short.body.details.missingFields).toEqual(['BIRTH_DATE'])
    expect((await tx(id)).status).toBe('PENDING')
    const ok = await c.post(`/transactions/${id}/approve`, infoOK)
    expect(ok.status, ok.text).toBe(200)
    expect(ok.body.status).toBe('PROCESSING')
  })

  it('202 then silence: at 5 s the payment fails with PAYMENT_APPROVAL_TIMED_OUT, and approve is refused', async () => {
    const cust = await receiver()
    const { id } = await receive(cust.id, { status: 202 })
    advance(4_999)
    expect((await tx(id)).status).toBe('PENDING')
    advance(1)
    expect(await tx(id)).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' })
    const late = await c.post(`/transactions/${id}/approve`, infoOK)
    expectError(late, 409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL')
    expect(late.headers.get('x-should-retry')).toBe('false')
  })

  it('approve or reject without a 202: 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL, x-should-retry false', async () => {
    const cust = await receiver()
    const expectRefused = async (id: string): Promise<void> => {
      for (const action of ['approve', 'reject']) {
        const refused = await c.post(`/transactions/${id}/${action}`, action === 'approve' ? infoOK : {})
        expectError(refused, 409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL')
        expect(refused.headers.get('x-should-retry')).toBe('false')
      }
    }
    // After a synchronous 200.
    const { id } = await receive(cust.id, { status: 200, body: infoOK })
    await expectRefused(id)
    // While the webhook still waits for its answer (the endpoint holds it; closing the sandbox cuts it).
    platform.answer(() => 'hang')
    const asking = await receiveUsd(c, cust.id, { receivingCurrencyAmount: 500 })
    await platform.next('INCOMING_PAYMENT.PENDING')
    await expectRefused(asking.body.id)
    expect((await tx(asking.body.id)).status).toBe('PENDING')
  })

  it('a 5xx, or a 200 whose body is not JSON: PAYMENT_APPROVAL_WEBHOOK_ERROR, asked once (no retry)', async () => {
    const cust = await receiver()
    const failed = await receive(cust.id, { status: 503 })
    expect(await tx(failed.id)).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR' })
    advance(10 * 60_000)
    await c.sb.server.webhooks.idle()
    expect(platform.deliveries.filter((d) => d.json.data?.id === failed.id).map((d) => d.type)).toEqual([
      'INCOMING_PAYMENT.PENDING',
      'INCOMING_PAYMENT.FAILED'
    ])
    platform.answer(() => ({ status: 200 }))
    const garbled = await receive(cust.id, { status: 200, body: 'not json' })
    expect(await tx(garbled.id)).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR' })
  })

  it('endpoint down, or none configured: PAYMENT_APPROVAL_WEBHOOK_ERROR', async () => {
    const cust = await receiver()
    await platform.close()
    const down = await receiveUndelivered(c, cust.id)
    expect(await tx(down)).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR' })
    const record = c.sb.server.webhooks.deliveries().find((d) => d.subject === down)
    expect(record).toMatchObject({ type: 'INCOMING_PAYMENT.PENDING', outcome: 'failed', error: 'connection refused' })

    const fresh = await start({ timeScale: 1, now: clock.now })
    try {
      const someone = await createCustomer(fresh)
      const none = await receiveUndelivered(fresh, someone.id)
      expect((await fresh.get(`/transactions/${none}`)).body).toMatchObject({
        status: 'FAILED',
        failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR'
      })
    } finally {
      await fresh.sb.close()
    }
  })
})
