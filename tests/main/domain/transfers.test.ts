import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { requireRealKeyring } from '../../support/keyring'
import {
  addProfile,
  backendAgainstSandbox,
  balanceOf,
  moneySetup,
  outgoing,
  platformUsdAccount,
  sandboxApi,
  startBackend,
  waitFor
} from '../sandbox-env'

requireRealKeyring()

const env = backendAgainstSandbox('transfers')

describe('transfers.send over HTTP against the sandbox', () => {
  it('commit-then-drop: the retry reuses the Idempotency-Key, so exactly one transfer and one debit', async () => {
    await addProfile(env.h, env.server)
    const { internalId, externalId } = await moneySetup(env.server)
    const before = await balanceOf(env.server, internalId)
    env.server.faults.add({ route: 'POST /transfer-out', kind: 'commitThenDrop', times: 1 })
    const result = await env.h.call('transfers.send', {
      actionId: randomUUID(),
      sourceAccountId: internalId,
      destinationAccountId: externalId,
      amount: 12_345
    })
    expect(result.record).toMatchObject({ state: 'sent', attempts: 1, amount: 12_345 })
    expect(result.record).not.toHaveProperty('idempotencyKey')
    const out = await outgoing(env.server)
    expect(out).toHaveLength(1)
    expect(out[0]!.id).toBe(result.transaction.id)
    const after = await balanceOf(env.server, internalId)
    expect(before - after).toBe(12_345 + (out[0]!.fees ?? 0))
  })

  it('survives a crash: after a restart the same action looks first, finds the payment and settles it, moving money once', async () => {
    await addProfile(env.h, env.server)
    const { internalId, externalId } = await moneySetup(env.server)
    const before = await balanceOf(env.server, internalId)
    const actionId = randomUUID()
    const input = { actionId, sourceAccountId: internalId, destinationAccountId: externalId, amount: 500 }
    // Every attempt commits and loses its answer.
    const rule = env.server.faults.add({ route: 'POST /transfer-out', kind: 'commitThenDrop' })
    const failed = (await env.h.raw('transfers.send', input)) as {
      ok: boolean
      error: { code: string; message: string }
    }
    expect(failed.ok).toBe(false)
    expect(failed.error.message).toMatch(/outcome is not known|safe/)
    expect(rule.hits).toBeGreaterThan(1)
    expect(await outgoing(env.server)).toHaveLength(1) // committed once, whatever the number of attempts
    // "Crash": a new backend on the same data folder and keychain.
    await env.h.close()
    env.server.faults.clear()
    env.h = await startBackend(env.dir, env.service, { autoSync: false })
    const journal = await env.h.call('transfers.journal', null)
    expect(journal.records).toEqual([expect.objectContaining({ actionId, state: 'unknown' })])
    // The retry looks the payment up first, finds it, and sends nothing: the operator settles it with what was found.
    expect(await env.h.raw('transfers.send', input)).toMatchObject({ ok: false, error: { code: 'CHECK_REQUIRED' } })
    const out = await outgoing(env.server)
    expect(out).toHaveLength(1)
    const checked = await env.h.call('transfers.check', { actionId })
    expect(checked.matches.map((t) => t.id)).toEqual([out[0]!.id])
    const settled = await env.h.call('transfers.resolve', {
      actionId,
      transactionId: out[0]!.id as `Transaction:${string}`
    })
    expect(settled.record.state).toBe('sent')
    expect(before - (await balanceOf(env.server, internalId))).toBe(500 + (out[0]!.fees ?? 0))
    // Sending the same action again answers from the journal without moving money.
    await env.h.call('transfers.send', input)
    expect(await outgoing(env.server)).toHaveLength(1)
  })

  it('two sends of the same action at once (a double click) make one transfer', async () => {
    await addProfile(env.h, env.server)
    const { internalId, externalId } = await moneySetup(env.server)
    env.server.faults.add({ route: 'POST /transfer-out', kind: 'latency', latencyMs: 200 })
    const input = { actionId: randomUUID(), sourceAccountId: internalId, destinationAccountId: externalId, amount: 42 }
    const [a, b] = await Promise.all([env.h.call('transfers.send', input), env.h.call('transfers.send', input)])
    expect(a.transaction.id).toBe(b.transaction.id)
    expect(await outgoing(env.server)).toHaveLength(1)
  })

  it('keeps an honest journal: refused, not sent, and "may have gone through" never turns into "refused"', async () => {
    await addProfile(env.h, env.server)
    const { internalId, externalId } = await moneySetup(env.server, 1_000)
    const journal = async (actionId: string) =>
      (await env.h.call('transfers.journal', null)).records.find((r) => r.actionId === actionId)

    // More than the balance: the service refuses it.
    const tooMuch = {
      actionId: randomUUID(),
      sourceAccountId: internalId,
      destinationAccountId: externalId,
      amount: 5_000
    }
    const r1 = (await env.h.raw('transfers.send', tooMuch)) as { ok: boolean; error: { code: string } }
    expect(r1.ok).toBe(false)
    expect(await journal(tooMuch.actionId)).toMatchObject({ state: 'refused', attempts: 1 })

    // Rate limited on every attempt: never processed, so still 'prepared' and the sentence says it was not sent.
    const limited = {
      actionId: randomUUID(),
      sourceAccountId: internalId,
      destinationAccountId: externalId,
      amount: 10
    }
    const rule = env.server.faults.add({ route: 'POST /transfer-out', kind: 'rateLimit', retryAfterSeconds: 0 })
    const r2 = (await env.h.raw('transfers.send', limited)) as { ok: boolean; error: { code: string; message: string } }
    expect(r2).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED' } })
    expect(r2.error.message).toMatch(/was not sent/)
    expect(await journal(limited.actionId)).toMatchObject({ state: 'prepared' })
    env.server.faults.remove(rule.id)

    // Committed, answer lost on every attempt → unknown. A later 400 for the same action cannot make it 'refused'.
    const lost = { actionId: randomUUID(), sourceAccountId: internalId, destinationAccountId: externalId, amount: 20 }
    const drop = env.server.faults.add({ route: 'POST /transfer-out', kind: 'reset' })
    expect(((await env.h.raw('transfers.send', lost)) as { ok: boolean }).ok).toBe(false)
    expect(await journal(lost.actionId)).toMatchObject({ state: 'unknown' })
    env.server.faults.remove(drop.id)
    const bad = env.server.faults.add({
      route: 'POST /transfer-out',
      kind: 'error',
      status: 400,
      code: 'INVALID_INPUT',
      times: 1
    })
    expect(((await env.h.raw('transfers.send', lost)) as { ok: boolean }).ok).toBe(false)
    expect(await journal(lost.actionId)).toMatchObject({ state: 'unknown' })
    env.server.faults.remove(bad.id)
    // Nothing reached the service (each connection was reset first): the next retry finds nothing and sends it once.
    expect((await env.h.call('transfers.send', lost)).record.state).toBe('sent')
    expect(
      (await outgoing(env.server)).filter((t) => t.sentAmount.amount >= 20 && t.sentAmount.amount < 100)
    ).toHaveLength(1)
  })

  it('refuses to reuse an action id for a different transfer', async () => {
    await addProfile(env.h, env.server)
    const { internalId, externalId } = await moneySetup(env.server)
    const actionId = randomUUID()
    await env.h.call('transfers.send', {
      actionId,
      sourceAccountId: internalId,
      destinationAccountId: externalId,
      amount: 100
    })
    const r = (await env.h.raw('transfers.send', {
      actionId,
      sourceAccountId: internalId,
      destinationAccountId: externalId,
      amount: 999
    })) as any // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    expect(await outgoing(env.server)).toHaveLength(1)
  })

  it('production profiles need the explicit confirmation; without it nothing is sent', async () => {
    await addProfile(env.h, env.server, { environment: 'production' })
    const { internalId, externalId } = await moneySetup(env.server)
    const input = { actionId: randomUUID(), sourceAccountId: internalId, destinationAccountId: externalId, amount: 100 }
    const r = (await env.h.raw('transfers.send', input)) as any // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(r).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_REQUIRED' } })
    expect(r.error.message).toMatch(/production/)
    expect(await outgoing(env.server)).toHaveLength(0)
    expect((await env.h.call('transfers.journal', null)).records).toEqual([])
    const ok = await env.h.call('transfers.send', { ...input, confirmProduction: true })
    expect(ok.transaction.type).toBe('OUTGOING')
    // Sandbox tools are refused on production profiles.
    expect(await env.h.raw('sandbox.fund', { accountId: internalId, amount: 5 })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' }
    })
  })

  it('bad input changes nothing: invalid amounts and ids are refused before anything runs', async () => {
    await addProfile(env.h, env.server)
    const { internalId, externalId } = await moneySetup(env.server)
    for (const bad of [
      { actionId: randomUUID(), sourceAccountId: internalId, destinationAccountId: externalId, amount: 1.5 },
      { actionId: randomUUID(), sourceAccountId: internalId, destinationAccountId: externalId, amount: -1 },
      { actionId: 'not-a-uuid', sourceAccountId: internalId, destinationAccountId: externalId, amount: 1 },
      { actionId: randomUUID(), sourceAccountId: externalId, destinationAccountId: internalId, amount: 1 }
    ]) {
      expect(await env.h.raw('transfers.send', bad)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    }
    expect(await outgoing(env.server)).toHaveLength(0)
    expect((await env.h.call('transfers.journal', null)).records).toEqual([])
  })

  it('the journal row says the status Transactions says at every change: one live status per payment', async () => {
    await env.h.close()
    env.h = await startBackend(env.dir, env.service) // with live sync
    await addProfile(env.h, env.server)
    const { internalId, externalId } = await moneySetup(env.server)
    const seen: Array<Promise<{ journal: string | undefined; transactions: string | undefined }>> = []
    const state: { id?: string } = {}
    // Read both surfaces the moment the renderer is told to re-read them (transactions.changed), as it does.
    env.h.backend.subscribe((event, payload) => {
      if (event !== 'transactions.changed' || !state.id) return
      const changes = (payload as { changes: Array<{ id: string }> }).changes
      if (!changes.some((c) => c.id === state.id)) return
      seen.push(
        Promise.all([
          env.h.call('transfers.journal', null),
          env.h.call('transactions.get', { id: state.id as never })
        ]).then(([journal, detail]) => ({
          journal: journal.records.find((r) => r.transactionId === state.id)?.transactionStatus,
          transactions: detail.transaction?.status
        }))
      )
    })
    const sent = await env.h.call('transfers.send', {
      actionId: randomUUID(),
      sourceAccountId: internalId,
      destinationAccountId: externalId,
      amount: 900
    })
    state.id = sent.transaction.id
    const n = await waitFor(() => env.h.notifications.find((x) => x.targetId === state.id), 15_000)
    expect(n.title).toBe('Transfer completed')
    const pairs = await Promise.all(seen)
    expect(pairs.length).toBeGreaterThan(0)
    for (const pair of pairs) expect(pair.journal).toBe(pair.transactions)
    expect(pairs.at(-1)).toEqual({ journal: 'COMPLETED', transactions: 'COMPLETED' })
  })

  it('notifies when a transfer the operator started completes or fails', async () => {
    await env.h.close()
    env.h = await startBackend(env.dir, env.service) // with live sync
    await addProfile(env.h, env.server)
    const { internalId, externalId } = await moneySetup(env.server)
    const sent = await env.h.call('transfers.send', {
      actionId: randomUUID(),
      sourceAccountId: internalId,
      destinationAccountId: externalId,
      amount: 700
    })
    const n = await waitFor(() => env.h.notifications.find((x) => x.targetId === sent.transaction.id), 15_000)
    expect(n).toMatchObject({ title: 'Transfer completed', route: 'transactions' })
    expect(n.body).toContain('7.00 USD')
    const journal = await env.h.call('transfers.journal', null)
    expect(journal.records[0]).toMatchObject({ transactionStatus: 'COMPLETED' })

    // An account number ending in 004: the bank rejects the transfer after a while.
    const api = sandboxApi(env.server)
    const rejecting = await api<{ id: string }>(
      'POST',
      'customers/external-accounts',
      platformUsdAccount('rejects', '40012345004')
    )
    const doomed = await env.h.call('transfers.send', {
      actionId: randomUUID(),
      sourceAccountId: internalId,
      destinationAccountId: rejecting.id,
      amount: 300
    })
    const failed = await waitFor(() => env.h.notifications.find((x) => x.targetId === doomed.transaction.id), 15_000)
    expect(failed).toMatchObject({ title: 'Transfer failed', route: 'transactions' })
    expect(failed.body).toMatch(/3\.00 USD to ExternalAccount:.* did not go through/)
  })
})
