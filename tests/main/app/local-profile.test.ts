import { afterEach, describe, expect, it, vi } from 'vitest'
import { nodeSandboxLauncher, type SandboxLauncher } from '../../../src/main/infra/child-launcher'
import { ProfileSession } from '../../../src/main/domain/profile-session'
import type { SyncStatus } from '../../../src/shared/ipc/channels/sync'
import { requireRealKeyring } from '../../support/keyring'
import { tempDir } from '../helpers'
import { startBackend, testKeychainService, waitFor, type Harness } from '../sandbox-env'

requireRealKeyring()

/*
 * A Local sandbox with a generated history is "big": the backend serves the cache without waiting for it, and the
 * Local profile's session starts polling once the sandbox is up. It once re-opened the session instead, which made
 * every call wait for a cache to close and open again (and once hung, queued inside its own queue).
 */
let h: Harness | undefined
let cleanup: (() => Promise<void>) | undefined
afterEach(async () => {
  delete process.env['PAYDESK_LOCAL_GENERATE_TRANSACTIONS']
  vi.restoreAllMocks()
  await h?.close()
  await cleanup?.()
})

describe('the Local sandbox with a generated history', () => {
  it('syncs the history once the sandbox is up, and every call keeps answering meanwhile', async () => {
    const t = await tempDir('local-history')
    cleanup = t.cleanup
    process.env['PAYDESK_LOCAL_GENERATE_TRANSACTIONS'] = '2000'
    h = await startBackend(t.dir, testKeychainService('local-history'), { localSandbox: true, autoSync: true })
    const total = await waitFor(
      async () => {
        const window = await h!.call('transactions.query', { limit: 1 })
        return window.total >= 2000 ? window.total : null
      },
      90_000,
      250
    )
    expect(total).toBeGreaterThanOrEqual(2000)
    expect((await h.call('profiles.list', null)).activeProfileId).toBe('local')
    expect((await h.call('sync.status', null)).state).not.toBe('error')
  }, 120_000)

  it('polls once the sandbox is up, in the session opened at start: not offline meanwhile, never re-opened', async () => {
    const t = await tempDir('local-history-once')
    cleanup = t.cleanup
    process.env['PAYDESK_LOCAL_GENERATE_TRANSACTIONS'] = '2000'
    const opened = vi.spyOn(ProfileSession, 'open')
    h = await startBackend(t.dir, testKeychainService('local-history-once'), { localSandbox: true, autoSync: true })
    await waitFor(async () => (await h!.call('transactions.query', { limit: 1 })).total >= 2000, 90_000, 250)
    const states = h.events.filter((e) => e.event === 'sync.status').map((e) => (e.payload as SyncStatus).state)
    expect(states).toContain('live')
    expect(states).not.toContain('offline')
    expect(opened).toHaveBeenCalledTimes(1)
  }, 120_000)
})

/**
 * A real sandbox process whose start is held until `release()`: a sandbox that is slow to load its state. The Local
 * gate, which starts once the sandbox answers, is launched as usual.
 */
function heldSandbox(): { launcher: SandboxLauncher; release(): void } {
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  const launcher: SandboxLauncher = (kind = 'sandbox') => {
    const child = nodeSandboxLauncher(kind)
    if (kind !== 'sandbox') return child
    return {
      get pid() {
        return child.pid
      },
      postMessage: (message) => void released.then(() => child.postMessage(message)),
      onMessage: (listener) => child.onMessage(listener),
      onSpawn: (listener) => child.onSpawn(listener),
      onExit: (listener) => child.onExit(listener),
      kill: () => child.kill()
    }
  }
  return { launcher, release }
}

describe('a Local sandbox that is slow to start', () => {
  it('does not hold back the profile list; the Local profile’s data waits for it, then answers', async () => {
    const t = await tempDir('local-slow-start')
    cleanup = t.cleanup
    const held = heldSandbox()
    h = await startBackend(
      t.dir,
      testKeychainService('local-slow-start'),
      { localSandbox: true, autoSync: true },
      held.launcher
    )
    const local = (await h.call('profiles.list', null)).profiles.find((p) => p.id === 'local')
    // The address and secret the Local profile will use are known before the sandbox answers.
    expect(local?.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
    expect(local?.hasSecret).toBe(true)

    let answered = false
    const firstRows = h.call('transactions.query', { limit: 1 }).finally(() => (answered = true))
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(answered).toBe(false)
    held.release()
    expect((await firstRows).profileId).toBe('local')
    expect((await h.call('sync.status', null)).state).not.toBe('error')
  }, 60_000)
})
