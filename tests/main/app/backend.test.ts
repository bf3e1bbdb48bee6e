import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createBackend, type Backend, type BackendHost } from '../../../src/main/app/backend'
import { dispatch } from '../../../src/main/handlers/dispatch'
import { CHANNEL_NAMES } from '../../../src/shared/ipc/contract'
import { requireRealKeyring, testKeychainService } from '../../support/keyring'
import { tempDir } from '../helpers'

requireRealKeyring()

let backend: Backend
let cleanup: () => Promise<void>
const events: Array<[string, unknown]> = []

beforeEach(async () => {
  const t = await tempDir('backend')
  cleanup = t.cleanup
  const host: BackendHost = { mode: 'browser', appVersion: '9.9.9', dataDir: t.dir, notify: () => {}, log: () => {} }
  // No background polling: a profile created here keeps the real service's default base URL, and tests never call out.
  backend = await createBackend(host, {
    keychainService: testKeychainService('backend'),
    localSandbox: false,
    autoSync: false
  })
  backend.subscribe((e, p) => events.push([e, p]))
})
afterEach(async () => {
  await backend.close()
  await cleanup()
  events.length = 0
})

describe('createBackend', () => {
  it('has a handler for every channel of the contract', () => {
    expect(Object.keys(backend.handlers).sort()).toEqual([...CHANNEL_NAMES].sort())
  })

  it('answers app.info and the profile channels through dispatch, emitting profiles.changed', async () => {
    const info = await dispatch(backend.handlers, 'app.info', null)
    expect(info).toEqual({
      ok: true,
      value: expect.objectContaining({ name: 'Paydesk', version: '9.9.9', mode: 'browser' })
    })
    const created = await dispatch(backend.handlers, 'profiles.create', {
      name: 'Acme',
      environment: 'production',
      tokenId: 'tok',
      clientSecret: 'sek'
    })
    expect(created.ok).toBe(true)
    if (!created.ok) return
    expect(created.value).toMatchObject({
      environment: 'production',
      baseUrl: 'https://api.lightspark.com/grid/2025-10-13',
      hasSecret: true
    })
    expect(events.at(-1)?.[0]).toBe('profiles.changed')
    const switched = await dispatch(backend.handlers, 'profiles.switch', { id: created.value.id })
    expect(switched).toMatchObject({ ok: true, value: { activeProfileId: created.value.id } })
    const bad = await dispatch(backend.handlers, 'profiles.create', { name: '', environment: 'sandbox', tokenId: 't' })
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
  })

  it('reports the Local sandbox as not running when it is switched off', async () => {
    const report = await dispatch(backend.handlers, 'connection.test', {})
    expect(report).toMatchObject({ ok: true, value: { ok: false, code: 'UNREACHABLE', profileId: 'local' } })
    const status = await dispatch(backend.handlers, 'sync.status', null)
    expect(status).toMatchObject({ ok: true, value: { state: 'idle', code: 'UNREACHABLE' } })
    expect((status as { value: { message: string } }).value.message).toMatch(/Local sandbox is not running/)
  })
})

describe('the Local sandbox profile', () => {
  it('starts the embedded sandbox with keychain credentials, syncs its seed data, and keeps state across restarts', async () => {
    const { startBackend, testKeychainService: svc } = await import('../sandbox-env')
    const { createKeytarStore, secretAccount } = await import('../../../src/main/infra/keychain')
    const { stat } = await import('node:fs/promises')
    const t = await tempDir('local')
    const service = svc('local')
    let h = await startBackend(t.dir, service, { localSandbox: true, autoSync: false })
    try {
      const list = await h.call('profiles.list', null)
      expect(list.activeProfileId).toBe('local')
      const local = list.profiles[0]!
      expect(local).toMatchObject({ id: 'local', name: 'Local sandbox', environment: 'local', hasSecret: true })
      expect(local.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/2025-10-13$/)
      const secret = await createKeytarStore(service).get(secretAccount('local'))
      expect(secret).toMatch(/^[A-Za-z0-9_-]{40,}$/)
      expect((await h.call('connection.test', {})).ok).toBe(true)
      await h.call('sync.now', null)
      const page = await h.call('transactions.query', { limit: 5 })
      expect(page.total).toBeGreaterThan(5)
      // A payment to an approved seed customer waits for approval with a known deadline (the sandbox's window).
      await h.call('customers.query', {})
      const { waitFor } = await import('../sandbox-env')
      const customer = await waitFor(async () =>
        (await h.call('customers.query', { kycStatus: 'APPROVED', limit: 500 })).rows.find((c) =>
          c.currencies?.includes('USD')
        )
      )
      const received = await h.call('sandbox.receive', {
        senderUmaAddress: '$success.usd@sandbox.uma.money',
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 12_34,
        customerId: customer.id
      })
      await h.call('sync.now', null)
      const { rows } = await h.call('transactions.query', { filter: { type: 'INCOMING' } })
      expect(rows.map((r) => r.id)).toContain(received.id)
      expect((await stat(`${t.dir}/local-sandbox/state.db`)).isFile()).toBe(true)
      // Local tools work without any setup.
      const accounts = await h.call('internalAccounts.list', { scope: 'platform' })
      void accounts
      await h.close()
      h = await startBackend(t.dir, service, { localSandbox: true, autoSync: false })
      expect(await createKeytarStore(service).get(secretAccount('local'))).toBe(secret)
      expect((await h.call('connection.test', {})).ok).toBe(true)
      expect((await h.call('transactions.query', { limit: 1 })).total).toBe(page.total + 1)
    } finally {
      await h.close()
      await t.cleanup()
    }
  }, 60_000)

  it('tells the operator once when its saved state was unreadable and it started fresh', async () => {
    const { startBackend, testKeychainService: svc } = await import('../sandbox-env')
    const { localSandboxStateFile } = await import('../../../src/main/infra/local-sandbox')
    const { mkdir, stat, writeFile } = await import('node:fs/promises')
    const path = await import('node:path')
    const t = await tempDir('local-corrupt')
    const stateFile = localSandboxStateFile(t.dir)
    await mkdir(path.dirname(stateFile), { recursive: true })
    await writeFile(stateFile, '{"version": 1, this is not JSON at all')
    const h = await startBackend(t.dir, svc('local-corrupt'), { localSandbox: true, autoSync: false })
    try {
      const expected = /^The Local sandbox’s saved state was unreadable and was set aside as (.+); it started fresh\.$/
      const status = await h.call('sync.status', null)
      expect(status.profileId).toBe('local')
      const movedTo = expected.exec(status.message ?? '')?.[1]
      expect(movedTo).toBeDefined()
      expect((await stat(movedTo!)).isFile()).toBe(true)
      // Still there after a successful sync, and in the connection report.
      expect((await h.call('sync.now', null)).message).toMatch(expected)
      const report = await h.call('connection.test', {})
      expect(report.ok).toBe(true)
      expect(report.message).toContain(`set aside as ${movedTo}; it started fresh.`)
    } finally {
      await h.close()
      await t.cleanup()
    }
  }, 60_000)
})

describe('live sync through the backend', () => {
  it('adapts the polling rate to focus, approval rules and sleep (injected clock), and reports it', async () => {
    const { startBackend, startSandbox, addProfile, testKeychainService: svc, waitFor } = await import('../sandbox-env')
    const { FakeClock } = await import('../domain/sync/fake-clock')
    const clock = new FakeClock()
    const t = await tempDir('rate')
    const server = await startSandbox()
    const h = await startBackend(t.dir, svc('rate'), { clock })
    try {
      await addProfile(h, server)
      // Polling starts (its first poll is scheduled on the injected clock) once the window's calls have settled.
      await waitFor(() => clock.pending().length > 0)
      const status = await h.call('sync.now', null)
      expect(status).toMatchObject({ state: 'live', intervalMs: 5_000, reason: 'window focused, nothing in flight' })
      h.backend.setForeground(false)
      expect(await h.call('sync.status', null)).toMatchObject({ intervalMs: 40_000, reason: 'in the background, idle' })
      h.backend.setSuspended(true)
      expect((await h.call('sync.status', null)).reason).toMatch(/paused/)
      expect(clock.pending()).toEqual([])
      h.backend.setSuspended(false)
      await clock.advance(0)
      expect(
        h.events.some((e) => e.event === 'sync.status' && (e.payload as { reason: string }).reason === 'woke up')
      ).toBe(true)
    } finally {
      await h.close()
      await server.close()
      await t.cleanup()
    }
  })
})
