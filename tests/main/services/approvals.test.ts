import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SandboxServer } from '../../../src/sandbox/server'
import { requireRealKeyring } from '../../support/keyring'
import {
  addProfile,
  backendAgainstSandbox,
  sandboxApi,
  startBackend,
  startSandbox,
  waitFor,
  type BackendEnv
} from '../sandbox-env'

requireRealKeyring()

/** Scaled by the time scale 0.01 to 10 minutes: payments never time out while a slow machine runs a test. */
const APPROVAL_WINDOW_S = 60_000
/**
 * The real service rejects a deferred payment that gets no decision within 5 s (shared/reference): a rule that decides
 * later than that has failed the operator. How fast rules usually decide is a figure for `npm run bench`, not a bound
 * here, where a loaded 2-core machine can hold the loop back for a second.
 */
const SERVICE_DEADLINE_MS = 5_000

/** The environment of the describe block running now: each block sets up its own (`approvalsEnv`). */
let env: BackendEnv
function approvalsEnv(label: string, profile?: Parameters<typeof addProfile>[2]): void {
  const own = backendAgainstSandbox(label, {
    sandbox: { approvalWindowSeconds: APPROVAL_WINDOW_S, timeScale: 0.01 },
    backend: { autoSync: true },
    keychainPerTest: true,
    ...(profile && { profile })
  })
  beforeEach(() => {
    env = own
  })
}

async function customer(fullName = 'Ann Smith') {
  return sandboxApi(env.server)<{ id: string }>('POST', 'customers', {
    customerType: 'INDIVIDUAL',
    region: 'US',
    currencies: ['USD'],
    fullName,
    birthDate: '1990-02-03',
    nationality: 'US',
    address: { line1: '1 Main St', city: 'Austin', postalCode: '78701', country: 'US' }
  })
}
const receive = (customerId: string, amount: number, sender = '$success.usd@sandbox.uma.money') =>
  sandboxApi(env.server)<{ id: string }>('POST', 'sandbox/uma/receive', {
    senderUmaAddress: sender,
    receivingCurrencyCode: 'USD',
    receivingCurrencyAmount: amount,
    customerId
  })
/** Rules that are on: a USD ceiling, KYC APPROVED required, and the senders allowed (empty: any). */
const rulesOn = (maxUsd: number, allowedSenders: string[] = []) => ({
  enabled: true,
  maxAmountByCurrency: { USD: maxUsd },
  allowedSenders,
  requireKycApproved: true
})
const statusOnSandbox = async (id: string) =>
  (await sandboxApi(env.server)<{ status: string }>('GET', `transactions/${id}`)).status

describe('approvals against the sandbox', () => {
  approvalsEnv('approvals', {})

  it('rules approve a matching payment before the service’s 5 s deadline, and record the decision', async () => {
    const c = await customer()
    await env.h.call('approvals.rules.set', rulesOn(1_000_00, ['$success.usd@sandbox.uma.money']))
    await env.h.call('sync.now', null)
    const results: number[] = []
    for (let i = 0; i < 3; i++) {
      const t = await receive(c.id, 250_00 + i)
      const appeared = Date.now()
      const decision = await waitFor(
        () =>
          env.h.events.find(
            (e) => e.event === 'approvals.decided' && (e.payload as { transactionId: string }).transactionId === t.id
          ),
        SERVICE_DEADLINE_MS,
        5
      )
      results.push(Date.now() - appeared)
      expect(decision.payload).toMatchObject({ outcome: 'approved', amount: 250_00 + i, currency: 'USD' })
      expect(await statusOnSandbox(t.id)).not.toBe('PENDING')
    }
    if (process.env['PAYDESK_SHOW_LATENCY']) console.log('rule latency ms', results)
    expect(Math.max(...results)).toBeLessThan(SERVICE_DEADLINE_MS)
    const { decisions } = await env.h.call('approvals.decisions', { limit: 10 })
    expect(decisions).toHaveLength(3)
    expect(decisions[0]!.reasons.join(' ')).toMatch(/within the ceiling.*allow-list.*KYC is APPROVED/)
    expect(env.h.notifications.filter((n) => n.title === 'Payment approved automatically')).toHaveLength(3)
  })

  it('a payment outside the rules waits in the queue with a notification; the operator approves with prefill', async () => {
    const c = await customer()
    await env.h.call('approvals.rules.set', rulesOn(100))
    const t = await receive(c.id, 5_000_00)
    const decision = await waitFor(() => env.h.events.find((e) => e.event === 'approvals.decided'), SERVICE_DEADLINE_MS)
    expect(decision.payload).toMatchObject({ outcome: 'left-for-operator', transactionId: t.id })
    const n = await waitFor(() => env.h.notifications.find((x) => x.targetId === t.id))
    expect(n).toMatchObject({ title: 'Payment awaiting approval', route: 'approvals' })
    const { items } = await env.h.call('approvals.list', null)
    expect(items).toHaveLength(1)
    expect(items[0]!.transaction.id).toBe(t.id)
    expect(items[0]!.prefill).toMatchObject({
      FULL_NAME: 'Ann Smith',
      BIRTH_DATE: '1990-02-03',
      NATIONALITY: 'US',
      COUNTRY_OF_RESIDENCE: 'US'
    })
    expect(items[0]!.prefill['ADDRESS']).toMatchObject({ line1: '1 Main St', country: 'US' })
    const approvedTx = await env.h.call('approvals.approve', {
      transactionId: t.id,
      receiverCustomerInfo: items[0]!.prefill
    })
    expect(approvedTx.status).not.toBe('PENDING')
    expect((await env.h.call('approvals.list', null)).items).toHaveLength(0)
    // Approving again: 409 from the service, shown as a conflict with a sentence.
    const again = await env.h.raw('approvals.approve', { transactionId: t.id })
    expect(again).toMatchObject({ ok: false, error: { code: 'CONFLICT', httpStatus: 409 } })
    expect((again as { error: { message: string } }).error.message).toMatch(/no longer waiting for approval/)
  })

  it('without rules, a new payment is announced with its customer’s name and opens prefilled, customer never viewed', async () => {
    const c = await customer('Rosa Parks 010')
    const t = await receive(c.id, 12_00)
    await env.h.call('sync.now', null)
    const n = await waitFor(() => env.h.notifications.find((x) => x.targetId === t.id))
    expect(n.body).toContain('for Rosa Parks 010')
    const { items } = await env.h.call('approvals.list', null)
    expect(items.find((i) => i.transaction.id === t.id)?.prefill).toMatchObject({ FULL_NAME: 'Rosa Parks 010' })
  })

  it('a burst of payments to one customer costs one customer lookup, not one each', async () => {
    const c = await customer('Burst Doe 010')
    for (let i = 0; i < 12; i++) await receive(c.id, 1_00 + i)
    const lookups = env.server.faults.add({ route: 'GET /customers/{customerId}', kind: 'latency', latencyMs: 20 })
    await env.h.call('sync.now', null)
    await waitFor(() => env.h.notifications.some((n) => n.route === 'approvals'))
    expect(env.server.faults.list().find((r) => r.id === lookups.id)!.hits).toBe(1)
  })

  it('rejects with a reason, and a notification per new payment without rules', async () => {
    const c = await customer()
    const a = await receive(c.id, 1_00)
    const b = await receive(c.id, 2_00)
    await env.h.call('sync.now', null)
    await waitFor(() => env.h.notifications.filter((n) => n.route === 'approvals').length === 2)
    expect(env.h.notifications.map((n) => n.targetId).sort()).toEqual([a.id, b.id].sort())
    const rejected = await env.h.call('approvals.reject', { transactionId: a.id, reason: 'Sender unknown to us' })
    expect(['REJECTED', 'FAILED']).toContain(rejected.status)
    expect((await env.h.call('approvals.list', null)).items.map((i) => i.transaction.id)).toEqual([b.id])
    expect(await env.h.raw('approvals.reject', { transactionId: b.id, reason: '   ' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' }
    })
    expect(await statusOnSandbox(b.id)).toBe('PENDING')
    // Nothing decided automatically while rules are off.
    expect((await env.h.call('approvals.decisions', null)).decisions).toEqual([])
  })

  it('announces a payment that arrived while Paydesk was closed once, and not again after a restart', async () => {
    const c = await customer()
    await env.h.call('sync.now', null)
    await env.h.close()
    const t = await receive(c.id, 3_00)
    env.h = await startBackend(env.dir, env.service)
    await env.h.call('sync.now', null)
    await waitFor(() => env.h.notifications.find((n) => n.targetId === t.id))
    await env.h.close()
    env.h = await startBackend(env.dir, env.service)
    await env.h.call('sync.now', null)
    await env.h.call('sync.now', null)
    expect(env.h.notifications).toEqual([])
    expect((await env.h.call('approvals.list', null)).items.map((i) => i.transaction.id)).toEqual([t.id])
  })
})

describe('approval rules of a profile in the background', () => {
  let other: SandboxServer
  // Registered before the backend's hooks: the other sandbox starts first and closes after the backend.
  beforeEach(async () => {
    other = await startSandbox({ clientSecret: 'other-sandbox-secret', approvalWindowSeconds: APPROVAL_WINDOW_S })
  })
  afterEach(async () => {
    await other.close()
  })
  approvalsEnv('approvals-bg')

  const decidedFor = (id: string) =>
    env.h.events.find(
      (e) => e.event === 'approvals.decided' && (e.payload as { transactionId: string }).transactionId === id
    )

  it('keep approving before the deadline after the operator switched to another profile, and stop when turned off', async () => {
    const acme = await addProfile(env.h, env.server, { name: 'Acme live' })
    const c = await customer()
    const on = rulesOn(1_000_00)
    await env.h.call('approvals.rules.set', on)
    await env.h.call('sync.now', null)
    const elsewhere = await addProfile(env.h, other, { name: 'Elsewhere' })
    expect((await env.h.call('profiles.list', null)).activeProfileId).toBe(elsewhere.id)
    await env.h.call('sync.now', null)
    env.h.events.length = 0

    const t = await receive(c.id, 120_00)
    const appeared = Date.now()
    const decision = await waitFor(() => decidedFor(t.id), SERVICE_DEADLINE_MS, 5)
    expect(Date.now() - appeared).toBeLessThan(SERVICE_DEADLINE_MS)
    expect(decision.payload).toMatchObject({ outcome: 'approved', profileId: acme.id })
    expect(await statusOnSandbox(t.id)).not.toBe('PENDING')
    // The notification names the background profile and says which one it is, so a click switches to it.
    const n = await waitFor(() => env.h.notifications.find((x) => x.targetId === t.id))
    expect(n).toMatchObject({
      title: 'Acme live: payment approved automatically',
      profileId: acme.id,
      route: 'approvals'
    })
    // Nothing the renderer would take for the active profile's data.
    for (const e of env.h.events.filter((e) =>
      ['data.changed', 'transactions.changed', 'sync.status'].includes(e.event)
    ))
      expect((e.payload as { profileId: string }).profileId).toBe(elsewhere.id)
    // The active profile's views never show the background profile's payments.
    expect((await env.h.call('transactions.query', {})).rows.map((r) => r.id)).not.toContain(t.id)

    // After a restart the background profile runs again without being opened.
    await env.h.close()
    env.h = await startBackend(env.dir, env.service)
    const t2 = await receive(c.id, 130_00)
    await waitFor(() => decidedFor(t2.id), SERVICE_DEADLINE_MS, 5)
    expect(await statusOnSandbox(t2.id)).not.toBe('PENDING')

    // Rules off there: nothing more is decided once the operator is back elsewhere.
    await env.h.call('profiles.switch', { id: acme.id })
    await env.h.call('approvals.rules.set', { ...on, enabled: false })
    await env.h.call('profiles.switch', { id: elsewhere.id })
    const t3 = await receive(c.id, 140_00)
    await new Promise((r) => setTimeout(r, 1_500))
    expect(decidedFor(t3.id)).toBeUndefined()
    expect(await statusOnSandbox(t3.id)).toBe('PENDING')
    await env.h.call('profiles.switch', { id: acme.id })
    expect((await env.h.call('approvals.decisions', null)).decisions.map((d) => d.transactionId)).toEqual([t2.id, t.id])
  }, 20_000)

  it('closes the background session when its profile is removed', async () => {
    const acme = await addProfile(env.h, env.server, { name: 'Acme live' })
    const c = await customer()
    await env.h.call('approvals.rules.set', rulesOn(1_000_00))
    await addProfile(env.h, other, { name: 'Elsewhere' })
    await env.h.call('profiles.remove', { id: acme.id })
    const t = await receive(c.id, 120_00)
    await new Promise((r) => setTimeout(r, 1_000))
    expect(decidedFor(t.id)).toBeUndefined()
    expect(await statusOnSandbox(t.id)).toBe('PENDING')
  })
})

describe('production approvals need the operator’s confirmation in main', () => {
  approvalsEnv('approvals-prod', { name: 'Acme live', environment: 'production' })

  it('refuses to approve without confirmProduction and sends nothing', async () => {
    const c = await customer()
    const t = await receive(c.id, 5_00)
    await env.h.call('sync.now', null)
    for (const input of [{ transactionId: t.id }, { transactionId: t.id, confirmProduction: false }]) {
      const refused = await env.h.raw('approvals.approve', input)
      expect(refused).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_REQUIRED' } })
      expect((refused as { error: { message: string } }).error.message).toMatch(/production profile.*real payment/)
    }
    expect(await statusOnSandbox(t.id)).toBe('PENDING')
    const approvedTx = await env.h.call('approvals.approve', { transactionId: t.id, confirmProduction: true })
    expect(approvedTx.status).not.toBe('PENDING')
  })

  it('refuses to save rules that are on without confirmProduction, and changes nothing', async () => {
    const on = rulesOn(10_00)
    const refused = await env.h.raw('approvals.rules.set', on)
    expect(refused).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_REQUIRED' } })
    expect((refused as { error: { message: string } }).error.message).toMatch(/approves real payments automatically/)
    expect((await env.h.call('approvals.rules.get', null)).enabled).toBe(false)
    expect(await env.h.call('approvals.rules.set', { ...on, confirmProduction: true })).toEqual(on)
    // Stored without the flag, so it survives a restart of the rules file's reader.
    expect(await env.h.call('approvals.rules.get', null)).toEqual(on)
    // Every save that leaves them on (a wider ceiling, say) is confirmed again; turning them off needs nothing.
    const widened = { ...on, maxAmountByCurrency: { USD: 1_000_00 } }
    expect(await env.h.raw('approvals.rules.set', widened)).toMatchObject({
      ok: false,
      error: { code: 'CONFIRMATION_REQUIRED' }
    })
    expect((await env.h.call('approvals.rules.get', null)).maxAmountByCurrency).toEqual({ USD: 10_00 })
    expect(await env.h.call('approvals.rules.set', { ...widened, confirmProduction: true })).toEqual(widened)
    expect(await env.h.call('approvals.rules.set', { ...on, enabled: false })).toMatchObject({ enabled: false })
  })
})
