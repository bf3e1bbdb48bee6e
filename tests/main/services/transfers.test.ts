import { randomUUID } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SandboxServer } from '../../../src/sandbox/server'
import { requireRealKeyring } from '../../support/keyring'
import { tempDir } from '../helpers'
import {
  addProfile,
  balanceOf,
  moneySetup,
  outgoing,
  sandboxApi,
  startBackend,
  startSandbox,
  testKeychainService,
  waitFor,
  type Harness
} from '../sandbox-env'

requireRealKeyring()

let server: SandboxServer
let h: Harness
let dir: string
let cleanup: () => Promise<void>
const service = testKeychainService('transfers')

beforeEach(async () => {
  ;({ dir, cleanup } = await tempDir('transfers'))
  server = await startSandbox()
  h = await startBackend(dir, service, { autoSync: false })
})
afterEach(async () => {
  await h.close()
  await server.close()
  await cleanup()
})

describe('transfers.send over HTTP against the sandbox', () => {
  it('commit-then-drop: the retry reuses the Idempotency-Key, so exactly one transfer and one debit', async () => {
    await addProfile(h, server)
    const { internalId, externalId } = await moneySetup(server)
    const before = await balanceOf(server, internalId)
    server.faults.add({ route: 'POST /transfer-out', kind: 'commitThenDrop', times: 1 })
    const result = await h.call('transfers.send', {
      actionId: randomUUID(),
      sourceAccountId: internalId,
      destinationAccountId: externalId,
      amount: 12_345
    })
    expect(result.record).toMatchObject({ state: 'sent', attempts: 1, amount: 12_345 })
    expect(result.record).not.toHaveProperty('idempotencyKey')
    const out = await outgoing(server)
    expect(out).toHaveLength(1)
    expect(out[0]!.id).toBe(result.transaction.id)
    const after = await balanceOf(server, internalId)
    expect(before - after).toBe(12_345 + (out[0]!.fees ?? 0))
  })

  it('survives a crash: after a restart the same action resends the same key and still moves money once', async () => {
    await addProfile(h, server)
    const { internalId, externalId } = await moneySetup(server)
    const before = await balanceOf(server, internalId)
    const actionId = randomUUID()
    const input = { actionId, sourceAccountId: internalId, destinationAccountId: externalId, amount: 500 }
    // Every attempt commits and loses its answer.
    const rule = server.faults.add({ route: 'POST /transfer-out', kind: 'commitThenDrop' })
    const failed = (await h.raw('transfers.send', input)) as { ok: boolean; error: { code: string; message: string } }
    expect(failed.ok).toBe(false)
    expect(failed.error.message).toMatch(/outcome is not known|safe/)
    expect(rule.hits).toBeGreaterThan(1)
    expect(await outgoing(server)).toHaveLength(1) // committed once, whatever the number of attempts
    // "Crash": a new backend on the same data folder and keychain.
    await h.close()
    server.faults.clear()
    h = await startBackend(dir, service, { autoSync: false })
    const journal = await h.call('transfers.journal', null)
    expect(journal.records).toEqual([expect.objectContaining({ actionId, state: 'unknown' })])
    const again = await h.call('transfers.send', input)
    expect(again.record.state).toBe('sent')
    const out = await outgoing(server)
    expect(out).toHaveLength(1)
    expect(again.transaction.id).toBe(out[0]!.id)
    expect(before - (await balanceOf(server, internalId))).toBe(500 + (out[0]!.fees ?? 0))
    // Sending the same action a third time answers from the journal without moving money.
    await h.call('transfers.send', input)
    expect(await outgoing(server)).toHaveLength(1)
  })

  it('two sends of the same action at once (a double click) make one transfer', async () => {
    await addProfile(h, server)
    const { internalId, externalId } = await moneySetup(server)
    server.faults.add({ route: 'POST /transfer-out', kind: 'latency', latencyMs: 200 })
    const input = { actionId: randomUUID(), sourceAccountId: internalId, destinationAccountId: externalId, amount: 42 }
    const [a, b] = await Promise.all([h.call('transfers.send', input), h.call('transfers.send', input)])
    expect(a.transaction.id).toBe(b.transaction.id)
    expect(await outgoing(server)).toHaveLength(1)
  })

  it('keeps an honest journal: refused, not sent, and "may have gone through" never turns into "refused"', async () => {
    await addProfile(h, server)
    const { internalId, externalId } = await moneySetup(server, 1_000)
    const journal = async (actionId: string) =>
      (await h.call('transfers.journal', null)).records.find((r) => r.actionId === actionId)

    // More than the balance: the service refuses it.
    const tooMuch = {
      actionId: randomUUID(),
      sourceAccountId: internalId,
      destinationAccountId: externalId,
      amount: 5_000
    }
    const r1 = (await h.raw('transfers.send', tooMuch)) as { ok: boolean; error: { code: string } }
    expect(r1.ok).toBe(false)
    expect(await journal(tooMuch.actionId)).toMatchObject({ state: 'refused', attempts: 1 })

    // Rate limited on every attempt: never processed, so still 'prepared' and the sentence says it was not sent.
    const limited = {
      actionId: randomUUID(),
      sourceAccountId: internalId,
      destinationAccountId: externalId,
      amount: 10
    }
    const rule = server.faults.add({ route: 'POST /transfer-out', kind: 'rateLimit', retryAfterSeconds: 0 })
    const r2 = (await h.raw('transfers.send', limited)) as { ok: boolean; error: { code: string; message: string } }
    expect(r2).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED' } })
    expect(r2.error.message).toMatch(/was not sent/)
    expect(await journal(limited.actionId)).toMatchObject({ state: 'prepared' })
    server.faults.remove(rule.id)

    // Committed, answer lost on every attempt → unknown. A later 400 for the same action cannot make it 'refused'.
    const lost = { actionId: randomUUID(), sourceAccountId: internalId, destinationAccountId: externalId, amount: 20 }
    const drop = server.faults.add({ route: 'POST /transfer-out', kind: 'commitThenDrop' })
    expect(((await h.raw('transfers.send', lost)) as { ok: boolean }).ok).toBe(false)
    expect(await journal(lost.actionId)).toMatchObject({ state: 'unknown' })
    server.faults.remove(drop.id)
    const bad = server.faults.add({
      route: 'POST /transfer-out',
      kind: 'error',
      status: 400,
      code: 'INVALID_INPUT',
      times: 1
    })
    expect(((await h.raw('transfers.send', lost)) as { ok: boolean }).ok).toBe(false)
    expect(await journal(lost.actionId)).toMatchObject({ state: 'unknown' })
    server.faults.remove(bad.id)
    // And the next retry resolves it with the stored answer: one transfer for that action.
    expect((await h.call('transfers.send', lost)).record.state).toBe('sent')
    expect((await outgoing(server)).filter((t) => t.sentAmount.amount >= 20 && t.sentAmount.amount < 100)).toHaveLength(
      1
    )
  })

  it('refuses to reuse an action id for a different transfer', async () => {
    await addProfile(h, server)
    const { internalId, externalId } = await moneySetup(server)
    const actionId = randomUUID()
    await h.call('transfers.send', {
      actionId,
      sourceAccountId: internalId,
      destinationAccountId: externalId,
      amount: 100
    })
    const r = (await h.raw('transfers.send', {
      actionId,
      sourceAccountId: internalId,
      destinationAccountId: externalId,
      amount: 999
    })) as any // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    expect(await outgoing(server)).toHaveLength(1)
  })

  it('production profiles need the explicit confirmation; without it nothing is sent', async () => {
    await addProfile(h, server, { environment: 'production' })
    const { internalId, externalId } = await moneySetup(server)
    const input = { actionId: randomUUID(), sourceAccountId: internalId, destinationAccountId: externalId, amount: 100 }
    const r = (await h.raw('transfers.send', input)) as any // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(r).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_REQUIRED' } })
    expect(r.error.message).toMatch(/production/)
    expect(await outgoing(server)).toHaveLength(0)
    expect((await h.call('transfers.journal', null)).records).toEqual([])
    const ok = await h.call('transfers.send', { ...input, confirmProduction: true })
    expect(ok.transaction.type).toBe('OUTGOING')
    // Sandbox tools are refused on production profiles.
    expect(await h.raw('sandbox.fund', { accountId: internalId, amount: 5 })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' }
    })
  })

  it('bad input changes nothing: invalid amounts and ids are refused before anything runs', async () => {
    await addProfile(h, server)
    const { internalId, externalId } = await moneySetup(server)
    for (const bad of [
      { actionId: randomUUID(), sourceAccountId: internalId, destinationAccountId: externalId, amount: 1.5 },
      { actionId: randomUUID(), sourceAccountId: internalId, destinationAccountId: externalId, amount: -1 },
      { actionId: 'not-a-uuid', sourceAccountId: internalId, destinationAccountId: externalId, amount: 1 },
      { actionId: randomUUID(), sourceAccountId: externalId, destinationAccountId: internalId, amount: 1 }
    ]) {
      expect(await h.raw('transfers.send', bad)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    }
    expect(await outgoing(server)).toHaveLength(0)
    expect((await h.call('transfers.journal', null)).records).toEqual([])
  })

  it('notifies when a transfer the operator started completes or fails', async () => {
    await h.close()
    h = await startBackend(dir, service) // with live sync
    await addProfile(h, server)
    const { internalId, externalId } = await moneySetup(server)
    const sent = await h.call('transfers.send', {
      actionId: randomUUID(),
      sourceAccountId: internalId,
      destinationAccountId: externalId,
      amount: 700
    })
    const n = await waitFor(() => h.notifications.find((x) => x.targetId === sent.transaction.id), 15_000)
    expect(n).toMatchObject({ title: 'Transfer completed', route: 'transactions' })
    expect(n.body).toContain('7.00 USD')
    const journal = await h.call('transfers.journal', null)
    expect(journal.records[0]).toMatchObject({ transactionStatus: 'COMPLETED' })

    // An account number ending in 004: the bank rejects the transfer after a while.
    const api = sandboxApi(server)
    const rejecting = await api<{ id: string }>('POST', 'customers/external-accounts', {
      currency: 'USD',
      platformAccountId: 'rejects',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '40012345004',
        routingNumber: '021000021',
        accountCategory: 'CHECKING',
        bankName: 'Chase Bank',
        paymentRails: ['ACH'],
        beneficiary: {
          beneficiaryType: 'BUSINESS',
          businessInfo: { legalName: 'Ops Inc.' },
          address: { line1: '1 Main St', city: 'Austin', postalCode: '78701', country: 'US' }
        }
      }
    })
    const doomed = await h.call('transfers.send', {
      actionId: randomUUID(),
      sourceAccountId: internalId,
      destinationAccountId: rejecting.id,
      amount: 300
    })
    const failed = await waitFor(() => h.notifications.find((x) => x.targetId === doomed.transaction.id), 15_000)
    expect(failed).toMatchObject({ title: 'Transfer failed', route: 'transactions' })
    expect(failed.body).toMatch(/3\.00 USD to ExternalAccount:.* did not go through/)
  })
})
