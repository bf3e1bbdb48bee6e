import { randomUUID } from 'node:crypto'
import { beforeEach, describe, expect, it } from 'vitest'
import { realClock } from '../../../src/main/domain/sync/poll-scheduler'
import { requireRealKeyring } from '../../support/keyring'
import { addProfile, backendAgainstSandbox, moneySetup, outgoing } from '../sandbox-env'

requireRealKeyring()

/*
 * The ways to pay twice after an answer was lost, reproduced against the sandbox: a retry after the service forgot the
 * key (its clock alone moved 25 h, so Paydesk's own clock cannot tell), "it did not go through, send again" after a
 * check that found the payment, and a second action for the same payment after "Back" and a new review.
 */
const HOUR = 60 * 60_000

/** The service's clock and Paydesk's, moved apart or together by each test. */
let serviceOffset = 0
let paydeskOffset = 0
const serviceNow = () => Date.now() + serviceOffset
const paydeskNow = () => Date.now() + paydeskOffset

type Failure = { ok: false; error: { code: string; message: string; actionId?: string } }

// Before the backend's hooks: each test's sandbox and backend start with the clocks agreeing.
beforeEach(() => {
  serviceOffset = 0
  paydeskOffset = 0
})
const env = backendAgainstSandbox('exactly-once', {
  sandbox: { now: serviceNow },
  backend: { clock: { ...realClock, now: paydeskNow } }
})

/** A transfer whose answer was lost: `landed` says whether it reached the service before the connection went. */
async function lostTransfer(amount: number, landed = true) {
  await addProfile(env.h, env.server)
  const { internalId, externalId } = await moneySetup(env.server)
  const input = { actionId: randomUUID(), sourceAccountId: internalId, destinationAccountId: externalId, amount }
  const drop = env.server.faults.add({ route: 'POST /transfer-out', kind: landed ? 'commitThenDrop' : 'reset' })
  expect(((await env.h.raw('transfers.send', input)) as { ok: boolean }).ok).toBe(false)
  env.server.faults.remove(drop.id)
  expect((await env.h.call('transfers.journal', null)).records[0]).toMatchObject({ state: 'unknown' })
  expect(await outgoing(env.server)).toHaveLength(landed ? 1 : 0)
  return input
}

describe('a retry of a transfer of unknown outcome trusts no clock', () => {
  it('when only the service’s clock moved past its key window, the retry looks first, finds it and sends nothing', async () => {
    const input = await lostTransfer(4_321)
    serviceOffset = 25 * HOUR // the service forgot the key; Paydesk's clock says nothing happened
    const retry = (await env.h.raw('transfers.send', input)) as Failure
    expect(retry).toMatchObject({ ok: false, error: { code: 'CHECK_REQUIRED', actionId: input.actionId } })
    expect(retry.error.message).toMatch(/Nothing was sent/)
    expect(await outgoing(env.server)).toHaveLength(1)
    // And again: still nothing sent while the look-up finds it.
    expect(await env.h.raw('transfers.send', input)).toMatchObject({ ok: false, error: { code: 'CHECK_REQUIRED' } })

    const checked = await env.h.call('transfers.check', { actionId: input.actionId })
    expect(checked.matches).toHaveLength(1)
    const settled = await env.h.call('transfers.resolve', {
      actionId: input.actionId,
      transactionId: checked.matches[0]!.id as `Transaction:${string}`
    })
    expect(settled.record).toMatchObject({ state: 'sent', transactionId: checked.matches[0]!.id })
    expect(await outgoing(env.server)).toHaveLength(1)
  })

  it('when the look-up finds nothing, the retry goes out with the same key, whatever the clocks say', async () => {
    const input = await lostTransfer(2_222, false)
    serviceOffset = 25 * HOUR
    paydeskOffset = 25 * HOUR
    const retried = await env.h.call('transfers.send', input)
    expect(retried.record).toMatchObject({ state: 'sent', checkFound: 0 })
    expect(await outgoing(env.server)).toHaveLength(1)
  })
})

describe('"it did not go through, send again"', () => {
  it('is refused in main whenever the last check found the payment, both clocks 25 h on', async () => {
    const input = await lostTransfer(3_000)
    serviceOffset = 25 * HOUR
    paydeskOffset = 25 * HOUR
    const checked = await env.h.call('transfers.check', { actionId: input.actionId })
    expect(checked.matches).toHaveLength(1)
    const again = (await env.h.raw('transfers.sendAgain', {
      actionId: input.actionId,
      newActionId: randomUUID(),
      confirmNotSent: true
    })) as Failure
    expect(again).toMatchObject({ ok: false, error: { code: 'CONFLICT', actionId: input.actionId } })
    expect(again.error.message).toMatch(/last check found 1 matching payment/)
    expect(await outgoing(env.server)).toHaveLength(1)
    expect((await env.h.call('transfers.journal', null)).records).toEqual([
      expect.objectContaining({ actionId: input.actionId, state: 'unknown', checkFound: 1 })
    ])
  })

  it('is refused before any check', async () => {
    const input = await lostTransfer(1_234, false)
    const early = (await env.h.raw('transfers.sendAgain', {
      actionId: input.actionId,
      newActionId: randomUUID(),
      confirmNotSent: true
    })) as Failure
    expect(early).toMatchObject({ ok: false, error: { code: 'CHECK_REQUIRED' } })
    expect(await outgoing(env.server)).toHaveLength(0)
  })

  it('makes one new action, logged, after a check that found nothing', async () => {
    const input = await lostTransfer(777, false)
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
})

describe('a second action for a payment whose outcome is unknown', () => {
  it('is refused with the unknown one to review and retry instead, so the payment lands once', async () => {
    const first = await lostTransfer(5_000)
    const reReviewed = { ...first, actionId: randomUUID() }
    const refused = (await env.h.raw('transfers.send', reReviewed)) as Failure
    expect(refused).toMatchObject({ ok: false, error: { code: 'CONFLICT', actionId: first.actionId } })
    expect(refused.error.message).toMatch(/Review and retry/)
    // Reviewed and retried: the look-up finds it, and the operator settles it with that payment.
    expect(await env.h.raw('transfers.send', first)).toMatchObject({ ok: false, error: { code: 'CHECK_REQUIRED' } })
    const { matches } = await env.h.call('transfers.check', { actionId: first.actionId })
    await env.h.call('transfers.resolve', {
      actionId: first.actionId,
      transactionId: matches[0]!.id as `Transaction:${string}`
    })
    expect(await outgoing(env.server)).toHaveLength(1)
    // Once the first one's outcome is known, the same payment can be made again on purpose.
    const another = await env.h.call('transfers.send', { ...first, actionId: randomUUID() })
    expect(another.record.state).toBe('sent')
    expect(await outgoing(env.server)).toHaveLength(2)
  })
})
