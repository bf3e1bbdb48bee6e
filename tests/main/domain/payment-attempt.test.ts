import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { requireRealKeyring } from '../../support/keyring'
import { addProfile, backendAgainstSandbox, moneySetup, outgoing } from '../sandbox-env'

requireRealKeyring()

const env = backendAgainstSandbox('payment-attempt')

type Failure = { ok: false; error: { code: string; message: string } }

describe('a money call the service answers 401', () => {
  it('is final, "not sent": it holds nothing, blocks no fresh send and no profile removal', async () => {
    const profile = await addProfile(env.h, env.server)
    const { internalId, externalId } = await moneySetup(env.server)
    const input = { actionId: randomUUID(), sourceAccountId: internalId, destinationAccountId: externalId, amount: 650 }
    const refused = env.server.faults.add({ route: 'POST /transfer-out', kind: 'error', status: 401, times: 1 })
    const r = (await env.h.raw('transfers.send', input)) as Failure
    env.server.faults.remove(refused.id)
    expect(r).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } })
    expect(r.error.message).toMatch(/was not sent/)
    expect((await env.h.call('transfers.journal', null)).records).toEqual([
      expect.objectContaining({ actionId: input.actionId, state: 'refused' })
    ])
    // The credentials fixed, a fresh send of the same payment goes out once.
    const fresh = await env.h.call('transfers.send', { ...input, actionId: randomUUID() })
    expect(fresh.record.state).toBe('sent')
    expect(await outgoing(env.server)).toHaveLength(1)
    // Nothing of unknown outcome: the profile is removed without a warning about one.
    expect(await env.h.raw('profiles.remove', { id: profile.id })).toMatchObject({ ok: true })
  })
})
