import { readFile, writeFile, mkdir, readdir } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createKeytarStore, cacheKeyAccount, secretAccount, type SecretStore } from '../../../src/main/infra/keychain'
import { ProfileStore, profileDir } from '../../../src/main/domain/profiles'
import { ProfileUpdateInput } from '../../../src/shared/profile'
import { AppError } from '../../../src/main/infra/app-error'
import { requireRealKeyring, testKeychainService } from '../../support/keyring'
import { tempDir } from '../helpers'

requireRealKeyring()

let dir: string
let cleanup: () => Promise<void>
let secrets: SecretStore

beforeEach(async () => {
  ;({ dir, cleanup } = await tempDir('profiles'))
  secrets = createKeytarStore(testKeychainService('profiles'))
})
afterEach(() => cleanup())

const create = (store: ProfileStore, extra: Partial<Parameters<ProfileStore['create']>[0]> = {}) =>
  store.create({
    name: 'Acme sandbox',
    environment: 'sandbox',
    baseUrl: 'https://api.example.com/2025-10-13/',
    tokenId: 'tok_1',
    ...extra
  })

describe('ProfileStore', () => {
  it('starts with the Local sandbox profile active', async () => {
    const store = await ProfileStore.open(dir, secrets)
    const list = await store.list()
    expect(list.activeProfileId).toBe('local')
    expect(list.profiles).toEqual([
      expect.objectContaining({ id: 'local', name: 'Local sandbox', environment: 'local', hasSecret: false })
    ])
  })

  it('creates a profile with its secret in the keychain and nowhere on disk', async () => {
    const store = await ProfileStore.open(dir, secrets)
    const view = await create(store, { clientSecret: 'cs_DISTINCT_123456' })
    expect(view).toMatchObject({
      name: 'Acme sandbox',
      environment: 'sandbox',
      baseUrl: 'https://api.example.com/2025-10-13',
      hasSecret: true
    })
    expect(view).not.toHaveProperty('clientSecret')
    expect(await secrets.get(secretAccount(view.id))).toBe('cs_DISTINCT_123456')
    const onDisk = await readFile(path.join(dir, 'profiles.json'), 'utf8')
    expect(onDisk).not.toContain('cs_DISTINCT_123456')
    // Survives a restart.
    const again = await ProfileStore.open(dir, secrets)
    expect((await again.view(view.id)).hasSecret).toBe(true)
  })

  it('sets, replaces and clears a secret; the view only says whether one is set', async () => {
    const store = await ProfileStore.open(dir, secrets)
    const view = await create(store)
    expect(view.hasSecret).toBe(false)
    expect((await store.setSecret(view.id, 'one')).hasSecret).toBe(true)
    await store.setSecret(view.id, 'two')
    expect(await store.secretOf(view.id)).toBe('two')
    expect((await store.clearSecret(view.id)).hasSecret).toBe(false)
    expect(await secrets.get(secretAccount(view.id))).toBeUndefined()
  })

  it('edits and switches, and refuses to repoint or re-key the Local sandbox', async () => {
    const store = await ProfileStore.open(dir, secrets)
    const view = await create(store)
    const edited = await store.update({
      id: view.id,
      name: 'Acme prod',
      environment: 'production',
      confirmEnvironmentChange: true
    })
    expect(edited).toMatchObject({ name: 'Acme prod', environment: 'production' })
    expect((await store.switch(view.id)).activeProfileId).toBe(view.id)
    await expect(store.update({ id: 'local', baseUrl: 'https://evil.example.com' })).rejects.toMatchObject({
      code: 'INVALID_INPUT'
    })
    await expect(store.setSecret('local', 'x')).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    expect((await store.update({ id: 'local', name: 'My sandbox' })).name).toBe('My sandbox')
    await expect(store.switch('nope')).rejects.toBeInstanceOf(AppError)
  })

  it('changing the environment, either way, needs a confirmation and changes nothing without it', async () => {
    const store = await ProfileStore.open(dir, secrets)
    const view = await create(store)
    await expect(store.update({ id: view.id, environment: 'production' })).rejects.toMatchObject({
      code: 'CONFIRMATION_REQUIRED',
      message: expect.stringContaining('real money')
    })
    expect(store.get(view.id).environment).toBe('sandbox')
    await store.update({ id: view.id, environment: 'production', confirmEnvironmentChange: true })
    await expect(store.update({ id: view.id, environment: 'sandbox' })).rejects.toMatchObject({
      code: 'CONFIRMATION_REQUIRED'
    })
    expect(store.get(view.id).environment).toBe('production')
  })

  it('a secret stays with its endpoint: a new base URL or token id removes it, a new name keeps it', async () => {
    const store = await ProfileStore.open(dir, secrets)
    const view = await create(store, { clientSecret: 'bound-to-its-url' })
    expect((await store.update({ id: view.id, name: 'Renamed' })).hasSecret).toBe(true)
    // The form sends every field: an unchanged base URL is not a change.
    expect((await store.update({ id: view.id, baseUrl: store.get(view.id).baseUrl })).hasSecret).toBe(true)
    expect((await store.update({ id: view.id, baseUrl: 'https://other.example.com/v1' })).hasSecret).toBe(false)
    await store.setSecret(view.id, 'again')
    expect((await store.update({ id: view.id, tokenId: 'another-token' })).hasSecret).toBe(false)
    expect(await secrets.get(secretAccount(view.id))).toBeUndefined()
  })

  it.each([
    ['http://api.example.com/v1', false],
    ['http://192.168.1.20:8080', false],
    ['http://127.0.0.1:4010', true],
    ['http://localhost:4010/v1', true],
    ['http://[::1]:4010', true],
    ['http://127.0.0.1.evil.example/', false],
    ['http://localhost@evil.example/', false],
    ['https://api.example.com/v1', true]
  ])('a base URL of %s is accepted: %s (plain http only on this machine)', (baseUrl, accepted) => {
    const result = ProfileUpdateInput.safeParse({ id: 'p-1', baseUrl })
    expect(result.success).toBe(accepted)
  })

  it('removing a profile removes its secret, its cache key and its folder, and falls back to Local sandbox', async () => {
    const store = await ProfileStore.open(dir, secrets)
    const view = await create(store, { clientSecret: 'to-be-removed' })
    await secrets.set(cacheKeyAccount(view.id), 'key-material')
    const folder = profileDir(dir, view.id)
    await mkdir(folder, { recursive: true })
    await writeFile(path.join(folder, 'cache.log'), 'x')
    await store.switch(view.id)
    const list = await store.remove(view.id)
    expect(list.activeProfileId).toBe('local')
    expect(list.profiles.map((p) => p.id)).toEqual(['local'])
    expect(await secrets.get(secretAccount(view.id))).toBeUndefined()
    expect(await secrets.get(cacheKeyAccount(view.id))).toBeUndefined()
    expect(await readdir(path.join(dir, 'profiles'))).toEqual([])
    await expect(store.remove('local')).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })

  it('sets an unreadable profiles.json aside instead of crashing', async () => {
    await writeFile(path.join(dir, 'profiles.json'), '{ not json')
    const store = await ProfileStore.open(dir, secrets)
    expect((await store.list()).profiles.map((p) => p.id)).toEqual(['local'])
    const names = await readdir(dir)
    expect(names.some((n) => n.startsWith('profiles.json.corrupt-'))).toBe(true)
  })

  it('serialises concurrent creates so none is lost', async () => {
    const store = await ProfileStore.open(dir, secrets)
    await Promise.all(Array.from({ length: 8 }, (_, i) => create(store, { name: `P${i}` })))
    const reopened = await ProfileStore.open(dir, secrets)
    expect((await reopened.list()).profiles).toHaveLength(9)
  })
})
