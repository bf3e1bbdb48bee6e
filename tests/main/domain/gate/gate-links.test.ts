/* eslint-disable @typescript-eslint/no-explicit-any -- recorded events are read by assertions */
import { afterEach, describe, expect, it } from 'vitest'
import { gateTokenAccount } from '../../../../src/main/infra/keychain'
import { requireRealKeyring } from '../../../support/keyring'
import { linksRig, type LinksRig } from './gate-rig'

requireRealKeyring()

let r: LinksRig | undefined
let gateStopped = false
afterEach(async () => {
  await r?.close({ gateStopped })
  r = undefined
  gateStopped = false
})

const linkState = (state: string) => (s: { event: string; payload: any }) =>
  s.event === 'gate.linkChanged' && s.payload.state === state
const entry = (kind: string) => (s: { event: string; payload: any }) =>
  s.event === 'gate.event' && s.payload.event.kind === kind

async function connected(o: Parameters<typeof linksRig>[0] = {}): Promise<LinksRig> {
  r = await linksRig(o)
  const mark = r.rec.mark()
  const linked = await r.call('gate.connect', { url: r.gateUrl, token: r.rig.token })
  expect(linked).toMatchObject({ ok: true })
  await r.rec.until(linkState('live'), mark)
  return r
}

/** Connected, then Priya Raman (named in Paydesk) is paid $275.50, which the gate's rules leave to an operator. */
async function priyaPaysAsked() {
  const { rec, rig, names } = await connected()
  const customer = await rig.customer({ fullName: 'Priya Raman' })
  names.set(customer, 'Priya Raman')
  const mark = rec.mark()
  const paid = await rig.receive(customer, 275_50)
  return { rec, rig, mark, paid }
}

describe('a profile’s gate link', () => {
  it('says plainly that a profile without a gate needs one', async () => {
    r = await linksRig()
    expect(await r.call('gate.link')).toMatchObject({
      ok: true,
      value: { state: 'none', url: null, managed: false, message: expect.stringContaining('npm run gate') }
    })
    expect(await r.call('gate.prompts')).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  })

  it('refuses a token the gate refuses, and saves nothing', async () => {
    r = await linksRig()
    const refused = await r.call('gate.connect', { url: r.gateUrl, token: 'not-an-operator-token-at-all' })
    expect(refused).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED', httpStatus: 401 } })
    expect(refused.error.message).not.toContain('not-an-operator-token')
    const id = r.profiles.activeProfileId
    expect(r.profiles.get(id).gateUrl).toBeUndefined()
    expect(await r.secrets.get(gateTokenAccount(id))).toBeUndefined()
    expect(r.links.link(id).state).toBe('none')
  })

  it('refuses a gate nobody answers at, and plain http off this machine', async () => {
    r = await linksRig()
    const down = await r.call('gate.connect', { url: 'http://127.0.0.1:9', token: r.rig.token })
    expect(down).toMatchObject({ ok: false, error: { code: 'UNREACHABLE' } })
    const plain = await r.call('gate.connect', { url: 'http://gate.example.com', token: r.rig.token })
    expect(plain).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    expect(r.profiles.get(r.profiles.activeProfileId).gateUrl).toBeUndefined()
  })

  it('keeps the token in the keychain and the URL with the profile, goes live, and forgets both on disconnect', async () => {
    const { profiles, secrets, rec } = await connected()
    const id = profiles.activeProfileId
    expect(await secrets.get(gateTokenAccount(id))).toBe(r!.rig.token)
    expect(profiles.get(id).gateUrl).toBe(r!.gateUrl)
    expect((await profiles.view(id)) as object).not.toHaveProperty('gateUrl')
    const mark = rec.mark()
    expect(await r!.call('gate.disconnect')).toMatchObject({ ok: true, value: { state: 'none', url: null } })
    await rec.until(linkState('none'), mark)
    expect(await secrets.get(gateTokenAccount(id))).toBeUndefined()
    expect(profiles.get(id).gateUrl).toBeUndefined()
    // The token went to the keychain only: no event, link or answer the renderer sees carries it.
    expect(JSON.stringify(rec.seen)).not.toContain(r!.rig.token)
    expect(JSON.stringify(await r!.call('gate.link'))).not.toContain(r!.rig.token)
  })

  it('stops following a removed profile, whose token leaves the keychain with it', async () => {
    const { profiles, secrets, links } = await connected()
    const id = profiles.activeProfileId
    await links.forget(id)
    await profiles.remove(id)
    expect(await secrets.get(gateTokenAccount(id))).toBeUndefined()
    expect(links.link(id)).toMatchObject({ state: 'none', url: null })
  })

  it('goes signed-out when the gate refuses the kept token', async () => {
    r = await linksRig()
    const id = r.profiles.activeProfileId
    await r.secrets.set(gateTokenAccount(id), 'a-token-this-gate-never-issued')
    await r.profiles.setGateUrl(id, r.gateUrl)
    const mark = r.rec.mark()
    await r.links.reopen(id)
    const out = await r.rec.until(linkState('signed-out'), mark)
    expect(out.payload.message).toMatch(/refused the operator token/)
    const refused = await r.call('gate.rules.get')
    expect(refused).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } })
    expect(JSON.stringify([refused, r.rec.seen])).not.toContain('a-token-this-gate-never-issued')
  })

  it('goes unreachable when the gate stops', async () => {
    const { rec, rig } = await connected()
    const mark = rec.mark()
    await rig.gate.close()
    gateStopped = true
    // The stream ended: the follower reconnects (held here, then let go) and finds nobody.
    await rec.until((s) => s.event === 'backoff', mark)
    r!.release()
    const out = await rec.until(linkState('unreachable'), mark)
    expect(out.payload.message).toMatch(/did not answer/)
  })

  it('resumes after a drop with exactly the entries it missed: no gap, no duplicate', async () => {
    const { rec, rig, links, profiles } = await connected()
    const id = profiles.activeProfileId
    const before = links.link(id).lastSeq
    const mark = rec.mark()
    r!.cut()
    await rec.until((s) => s.event === 'backoff', mark)
    expect(links.link(id)).toMatchObject({ state: 'connecting', lastSeq: before })
    // While Paydesk is away, the gate logs three rule changes.
    for (const otherwise of ['reject', 'ask', 'reject'])
      expect((await rig.op('PUT', '/operator/rules', { rules: [], otherwise })).status).toBe(200)
    r!.release()
    await rec.until(linkState('live'), mark)
    const last = await rec.until((s) => entry('rules')(s) && s.payload.event.seq === before + 3, mark)
    expect(last.payload.event.data).toMatchObject({ rules: { otherwise: 'reject' } })
    const seqs = rec.seen
      .slice(mark)
      .filter((s) => s.event === 'gate.event')
      .map((s) => s.payload.event.seq)
    expect(seqs).toEqual([before + 1, before + 2, before + 3])
    // And the log reads them back newest first.
    const log = await r!.call('gate.log', { limit: 3 })
    expect(log.value.events.map((e: any) => e.seq)).toEqual([before + 3, before + 2, before + 1])
    const older = await r!.call('gate.log', { before: before + 2, limit: 500 })
    expect(older.value.events[0].seq).toBe(before + 1)
  })
})

describe('prompts and decisions from the stream', () => {
  it('a prompt arrives as an event, a loud notification and a count; answering it approves at the sandbox', async () => {
    const { rec, rig, mark, paid } = await priyaPaysAsked()
    expect(paid.webhook.answer.status).toBe(202)
    const prompt = await rec.until(entry('prompt'), mark)
    expect(prompt.payload.event.data).toMatchObject({ transactionId: paid.id, amount: 275_50 })
    const loud = await rec.until((s) => s.event === 'notify', mark)
    expect(loud.payload).toMatchObject({
      title: 'Payment waiting for your approval',
      route: 'approvals',
      targetId: paid.id,
      profileId: r!.profiles.activeProfileId
    })
    expect(loud.payload.body).toMatch(/^\$275\.50 from \S+ for Priya Raman is waiting for your approval/)
    await rec.until((s) => s.event === 'gate.promptsChanged' && s.payload.count === 1, mark)
    const listed = await r!.call('gate.prompts')
    expect(listed.value.prompts.map((p: any) => p.transactionId)).toEqual([paid.id])

    const answered = await r!.call('gate.answer', {
      transactionId: paid.id,
      answer: { action: 'approve', receiverCustomerInfo: { BIRTH_DATE: '1990-01-02' } }
    })
    expect(answered).toMatchObject({ ok: true, value: { decision: { actor: 'operator:Ana' } } })
    const tx = (await rig.api('GET', `/transactions/${paid.id}`)).body
    expect(['PROCESSING', 'COMPLETED']).toContain(tx.status)
    await rec.until((s) => s.event === 'gate.promptsChanged' && s.payload.count === 0, mark)
    // An operator's approval is quiet: the one notification is the prompt's.
    await rec.until(entry('decision-sent'), mark)
    expect(rec.seen.slice(mark).filter((s) => s.event === 'notify')).toHaveLength(1)

    const late = await r!.call('gate.answer', { transactionId: paid.id, answer: { action: 'reject' } })
    expect(late).toMatchObject({ ok: false, error: { code: 'CONFLICT' } })
    expect(late.error.message).toBe('Too late: this payment was already decided by Ana. Nothing was sent.')
  })

  it('a gate unlinked with a prompt open leaves the badge at 0', async () => {
    const { rec, rig } = await connected()
    const mark = rec.mark()
    await rig.receive(await rig.customer(), 5_00)
    await rec.until((s) => s.event === 'gate.promptsChanged' && s.payload.count === 1, mark)
    expect(await r!.call('gate.disconnect')).toMatchObject({ ok: true })
    await rec.until((s) => s.event === 'gate.promptsChanged' && s.payload.count === 0, mark)
    expect(r!.links.openPrompts(r!.profiles.activeProfileId)).toBe(0)
  })

  it('a prompt left alone is rejected by the fallback, and the operator is told in a sentence', async () => {
    const { rec, rig, mark, paid } = await priyaPaysAsked()
    await rec.until(entry('prompt'), mark)
    rig.clock.advance(4_000)
    await rig.gate.gate.prompts.settleAll()
    const told = await rec.until((s) => s.event === 'notify' && s.payload.title === 'Payment rejected', mark)
    expect(told.payload.body).toMatch(
      /^\$275\.50 from \S+ for Priya Raman was rejected: no operator answered within 4 s\.$/
    )
    expect(told.payload.targetId).toBe(paid.id)
  })
})

describe('production asks twice', () => {
  it('rules, pre-approvals, receiver information and answers need confirmProduction; nothing changes without it', async () => {
    const { rig } = await connected({ environment: 'production' })
    const rules = { rules: [], otherwise: 'reject' }
    const refused = await r!.call('gate.rules.set', { rules })
    expect(refused).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_REQUIRED' } })
    expect((await rig.op('GET', '/operator/rules')).body.otherwise).toBe('ask')
    const pre = {
      customerId: 'Customer:1',
      currency: 'USD',
      maxAmount: 100,
      expiresAt: '2030-01-01T00:00:00Z'
    }
    expect(await r!.call('gate.preApprovals.add', { preApproval: pre })).toMatchObject({
      error: { code: 'CONFIRMATION_REQUIRED' }
    })
    expect(
      await r!.call('gate.receiverInfo.set', { customerId: 'Customer:1', info: { FULL_NAME: 'Priya Raman' } })
    ).toMatchObject({ error: { code: 'CONFIRMATION_REQUIRED' } })
    expect(
      await r!.call('gate.answer', { transactionId: 'Transaction:1', answer: { action: 'reject' } })
    ).toMatchObject({ error: { code: 'CONFIRMATION_REQUIRED' } })
    expect((await rig.op('GET', '/operator/pre-approvals')).body.preApprovals).toEqual([])

    expect(await r!.call('gate.rules.set', { rules, confirmProduction: true })).toMatchObject({
      ok: true,
      value: { otherwise: 'reject' }
    })
    expect((await rig.op('GET', '/operator/rules')).body.otherwise).toBe('reject')
    expect(await r!.call('gate.preApprovals.add', { preApproval: pre, confirmProduction: true })).toMatchObject({
      ok: true,
      value: { customerId: 'Customer:1', usedBy: null }
    })
  })
})
