/**
 * Webhook delivery against a platform endpoint written here. The sandbox's clock is injected and stepped, so retries
 * come exactly when their backoff says; only the slow-endpoint test lets real time run, against a request the endpoint
 * never answers.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { publishedValidator } from '../../../contract/published-openapi'
import { type Client, createCustomer, fakeClock, internalAccountOf, start, usAccountBody, receiveUsd } from '../../util'
import { signatureVerifies, startReceiver, type Receiver } from './receiver'

const open: { c: Client; platform: Receiver }[] = []
afterEach(async () => {
  for (const { c, platform } of open.splice(0)) {
    await c.sb.close()
    await platform.close()
    expect(platform.problems).toEqual([])
  }
})

async function setUp(opts: { timeScale?: number; clock?: ReturnType<typeof fakeClock> } = {}) {
  const clock = opts.clock
  const c = await start({
    timeScale: opts.timeScale ?? 1,
    ...(clock && { now: clock.now })
  })
  const platform = await startReceiver(() => c.sb.server.webhooks.publicKeyPem)
  open.push({ c, platform })
  expect((await c.patch('/config', { webhookEndpoint: platform.url })).status).toBe(200)
  const advance = (ms: number): void => {
    clock?.advance(ms)
    c.sb.server.state.runDue()
  }
  return { c, platform, advance }
}

const approveWithInfo = { status: 200, body: { receiverCustomerInfo: { FULL_NAME: 'Ana', BIRTH_DATE: '1990-01-02' } } }

async function receive(c: Client, customerId: string, amount = 10_000): Promise<string> {
  const r = await receiveUsd(c, customerId, { receivingCurrencyAmount: amount })
  expect(r.status, r.text).toBe(200)
  return r.body.id
}

describe('webhook signatures', () => {
  it('verify with the published public key over the exact bytes; a flipped byte does not', async () => {
    const { c, platform } = await setUp({ clock: fakeClock() })
    const key = await c.get('/sandbox/webhook-public-key')
    expect(key.status).toBe(200)
    expect(key.body.publicKeyPem).toBe(c.sb.server.webhooks.publicKeyPem)
    expect(key.body.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/)
    expect(key.text).not.toContain('PRIVATE')
    const test = await platform.next('TEST')
    expect(signatureVerifies(key.body.publicKeyPem, test.raw, test.signature)).toBe(true)
    const flipped = Buffer.from(test.raw)
    flipped.writeUInt8(flipped.readUInt8(flipped.length - 2) ^ 1, flipped.length - 2)
    expect(signatureVerifies(key.body.publicKeyPem, flipped, test.signature)).toBe(false)
  })
})

describe('webhook events', () => {
  it('payments and balances send the published events, every body valid and signed', async () => {
    const clock = fakeClock()
    const { c, platform, advance } = await setUp({ clock })
    platform.answer((d) => (d.type === 'INCOMING_PAYMENT.PENDING' ? approveWithInfo : { status: 200 }))
    const cust = await createCustomer(c, { fullName: undefined })
    await receive(c, cust.id)
    await platform.next('INCOMING_PAYMENT.PENDING')
    await c.sb.server.webhooks.idle()
    advance(3_000)
    await platform.next('INCOMING_PAYMENT.COMPLETED')
    const balance = await platform.next('INTERNAL_ACCOUNT.BALANCE_UPDATED')
    expect(balance.json.data).toMatchObject({ id: await internalAccountOf(c, cust.id), balance: { amount: 10_000 } })

    const account = await c.post('/customers/external-accounts', usAccountBody(cust.id, '1234567890'))
    expect(account.status, account.text).toBe(201)
    advance(5_000) // bank account verification
    const out = await c.post(
      '/transfer-out',
      {
        source: { accountId: await internalAccountOf(c, cust.id) },
        destination: { accountId: account.body.id },
        amount: 1_000
      },
      { 'idempotency-key': 'webhook-events-1' }
    )
    expect(out.status, out.text).toBe(201)
    advance(1_000)
    advance(5_000)
    const completed = await platform.next('OUTGOING_PAYMENT.COMPLETED')
    expect(completed.json.data).toMatchObject({ id: out.body.id, status: 'COMPLETED' })
    await c.sb.server.webhooks.idle()
    const types = new Set(platform.deliveries.map((d) => d.type))
    for (const t of ['TEST', 'OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING'])
      expect(types.has(t), t).toBe(true)
    // Checked per delivery by the receiver (published schema of its type, signature): afterEach expects no problem.
  })

  it('an event answered 500 is retried with backoff, same id and bytes, until a 2xx; at most 5 attempts', async () => {
    const clock = fakeClock()
    const { c, platform, advance } = await setUp({ clock })
    let completedAnswers = 0
    platform.answer((d) => {
      if (d.type === 'INCOMING_PAYMENT.PENDING') return approveWithInfo
      if (d.type === 'INCOMING_PAYMENT.COMPLETED') return { status: completedAnswers++ === 0 ? 500 : 200 }
      if (d.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED') return { status: 500 }
      return { status: 200 }
    })
    const cust = await createCustomer(c, { fullName: undefined })
    const id = await receive(c, cust.id)
    await platform.next('INCOMING_PAYMENT.PENDING')
    await c.sb.server.webhooks.idle()
    advance(3_000)
    const first = await platform.next('INCOMING_PAYMENT.COMPLETED')
    await c.sb.server.webhooks.idle()
    advance(4_999)
    await c.sb.server.webhooks.idle()
    expect(platform.deliveries.filter((d) => d.type === 'INCOMING_PAYMENT.COMPLETED')).toHaveLength(1)
    advance(1)
    const second = await platform.next('INCOMING_PAYMENT.COMPLETED')
    expect(second.raw.equals(first.raw)).toBe(true)
    await c.sb.server.webhooks.idle()
    const log = c.sb.server.webhooks.deliveries().filter((d) => d.subject === id && d.type.endsWith('COMPLETED'))
    expect(log.map((d) => [d.attempt, d.status, d.outcome])).toEqual([
      [1, 500, 'retrying'],
      [2, 200, 'delivered']
    ])
    // The balance event is never accepted: 5 attempts (backoff 5, 30, 120, 600 s), then given up.
    for (const s of [30, 120, 600, 3600]) {
      advance(s * 1000)
      await c.sb.server.webhooks.idle()
    }
    const balance = c.sb.server.webhooks.deliveries().filter((d) => d.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED')
    expect(balance.map((d) => d.outcome)).toEqual(['retrying', 'retrying', 'retrying', 'retrying', 'failed'])
  })

  it('an endpoint that never answers the approval webhook: PAYMENT_APPROVAL_WEBHOOK_ERROR after the (scaled) timeout', async () => {
    const { c, platform } = await setUp({ timeScale: 0.01 })
    platform.answer((d) => (d.type === 'INCOMING_PAYMENT.PENDING' ? 'hang' : { status: 200 }))
    const cust = await createCustomer(c)
    const id = await receive(c, cust.id)
    await platform.next('INCOMING_PAYMENT.PENDING')
    await c.sb.server.webhooks.idle()
    expect((await c.get(`/transactions/${id}`)).body).toMatchObject({
      status: 'FAILED',
      failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR'
    })
    const record = c.sb.server.webhooks.deliveries().find((d) => d.type === 'INCOMING_PAYMENT.PENDING')
    expect(record).toMatchObject({ outcome: 'failed', error: 'no answer within 50 ms' })
  })
})

describe('POST /sandbox/webhooks/test', () => {
  it('sends a TEST event and reports the answer; no endpoint or no answer is a 400', async () => {
    const validate = publishedValidator()
    const { c, platform } = await setUp({ clock: fakeClock() })
    platform.answer(() => ({ status: 200, body: { ok: true } }))
    const r = await c.post('/sandbox/webhooks/test')
    expect(r.status, r.text).toBe(200)
    expect(validate('TestWebhookResponse', r.body)).toEqual([])
    expect(r.body).toEqual({ url: platform.url, response_status: 200, response_body: '{"ok":true}' })

    const bare = await start()
    try {
      const none = await bare.post('/sandbox/webhooks/test')
      expect(none.status).toBe(400)
      expect(none.body.code).toBe('WEBHOOK_ENDPOINT_NOT_SET')
      expect(validate('Error400', none.body)).toEqual([])
      const down = await startReceiver(() => bare.sb.server.webhooks.publicKeyPem)
      expect((await bare.patch('/config', { webhookEndpoint: down.url })).status).toBe(200)
      await down.close()
      await bare.sb.server.webhooks.idle()
      const unanswered = await bare.post('/sandbox/webhooks/test')
      expect(unanswered.status).toBe(400)
      expect(unanswered.body.code).toBe('WEBHOOK_DELIVERY_ERROR')
    } finally {
      await bare.sb.close()
    }
  })
})
