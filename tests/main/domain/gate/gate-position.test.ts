/* eslint-disable @typescript-eslint/no-explicit-any -- recorded events are read by assertions */
/**
 * A remote gate's saved read position, across restarts of Paydesk's backend: what the gate decided while Paydesk was
 * closed is told once, as one summary per profile; nothing is told twice; a damaged position is set aside and told,
 * and the link follows from now. The gate is a real one in front of a real Local sandbox (tests/gate/harness.ts);
 * every wait is for an event (a link state, a stream entry, a notification), never for time.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBackend, type Backend } from '../../../../src/main/app/backend'
import { dispatch } from '../../../../src/main/handlers/dispatch'
import { profileDir } from '../../../../src/main/domain/profiles'
import type { GateRules } from '../../../../src/shared/gate'
import { startRig, type Rig } from '../../../gate/harness'
import { requireRealKeyring, testKeychainService } from '../../../support/keyring'
import { tempDir } from '../../helpers'
import { recorder } from './gate-rig'

requireRealKeyring()

const RULES: GateRules = {
  rules: [
    {
      name: 'small USD',
      maxAmountByCurrency: { USD: 100_00 },
      allowedSenders: [],
      requireKycApproved: true,
      action: 'approve',
      fallback: 'reject'
    },
    {
      name: 'large USD',
      maxAmountByCurrency: { USD: 1_000_00 },
      allowedSenders: [],
      requireKycApproved: true,
      action: 'reject',
      reason: 'Too large for the desk',
      fallback: 'reject'
    }
  ],
  otherwise: 'ask',
  otherwiseFallback: 'reject'
}

let rig: Rig
let dataDir: string
let cleanup: () => Promise<void>
let customer: string
let profileId: string
const keychainService = testKeychainService('gate-position')

interface Paydesk {
  backend: Backend
  rec: ReturnType<typeof recorder>
  call(channel: string, input?: unknown): Promise<any>
}

/** Paydesk's backend started on the same data folder and keychain, as at every launch. */
async function launch(): Promise<Paydesk> {
  const rec = recorder()
  const backend = await createBackend(
    {
      mode: 'browser',
      appVersion: '9.9.9',
      dataDir,
      notify: (n) => rec.record('notify', n),
      log: () => {}
    },
    { keychainService, localSandbox: false, autoSync: false }
  )
  backend.subscribe((event, payload) => rec.record(String(event), payload))
  const call = (channel: string, input?: unknown) => dispatch(backend.handlers, channel, input ?? null) as Promise<any>
  return { backend, rec, call }
}

/** The profile's link is live (already, or when it goes live). */
async function live(p: Paydesk): Promise<void> {
  const now = await p.call('gate.link')
  if (now.value.state === 'live') return
  await p.rec.until(
    (s) => s.event === 'gate.linkChanged' && s.payload.profileId === profileId && s.payload.state === 'live'
  )
}

/**
 * Writes an entry at the gate and waits until the live stream delivered it: everything the link was going to tell
 * about what came before has been told by then.
 */
async function settled(p: Paydesk): Promise<void> {
  expect((await rig.op('PUT', '/operator/rules', RULES)).status).toBe(200)
  const last = (await rig.op('GET', '/operator/log')).body.events.at(-1).seq
  await p.rec.until((s) => s.event === 'gate.event' && s.payload.event.seq === last)
}

/** A launch as the operator sees it: the link live, and what it had to tell about the time closed told. */
async function launchSettled(): Promise<Paydesk> {
  const p = await launch()
  await live(p)
  await settled(p)
  return p
}

const notifications = (p: Paydesk) => p.rec.seen.filter((s) => s.event === 'notify').map((s) => s.payload)

/** A payment the gate leaves to a person, and nobody answers: the rule's fallback rejects it and tells the service. */
async function leftToTheFallback(): Promise<void> {
  const paid = await rig.receive(customer, 5_000_00)
  expect(paid.webhook.answer.status).toBe(202)
  const told = new Promise<void>((resolve) => {
    const off = rig.store.subscribe((e) => {
      if (e.kind !== 'decision-sent' || e.data['transactionId'] !== paid.id) return
      off()
      resolve()
    })
  })
  rig.clock.advance(4_000)
  await told
}

/** A payment the gate leaves to a person, approved by an operator (at the gate, from another desk). */
async function approvedByAnOperator(): Promise<void> {
  const paid = await rig.receive(customer, 2_000_00)
  expect(paid.webhook.answer.status).toBe(202)
  expect((await rig.op('POST', `/operator/prompts/${paid.id}`, { action: 'approve' })).status).toBe(200)
}

const positionFile = () => path.join(profileDir(dataDir, profileId), 'gate-position.json')

beforeAll(async () => {
  rig = await startRig()
  ;({ dir: dataDir, cleanup } = await tempDir('gate-position'))
  customer = await rig.customer()
  const info = { BIRTH_DATE: '1990-01-02', NATIONALITY: 'US' }
  expect((await rig.op('PUT', `/operator/receiver-info/${customer}`, { info })).status).toBe(204)
  expect((await rig.op('PUT', '/operator/rules', RULES)).status).toBe(200)
  // Some history before Paydesk is linked: a first link starts from now and tells none of it.
  await rig.receive(customer, 500_00)
  await leftToTheFallback()
})

afterAll(async () => {
  await rig?.close()
  await cleanup?.()
})

describe('a remote gate’s read position', () => {
  let first: Paydesk

  it('a first link follows from now: the gate’s history raises nothing', async () => {
    first = await launch()
    const created = await first.call('profiles.create', {
      name: 'Acme',
      environment: 'sandbox',
      tokenId: 'tok',
      clientSecret: 'sek'
    })
    profileId = created.value.id
    await first.call('profiles.switch', { id: profileId })
    expect(await first.call('gate.connect', { url: rig.gate.url, token: rig.token })).toMatchObject({ ok: true })
    await live(first)
    await settled(first)
    expect(notifications(first)).toEqual([])
  })

  it('tells what the gate decided while Paydesk was closed in one notification, with counts', async () => {
    // Live, before closing: a rejection is told at once (and must not be counted again after the restart).
    await rig.receive(customer, 500_00)
    await first.rec.until((s) => s.event === 'notify' && s.payload.title === 'Payment rejected')
    await first.backend.close()
    expect(await readdir(path.dirname(positionFile()))).toContain('gate-position.json')

    // Closed: two rule approvals, a rule rejection, an operator's approval elsewhere, a fallback.
    await rig.receive(customer, 40_00)
    await rig.receive(customer, 60_00)
    await rig.receive(customer, 700_00)
    await approvedByAnOperator()
    await leftToTheFallback()

    const second = await launchSettled()
    const told = notifications(second)
    expect(told).toEqual([
      {
        id: expect.stringMatching(/^gate-missed:\d+$/),
        title: 'Decided while Paydesk was closed',
        body:
          'While Paydesk was closed, the approval gate logged 3 approved payments (2 by a rule, 1 by an operator); ' +
          '1 rejected payment; 1 payment decided by the fallback (no operator answered). See Approvals → Decisions.',
        route: 'approvals',
        profileId
      }
    ])
    await second.backend.close()
  })

  it('tells nothing twice, and approvals alone stay quiet', async () => {
    const third = await launchSettled()
    expect(notifications(third)).toEqual([])
    await third.backend.close()

    // Closed: a rule approval only (quiet, as live), then a restart, then a rejection and another restart.
    await rig.receive(customer, 10_00)
    const fourth = await launchSettled()
    expect(notifications(fourth)).toEqual([])
    await fourth.backend.close()

    await rig.receive(customer, 800_00)
    const fifth = await launchSettled()
    expect(notifications(fifth).map((n) => n.body)).toEqual([
      'While Paydesk was closed, the approval gate logged 1 rejected payment. See Approvals → Decisions.'
    ])
    await fifth.backend.close()
  })

  it.each([
    ['garbage', () => writeFile(positionFile(), 'not json at all\n')],
    ['a folder in its place', () => rm(positionFile()).then(() => mkdir(positionFile()))]
  ])('a damaged position (%s) is set aside and told, and the link follows from now', async (_what, damage) => {
    await damage()
    await rig.receive(customer, 900_00)
    const p = await launchSettled()
    // Nothing of what it cannot know is claimed: no summary, the rejection before now is not told one by one either.
    expect(notifications(p)).toEqual([])
    const notices = (await p.call('notices.list')).value
    const notice = notices.find((n: any) => n.kind === 'damaged-file' && n.setAsideAs?.includes('gate-position.json'))
    expect(notice).toMatchObject({
      profileId,
      title: 'Where Paydesk stopped reading the approval gate of “Acme” was damaged.'
    })
    await p.call('notices.dismiss', { id: notice.id })
    // The new position is written after the link caught up, off the event that told it; closing waits for the write.
    await p.backend.close()
    const kept = await readdir(path.dirname(positionFile()))
    expect(kept).toContain('gate-position.json')
    expect(kept.filter((f) => f.startsWith('gate-position.json.unreadable-')).length).toBeGreaterThan(0)
  })
})
