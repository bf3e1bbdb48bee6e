/* eslint-disable @typescript-eslint/no-explicit-any -- answers under test are untyped JSON, checked by assertions */
/**
 * The gate in front of the Local sandbox speaking the real approval protocol: every payment here is asked about by a
 * signed INCOMING_PAYMENT.PENDING webhook, and the sandbox applies the gate's answer exactly as the service would.
 */
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { signBody } from '../../../src/sandbox/state/webhook-signing'
import { Decision, GateEvent, Prompt, type GateRules } from '../../../src/shared/gate'
import { startRig, type Rig } from '../harness'

const rigs: Rig[] = []
afterEach(async () => {
  for (const r of rigs.splice(0)) await r.close()
})

async function rig(overrides: Record<string, unknown> = {}): Promise<Rig> {
  const r = await startRig(overrides)
  rigs.push(r)
  return r
}

const usdUpTo = (max: number, extra: Partial<GateRules['rules'][number]> = {}): GateRules => ({
  rules: [
    {
      name: 'small USD',
      maxAmountByCurrency: { USD: max },
      allowedSenders: [],
      requireKycApproved: true,
      action: 'approve',
      fallback: 'reject',
      ...extra
    }
  ],
  otherwise: 'ask',
  otherwiseFallback: 'reject'
})

/** A gate whose rule approves USD up to 500.00, and a receiver whose missing birth date the operator filled in. */
async function rigApprovingSmallUsd(): Promise<{ r: Rig; customer: Awaited<ReturnType<Rig['customer']>> }> {
  const r = await rig()
  await r.op('PUT', '/operator/rules', usdUpTo(500_00))
  const customer = await r.customer()
  await r.op('PUT', `/operator/receiver-info/${customer}`, { info: { BIRTH_DATE: '1990-01-02' } })
  return { r, customer }
}

/** Every event the gate logged, read through the wire schemas Paydesk will use. */
async function events(r: Rig): Promise<any[]> {
  const all = (await r.op('GET', '/operator/log')).body.events
  for (const e of all) {
    GateEvent.parse(e)
    if (e.kind === 'decision') Decision.parse(e.data)
    if (e.kind === 'prompt') Prompt.parse(e.data)
  }
  return all
}

const decisions = async (r: Rig) => (await events(r)).filter((e: any) => e.kind === 'decision')

describe('the approval gate against the sandbox', () => {
  it('a rule approves at once with exactly the requested receiver fields', async () => {
    const r = await rig()
    expect((await r.op('PUT', '/operator/rules', usdUpTo(500_00))).status).toBe(200)
    const customer = await r.customer()
    const info = { BIRTH_DATE: '1990-01-02', NATIONALITY: 'US', FULL_NAME: 'Not requested', EMAIL: 'x@example.com' }
    expect((await r.op('PUT', `/operator/receiver-info/${customer}`, { info })).status).toBe(204)

    const paid = await r.receive(customer, 120_00)
    const pending = paid.webhook
    // The sandbox asks for BIRTH_DATE (mandatory) and NATIONALITY: its record has the full name already.
    expect(pending.answer).toEqual({
      status: 200,
      body: { receiverCustomerInfo: { BIRTH_DATE: '1990-01-02', NATIONALITY: 'US' } }
    })
    expect(paid.status).not.toBe('FAILED')
    expect(paid.status).not.toBe('PENDING')
    const [d] = await decisions(r)
    expect(d).toMatchObject({
      actor: 'rule:small USD',
      data: { transactionId: paid.id, outcome: 'approved', sentFields: ['BIRTH_DATE', 'NATIONALITY'] }
    })
    expect(d.data.reason).toMatch(/within the ceiling of 500\.00 USD/)
    // Receiver information never reaches the decision log, nor the gate's own logs, nor any secret.
    expect(JSON.stringify((await r.op('GET', '/operator/log')).body)).not.toContain('1990-01-02')
    const logs = r.logs.join('')
    expect(r.logs.length).toBeGreaterThan(3)
    for (const line of r.logs) expect(() => JSON.parse(line)).not.toThrow()
    // One line per request (the hot path writes once): method, URL, status and time, never headers or bodies.
    const lines = r.logs.map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines.filter((l) => l['msg'] === 'incoming request')).toEqual([])
    const requests = lines.filter((l) => l['msg'] === 'request completed')
    expect(requests.filter((l) => l['method'] === 'PUT' && l['url'] === '/operator/rules')).toHaveLength(1)
    for (const l of requests) {
      expect(l).toMatchObject({ method: expect.any(String), url: expect.any(String), statusCode: expect.any(Number) })
      expect(l).not.toHaveProperty('req')
      expect(l).not.toHaveProperty('res')
    }
    for (const secret of ['1990-01-02', r.token, r.sb.clientSecret, pending.signature!])
      expect(logs).not.toContain(secret)
  })

  it('above the ceiling: 202, a prompt, and an operator’s approve sent within the deadline', async () => {
    const r = await rig()
    await r.op('PUT', '/operator/rules', usdUpTo(100_00))
    const customer = await r.customer()
    const paid = await r.receive(customer, 250_00)
    expect(paid.webhook.answer.status).toBe(202)
    const prompts = (await r.op('GET', '/operator/prompts')).body.prompts
    expect(prompts).toMatchObject([
      {
        transactionId: paid.id,
        amount: 250_00,
        currency: 'USD',
        fallback: 'reject',
        requestedFields: [
          { name: 'BIRTH_DATE', mandatory: true },
          { name: 'NATIONALITY', mandatory: false }
        ],
        availableFields: []
      }
    ])
    expect(r.clock.pending()).toEqual([4000])
    // Without the mandatory field the approve is refused and the prompt stays open.
    const refused = await r.op('POST', `/operator/prompts/${paid.id}`, { action: 'approve' })
    expect(refused).toMatchObject({
      status: 422,
      body: { code: 'MISSING_RECEIVER_INFO', missingFields: ['BIRTH_DATE'] }
    })

    r.clock.advance(3_000)
    const ok = await r.op('POST', `/operator/prompts/${paid.id}`, {
      action: 'approve',
      receiverCustomerInfo: { BIRTH_DATE: '1990-01-02' }
    })
    expect(ok.status).toBe(200)
    expect(ok.body.sent).toEqual({ ok: true, status: 200 })
    expect(ok.body.decision).toMatchObject({ actor: 'operator:Ana', data: { outcome: 'approved' } })
    const tx = (await r.api('GET', `/transactions/${paid.id}`)).body
    expect(['PROCESSING', 'COMPLETED']).toContain(tx.status)
    // The fallback timer is gone: the payment is decided once.
    expect(r.clock.pending()).toEqual([])
    expect((await r.op('POST', `/operator/prompts/${paid.id}`, { action: 'reject' })).status).toBe(404)
    expect(await decisions(r)).toHaveLength(1)
  })

  it('a prompt nobody answers is rejected by the fallback at the 4.0 s margin, before the service’s deadline', async () => {
    const r = await rig()
    const customer = await r.customer()
    const paid = await r.receive(customer, 10_00)
    expect(paid.webhook.answer.status).toBe(202)
    r.clock.advance(3_999)
    expect((await r.op('GET', '/operator/prompts')).body.prompts).toHaveLength(1)
    r.clock.advance(1)
    await r.gate.gate.prompts.settleAll()
    const tx = (await r.api('GET', `/transactions/${paid.id}`)).body
    expect(tx.status).toBe('REJECTED')
    expect(await decisions(r)).toMatchObject([{ actor: 'fallback:otherwise', data: { outcome: 'rejected' } }])
    const sent = (await r.op('GET', '/operator/log')).body.events.find((e: any) => e.kind === 'decision-sent')
    expect(sent).toMatchObject({ data: { action: 'reject', ok: true } })
    // Too late for a person now.
    expect((await r.op('POST', `/operator/prompts/${paid.id}`, { action: 'approve' })).status).toBe(404)
  })

  it('a pre-approval approves one matching payment, once', async () => {
    const r = await rig()
    const customer = await r.customer()
    await r.op('PUT', `/operator/receiver-info/${customer}`, { info: { BIRTH_DATE: '1990-01-02' } })
    const created = await r.op('POST', '/operator/pre-approvals', {
      customerId: customer,
      currency: 'USD',
      minAmount: 50_00,
      maxAmount: 80_00,
      sender: '$success.usd@sandbox.uma.money',
      expiresAt: new Date(r.clock.now() + 3_600_000).toISOString()
    })
    expect(created.status).toBe(201)
    const outside = await r.receive(customer, 90_00)
    expect(outside.webhook.answer.status).toBe(202)
    r.clock.advance(4_000)
    await r.gate.gate.prompts.settleAll()
    const first = await r.receive(customer, 60_00)
    expect(first.webhook.answer).toEqual({ status: 200, body: { receiverCustomerInfo: { BIRTH_DATE: '1990-01-02' } } })
    const second = await r.receive(customer, 60_00)
    expect(second.webhook.answer.status).toBe(202)
    const list = (await r.op('GET', '/operator/pre-approvals')).body.preApprovals
    expect(list).toMatchObject([{ usedBy: first.id, createdBy: 'operator:Ana' }])
    const byTx = Object.fromEntries((await decisions(r)).map((e: any) => [e.data.transactionId, e.actor]))
    expect(byTx[first.id]).toBe(`pre-approval:${created.body.id}`)
    expect(byTx[outside.id]).toBe('fallback:otherwise')
    expect(byTx[second.id]).toBeUndefined()
  })

  it('a forged signature is refused with 401 and decides nothing; the payment is not approved', async () => {
    const { r, customer } = await rigApprovingSmallUsd()
    const genuine = (await r.receive(customer, 10_00)).webhook
    const body = JSON.parse(genuine.raw.toString())
    body.id = 'Webhook:forged-1'
    body.data.id = 'Transaction:forged'
    const before = (await r.op('GET', '/operator/log')).body.events.length
    for (const signature of [genuine.signature!, undefined, '{"v":"1","s":"AAAA"}', 'not base64!']) {
      const res = await fetch(`${r.gate.url}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature && { 'x-grid-signature': signature }) },
        body: JSON.stringify(body)
      })
      expect(res.status).toBe(401)
      expect(await res.json()).toMatchObject({ code: 'INVALID_SIGNATURE' })
    }
    expect((await r.op('GET', '/operator/log')).body.events).toHaveLength(before)
  })

  it('a replayed webhook id gets the same answer and is not decided again; a stale timestamp is refused', async () => {
    const { r, customer } = await rigApprovingSmallUsd()
    const first = (await r.receive(customer, 10_00)).webhook
    // Rules change meanwhile: a replay must still get the first answer, not a new decision.
    await r.op('PUT', '/operator/rules', { rules: [], otherwise: 'reject', otherwiseFallback: 'reject' })
    const replay = await fetch(`${r.gate.url}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-grid-signature': first.signature! },
      body: first.raw
    })
    expect(replay.status).toBe(200)
    expect(await replay.json()).toEqual(first.answer.body)
    expect(await decisions(r)).toHaveLength(1)
    // The same payment under a new webhook id, validly signed: not decided again either.
    const again = JSON.parse(first.raw.toString())
    again.id = 'Webhook:another-delivery'
    const bytes = Buffer.from(JSON.stringify(again))
    const other = await fetch(`${r.gate.url}/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-grid-signature': signBody((r.sb.server.state.store.settings as any).signingKey, bytes)
      },
      body: bytes
    })
    expect(other.status).toBe(409)
    expect(await other.json()).toMatchObject({ code: 'ALREADY_DECIDED' })
    expect(await decisions(r)).toHaveLength(1)

    r.clock.advance(5 * 60_000 + 1)
    const stale = await fetch(`${r.gate.url}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-grid-signature': first.signature! },
      body: first.raw
    })
    expect(stale.status).toBe(401)
    expect(await stale.json()).toMatchObject({ code: 'STALE_WEBHOOK' })
    expect(await decisions(r)).toHaveLength(1)
  })

  it('KYC comes from the service within the budget, or the rule does not pass', async () => {
    const { r, customer } = await rigApprovingSmallUsd()
    r.sb.server.faults.add({ route: 'GET /customers/{customerId}', kind: 'error', status: 503 })
    expect((await r.receive(customer, 10_00)).webhook.answer.status).toBe(202)
    const [prompt] = (await r.op('GET', '/operator/prompts')).body.prompts
    expect(prompt.reasons.join(' ')).toMatch(/KYC is unknown, not APPROVED/)
    expect(prompt.availableFields).toEqual(['BIRTH_DATE'])
  })

  it('a graceful stop answers the webhook in flight and gives each open prompt its fallback', async () => {
    let release!: () => void
    let asked!: () => void
    const lookupAsked = new Promise<void>((resolve) => (asked = resolve))
    const held: ServerResponse[] = []
    const lookup = createServer((_req, res) => {
      held.push(res)
      release = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"BIRTH_DATE":"1990-01-02"}')
      asked()
    })
    await new Promise<void>((resolve) => lookup.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(lookup.address() as AddressInfo).port}/`
      const r = await rig({ receiverLookupUrl: url })
      await r.op('PUT', '/operator/rules', usdUpTo(100_00))
      const asking = await r.customer({ fullName: 'Asking Person' })
      await r.op('PUT', `/operator/receiver-info/${asking}`, { info: { BIRTH_DATE: '1970-01-01' } })
      const open = await r.receive(asking, 200_00)
      expect(open.webhook.answer.status).toBe(202)

      const customer = await r.customer()
      const sent = await r.api('POST', '/sandbox/uma/receive', {
        senderUmaAddress: '$success.usd@sandbox.uma.money',
        customerId: customer,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 10_00
      })
      await lookupAsked
      const stopping = r.gate.close()
      release()
      await stopping
      await r.sb.server.webhooks.idle()
      expect(r.webhookOf(sent.body.id).answer).toEqual({
        status: 200,
        body: { receiverCustomerInfo: { BIRTH_DATE: '1990-01-02' } }
      })
      expect((await r.api('GET', `/transactions/${sent.body.id}`)).body.status).not.toMatch(/FAILED|REJECTED/)
      expect((await r.api('GET', `/transactions/${open.id}`)).body.status).toBe('REJECTED')
    } finally {
      for (const res of held) res.destroy()
      lookup.close()
    }
  })

  it('a receiver lookup that does not answer within its budget (on the gate’s clock) leaves the field missing: 422', async () => {
    let asked!: () => void
    const lookupAsked = new Promise<void>((resolve) => (asked = resolve))
    const held: ServerResponse[] = []
    const lookup = createServer((_req, res) => {
      held.push(res)
      asked()
    })
    await new Promise<void>((resolve) => lookup.listen(0, '127.0.0.1', resolve))
    try {
      const r = await rig({ receiverLookupUrl: `http://127.0.0.1:${(lookup.address() as AddressInfo).port}/` })
      await r.op('PUT', '/operator/rules', usdUpTo(500_00))
      const customer = await r.customer()
      const receiving = r.receive(customer, 10_00)
      await lookupAsked
      r.clock.advance(1_499)
      expect(r.seen.filter((s) => s.answer.status === 422)).toEqual([])
      r.clock.advance(1)
      const paid = await receiving
      expect(paid.webhook.answer).toMatchObject({
        status: 422,
        body: { code: 'MISSING_RECEIVER_INFO', missingFields: ['BIRTH_DATE'] }
      })
      expect(paid.status).toBe('FAILED')
    } finally {
      for (const res of held) res.destroy()
      lookup.close()
    }
  })
})
