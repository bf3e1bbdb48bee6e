import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createBackend, type Backend, type BackendHost } from '../../src/main/backend'
import { dispatch } from '../../src/main/ipc/dispatch'
import { CHANNEL_NAMES } from '../../src/shared/ipc/contract'
import { requireRealKeyring, testKeychainService } from '../support/keyring'
import { tempDir } from './helpers'

requireRealKeyring()

let backend: Backend
let cleanup: () => Promise<void>
const events: Array<[string, unknown]> = []

beforeEach(async () => {
  const t = await tempDir('backend')
  cleanup = t.cleanup
  const host: BackendHost = { mode: 'browser', appVersion: '9.9.9', dataDir: t.dir, notify: () => {}, log: () => {} }
  backend = await createBackend(host, { keychainService: testKeychainService('backend'), localSandbox: false })
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
  })
})
