/* eslint-disable @typescript-eslint/no-explicit-any -- recorded events are read by assertions */
import { createServer } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { nodeSandboxLauncher, type SandboxLauncher } from '../../../../src/main/infra/child-launcher'
import { requireRealKeyring, testKeychainService } from '../../../support/keyring'
import { tempDir } from '../../helpers'
import { startBackend, type Harness } from '../../sandbox-env'
import { recorder } from './gate-rig'

requireRealKeyring()

let h: Harness | undefined
let cleanup: (() => Promise<void>) | undefined
afterEach(async () => {
  await h?.close()
  await cleanup?.()
  h = undefined
  cleanup = undefined
})

/** A simulated incoming payment of `amount` cents for an approved customer who takes USD. */
async function receive(h: Harness, rec: ReturnType<typeof recorder>, amount: number) {
  // The cache answers first and refreshes behind: the customers are read again once they have arrived.
  const asked = rec.mark()
  await h.call('customers.query', { kycStatus: 'APPROVED', limit: 500 })
  await rec.until((s) => s.event === 'data.changed' && s.payload.collections.includes('customers'), asked)
  const { rows } = await h.call('customers.query', { kycStatus: 'APPROVED', limit: 500 })
  const customer = (rows as any[]).find((c) => c.currencies?.includes('USD')) ?? (rows as any[])[0]
  expect(customer).toBeDefined()
  return h.call('sandbox.receive', {
    senderUmaAddress: '$success.usd@sandbox.uma.money',
    receivingCurrencyCode: 'USD',
    receivingCurrencyAmount: amount,
    customerId: customer.id
  })
}

describe('the Local profile’s own gate', () => {
  it('links to it once it runs (managed), and a simulated incoming payment is prompted, notified and approved by a click', async () => {
    const t = await tempDir('local-gate-link')
    cleanup = t.cleanup
    h = await startBackend(t.dir, testKeychainService('local-gate-link'), { localSandbox: true, autoSync: false })
    const rec = recorder()
    h.backend.subscribe((event, payload) => rec.record(event, payload))
    // Live already, or when it comes (the Local gate starts once the sandbox answers).
    const link = await h.call('gate.link', null)
    if ((link as any).state !== 'live')
      await rec.until(
        (s) => s.event === 'gate.linkChanged' && s.payload.profileId === 'local' && s.payload.state === 'live'
      )
    expect(await h.call('gate.link', null)).toMatchObject({
      profileId: 'local',
      state: 'live',
      managed: true,
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      message: null
    })
    // The Local gate is Paydesk's own: nothing to connect or unlink.
    expect(await h.raw('gate.disconnect', null)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })

    const mark = rec.mark()
    const received = await receive(h, rec, 12_34)
    const prompt = await rec.until(
      (s) =>
        s.event === 'gate.event' &&
        s.payload.event.kind === 'prompt' &&
        s.payload.event.data.transactionId === received.id,
      mark
    )
    expect(prompt.payload).toMatchObject({ profileId: 'local', event: { data: { amount: 12_34, currency: 'USD' } } })
    expect(h.notifications).toContainEqual(
      expect.objectContaining({ title: 'Payment waiting for your approval', targetId: received.id, profileId: 'local' })
    )
    await rec.until((s) => s.event === 'gate.promptsChanged' && s.payload.count === 1, mark)

    const answered = await h.raw('gate.answer', { transactionId: received.id, answer: { action: 'approve' } })
    expect(answered).toMatchObject({ ok: true, value: { profileId: 'local', decision: { kind: 'decision' } } })
    expect((answered as any).value.decision.data.outcome).toBe('approved')
    await rec.until((s) => s.event === 'gate.promptsChanged' && s.payload.count === 0, mark)
    // The sandbox and the gate are two processes of their own: a loaded machine takes a while to start both.
  }, 90_000)

  it('follows the Local sandbox restarted on another port: an approval reaches the sandbox that runs', async () => {
    const t = await tempDir('local-gate-repoint')
    cleanup = t.cleanup
    const sandboxes: ReturnType<SandboxLauncher>[] = []
    const launcher: SandboxLauncher = (kind = 'sandbox') => {
      const child = nodeSandboxLauncher(kind)
      if (kind === 'sandbox') sandboxes.push(child)
      return child
    }
    h = await startBackend(
      t.dir,
      testKeychainService('local-gate-repoint'),
      { localSandbox: true, autoSync: false },
      launcher
    )
    const rec = recorder()
    h.backend.subscribe((event, payload) => rec.record(event, payload))
    const live = (from: number) =>
      rec.until(
        (s) => s.event === 'gate.linkChanged' && s.payload.profileId === 'local' && s.payload.state === 'live',
        from
      )
    if ((await h.call('gate.link', null)).state !== 'live') await live(0)
    const localUrl = async () => (await h!.call('profiles.list', null)).profiles.find((p) => p.id === 'local')!.baseUrl
    const before = new URL(await localUrl())

    // The sandbox dies, and another program takes its port before Restart: whatever asks it there is refused.
    const stopped = rec.mark()
    process.kill(sandboxes[0]!.pid!, 'SIGKILL')
    await rec.until((s) => s.event === 'sync.status' && s.payload.connection?.state === 'sandboxStopped', stopped)
    const squatter = createServer((_req, res) => res.writeHead(503).end())
    await new Promise<void>((resolve) => squatter.listen(Number(before.port), '127.0.0.1', resolve))
    const closeSquatter = () => new Promise<void>((resolve) => squatter.close(() => resolve()))
    const previousCleanup = cleanup
    cleanup = async () => {
      await closeSquatter()
      await previousCleanup()
    }

    const restarted = rec.mark()
    await h.call('sync.restartLocalSandbox', null)
    expect(new URL(await localUrl()).port).not.toBe(before.port)
    await live(restarted)

    const mark = rec.mark()
    const received = await receive(h, rec, 12_35)
    await rec.until(
      (s) =>
        s.event === 'gate.event' &&
        s.payload.event.kind === 'prompt' &&
        s.payload.event.data.transactionId === received.id,
      mark
    )
    const answered = await h.raw('gate.answer', { transactionId: received.id, answer: { action: 'approve' } })
    expect(answered).toMatchObject({ ok: true, value: { decision: { kind: 'decision' } } })
    expect((answered as any).value.decision.data.outcome).toBe('approved')
  }, 120_000)
})
