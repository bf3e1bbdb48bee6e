import { describe, expect, it, vi } from 'vitest'
import { cacheKeyAccount, createKeytarStore, KEYCHAIN_SERVICE, secretAccount } from '../../../src/main/infra/keychain'
import { requireRealKeyring, testKeychainService } from '../../support/keyring'

requireRealKeyring()

/** A store of another launch of Paydesk: the module loaded anew, with nothing of the keychain read yet. */
async function storeOfAnotherLaunch(service: string) {
  vi.resetModules()
  const again = await import('../../../src/main/infra/keychain')
  return again.createKeytarStore(service)
}

describe('keychain (real OS keychain through keytar)', () => {
  it('uses one service name for the app and one account per profile and purpose', () => {
    expect(KEYCHAIN_SERVICE).toBe('Paydesk')
    expect(secretAccount('p-1')).toBe('profile:p-1:secret')
    expect(cacheKeyAccount('p-1')).toBe('profile:p-1:cache-key')
  })

  it('round-trips, replaces and deletes a secret', async () => {
    const store = createKeytarStore(testKeychainService('keychain'))
    const account = secretAccount('round-trip')
    expect(await store.get(account)).toBeUndefined()
    await store.set(account, 's3cret-ä-✓')
    expect(await store.get(account)).toBe('s3cret-ä-✓')
    await store.set(account, 'second')
    expect(await store.get(account)).toBe('second')
    await store.delete(account)
    expect(await store.get(account)).toBeUndefined()
    await store.delete(account) // deleting twice is not an error
  })

  it('keeps services apart', async () => {
    const a = createKeytarStore(testKeychainService('a'))
    const b = createKeytarStore(testKeychainService('b'))
    await a.set('x', 'from-a')
    expect(await b.get('x')).toBeUndefined()
    await a.delete('x')
  })

  it('reads what was written, by any store of the service, even while the keychain is still being read', async () => {
    const service = testKeychainService('shared')
    const reader = createKeytarStore(service)
    const writer = createKeytarStore(service)
    const account = cacheKeyAccount('shared')
    // The first read of the service is in flight while the other store writes.
    const [before] = await Promise.all([reader.get(account), writer.set(account, 'first')])
    expect([undefined, 'first']).toContain(before)
    expect(await reader.get(account)).toBe('first')
    await writer.set(account, 'second')
    expect(await reader.get(account)).toBe('second')
    expect(await reader.accounts()).toContain(account)
    // The keychain itself holds it, not only this launch.
    expect(await (await storeOfAnotherLaunch(service)).get(account)).toBe('second')
    await writer.delete(account)
    expect(await reader.get(account)).toBeUndefined()
    expect(await reader.accounts()).not.toContain(account)
    expect(await (await storeOfAnotherLaunch(service)).get(account)).toBeUndefined()
  })
})
