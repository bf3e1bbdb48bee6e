import { describe, expect, it } from 'vitest'
import {
  cacheKeyAccount,
  createKeytarStore,
  KEYCHAIN_SERVICE,
  secretAccount
} from '../../../src/main/services/keychain'
import { requireRealKeyring, testKeychainService } from '../../support/keyring'

requireRealKeyring()

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
})
