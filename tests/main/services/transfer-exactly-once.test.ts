import { randomUUID } from 'node:crypto'
import { beforeEach, describe, expect, it } from 'vitest'
import { realClock } from '../../../src/main/services/sync/scheduler'
import { requireRealKeyring } from '../../support/keyring'
import { addProfile, backendAgainstSandbox, moneySetup, outgoing } from '../sandbox-env'

requireRealKeyring()

/*
 * The audit's two ways to pay twice, reproduced against the sandbox: a retry after the service forgot the key (its
 * clock and Paydesk's moved 25 h), and a second action for the same payment after "Back" and a new review.
 */
const HOUR = 60 * 60_000

let offset = 0
const now = () => Date.now() + offset

type Failure = { ok: false; error: { code: string; message: string; actionId?: string } }

// Before the backend's hooks: each test's sandbox and backend start with the clocks agreeing.
beforeEach(() => {
  offset = 0
})
const env = backendAgainstSandbox('exactly-once', { sandbox: { now }, backend: { clock: { ...realClock, now } } })

async function lostTransfer(amount: number) {
  await addProfile(env.h, env.server)
  const { internalId, externalId } = await moneySetup(env.server)
  const input = { actionId: randomUUID(), sourceAccountId: internalId, destinationAccountId: externalId, amount }
  const drop = env.server.faults.add({ route: 'POST /transfer-out', kind: 'commitThenDrop' })
  expect(((await env.h.raw('transfers.send', input)) as { ok: boolean }).ok).toBe(false)
  env.server.faults.remove(drop.id)
  expect(await outgoing(env.server)).toHaveLength(1)
  return input
}

describe('a transfer of unknown outcome older than the idempotency window', () => {
  it('cannot be retried with a click: refused until checked, and the check finds the transfer that landed', async () => {
    const input = await lostTransfer(4_321)
    offset = 25 * HOUR
    const retry = (await env.h.raw('transfers.send', input)) as Failure
    expect(retry).toMatchObject({ ok: false, error: { code: 'CHECK_REQUIRED', actionId: input.actionId } })
    expect(retry.error.message).toMatch(/could pay a second time/)
    expect(await outgoing(env.server)).toHaveLength(1)

    // "Send again" is refused before a check, too.
    const early = (await env.h.raw('transfers.sendAgain', {
      actionId: input.actionId,
      newActionId: randomUUID(),
      confirmNotSent: true
    })) as Failure
    expect(early).toMatchObject({ ok: false, error: { code: 'CHECK_REQUIRED' } })

    const checked = await env.h.call('transfers.check', { actionId: input.actionId })
    expect(checked.matches).toHaveLength(1)
    expect(checked.record).toMatchObject({ checkFound: 1 })
    const settled = await env.h.call('transfers.resolve', {
      actionId: input.actionId,
      transactionId: checked.matches[0]!.id as `Transaction:${string}`
    })
    expect(settled.record).toMatchObject({ state: 'sent', transactionId: checked.matches[0]!.id })
    expect(await outgoing(env.server)).toHaveLength(1)
  })

  it('"it did not go through, send again" makes one new action, logged, after a check that found nothing', async () => {
    await addProfile(env.h, env.server)
    const { internalId, externalId } = await moneySetup(env.server)
    const input = { actionId: randomUUID(), sourceAccountId: internalId, destinationAccountId: externalId, amount: 777 }
    // The connection is reset before the service processes anything: unknown outcome, nothing landed.
    const reset = env.server.faults.add({ route: 'POST /transfer-out', kind: 'reset' })
    expect(((await env.h.raw('transfers.send', input)) as { ok: boolean }).ok).toBe(false)
    env.server.faults.remove(reset.id)
    expect((await env.h.call('transfers.journal', null)).records[0]).toMatchObject({ state: 'unknown' })
    offset = 25 * HOUR
    const checked = await env.h.call('transfers.check', { actionId: input.actionId })
    expect(checked.matches).toEqual([])
    const newActionId = randomUUID()
    const again = await env.h.call('transfers.sendAgain', {
      actionId: input.actionId,
      newActionId,
      confirmNotSent: true
    })
    expect(again.record).toMatchObject({ actionId: newActionId, state: 'sent', replaces: input.actionId })
    // Its answer lost and "send again" pressed again: still the new action's key, still one transfer.
    await env.h.call('transfers.sendAgain', { actionId: input.actionId, newActionId, confirmNotSent: true })
    expect(await outgoing(env.server)).toHaveLength(1)
    const records = (await env.h.call('transfers.journal', null)).records
    expect(records.find((r) => r.actionId === input.actionId)).toMatchObject({
      state: 'superseded',
      supersededBy: newActionId
    })
    expect(env.h.logs.some((l) => l.includes('did not go through') && l.includes(newActionId))).toBe(true)
  })

  it('follows the profile’s own window when it sets one', async () => {
    const input = await lostTransfer(1_234)
    const profileId = (await env.h.call('profiles.list', null)).activeProfileId
    await env.h.call('profiles.update', { id: profileId, idempotencyWindowHours: 1 })
    offset = 2 * HOUR
    expect(await env.h.raw('transfers.send', input)).toMatchObject({ ok: false, error: { code: 'CHECK_REQUIRED' } })
  })

  it('within the window, a retry still reuses the key and lands once', async () => {
    const input = await lostTransfer(2_222)
    offset = 23 * HOUR
    const retried = await env.h.call('transfers.send', input)
    expect(retried.record.state).toBe('sent')
    expect(await outgoing(env.server)).toHaveLength(1)
  })
})

describe('a second action for a payment whose outcome is unknown', () => {
  it('is refused with the unknown one to review and retry instead, so the payment lands once', async () => {
    const first = await lostTransfer(5_000)
    const reReviewed = { ...first, actionId: randomUUID() }
    const refused = (await env.h.raw('transfers.send', reReviewed)) as Failure
    expect(refused).toMatchObject({ ok: false, error: { code: 'CONFLICT', actionId: first.actionId } })
    expect(refused.error.message).toMatch(/Review and retry/)
    const retried = await env.h.call('transfers.send', first)
    expect(retried.record.state).toBe('sent')
    expect(await outgoing(env.server)).toHaveLength(1)
    // Once the first one's outcome is known, the same payment can be made again on purpose.
    const another = await env.h.call('transfers.send', { ...first, actionId: randomUUID() })
    expect(another.record.state).toBe('sent')
    expect(await outgoing(env.server)).toHaveLength(2)
  })
})
