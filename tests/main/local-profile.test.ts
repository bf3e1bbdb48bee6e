import { afterEach, describe, expect, it } from 'vitest'
import { requireRealKeyring } from '../support/keyring'
import { tempDir } from './helpers'
import { startBackend, testKeychainService, waitFor, type Harness } from './sandbox-env'

requireRealKeyring()

/*
 * A Local sandbox with a generated history is "big": the backend serves the cache without waiting for it, and re-opens
 * the Local profile's session once the sandbox is up. That re-open must not wait on itself (it once queued
 * restartSession inside the session queue that restartSession also uses, and every later call hung).
 */
let h: Harness | undefined
let cleanup: (() => Promise<void>) | undefined
afterEach(async () => {
  delete process.env['PAYDESK_LOCAL_GENERATE_TRANSACTIONS']
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
})
