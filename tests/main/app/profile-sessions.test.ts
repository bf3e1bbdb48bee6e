import { existsSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LocalProfile } from '../../../src/main/app/local-profile'
import { ProfileSessions } from '../../../src/main/app/profile-sessions'
import { StartupPlan } from '../../../src/main/app/startup-plan'
import { CacheStore } from '../../../src/main/infra/cache/store'
import type { SecretStore } from '../../../src/main/infra/keychain'
import { ProfileStore, profileDir } from '../../../src/main/domain/profiles'
import { LOCAL_PROFILE_ID } from '../../../src/shared/profile'
import { tempDir } from '../helpers'

let dir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir, cleanup } = await tempDir('sessions')))
afterEach(async () => {
  vi.restoreAllMocks()
  await cleanup()
})

/** The keychain, in memory: these tests are about the order of a session's start, not the OS keyring. */
function memorySecrets(): SecretStore {
  const values = new Map<string, string>()
  return {
    get: async (account) => values.get(account),
    set: async (account, value) => void values.set(account, value),
    delete: async (account) => void values.delete(account),
    accounts: async () => [...values.keys()]
  }
}

/** The Local profile with its sandbox's process still being spawned until `spawned` is called. */
function spawningLocal(sessionOptions: LocalProfile['sessionOptions'] = () => ({ withoutClient: true })) {
  let spawned!: () => void
  const started = new Promise<void>((resolve) => (spawned = resolve))
  const local = { whenStarted: () => started, sessionOptions } as unknown as LocalProfile
  return { local, spawned }
}

async function sessionsWith(local: LocalProfile) {
  const secrets = memorySecrets()
  const profiles = await ProfileStore.open(dir, secrets)
  return new ProfileSessions({
    dataDir: dir,
    profiles,
    secrets,
    local,
    emit: () => {},
    notify: () => {},
    reportDamage: () => {},
    log: () => {},
    autoSync: false,
    plan: new StartupPlan({
      firstScreen: Promise.resolve(),
      localAddressed: () => Promise.resolve(),
      localStarted: () => local.whenStarted()
    })
  })
}

async function until(done: () => boolean, ms = 10_000): Promise<boolean> {
  for (const start = Date.now(); Date.now() - start < ms; await delay(20)) if (done()) return true
  return done()
}

describe('ProfileSessions', () => {
  it("opens the Local profile's cache while its sandbox's process is still being spawned", async () => {
    const { local, spawned } = spawningLocal()
    const sessions = await sessionsWith(local)
    const opening = sessions.active()
    // The first screen reads the cache alone: it is opened without waiting for the sandbox.
    const cacheFile = path.join(profileDir(dir, LOCAL_PROFILE_ID), 'cache.db')
    expect(await until(() => existsSync(cacheFile))).toBe(true)
    spawned()
    const session = await opening
    expect(
      (
        await session.queryTransactions({
          filter: {},
          sort: { field: 'createdAt', direction: 'desc' },
          offset: 0,
          limit: 10
        })
      ).total
    ).toBe(0)
    await sessions.closeAll()
  })

  it('closes the cache it opened ahead when the session cannot open', async () => {
    const close = vi.spyOn(CacheStore.prototype, 'close')
    const { local, spawned } = spawningLocal(() => {
      throw new Error('no sandbox')
    })
    const sessions = await sessionsWith(local)
    const opening = sessions.active()
    spawned()
    await expect(opening).rejects.toThrow('no sandbox')
    // No store is left open (with its reader and writer threads) for a session that never started.
    expect(await until(() => close.mock.calls.length === 1)).toBe(true)
    await sessions.closeAll()
  })
})
