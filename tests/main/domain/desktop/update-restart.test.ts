import { randomUUID } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createBackend, type Backend } from '../../../../src/main/app/backend'
import type { UpdaterDriver, UpdaterEvent } from '../../../../src/main/domain/desktop/updates'
import { dispatch } from '../../../../src/main/handlers/dispatch'
import { requireRealKeyring, testKeychainService } from '../../../support/keyring'
import { stubServer, tempDir } from '../../helpers'

requireRealKeyring()

/** electron-updater's part, faked: an update is downloaded when the test says so; installs are recorded. */
function fakeUpdater() {
  let listener: (e: UpdaterEvent) => void = () => {}
  const installs: string[] = []
  const driver: UpdaterDriver = {
    configure: () => {},
    check: async () => {},
    onEvent: (l) => (listener = l),
    installAndRestart: () => void installs.push('restart')
  }
  return { driver, installs, downloaded: () => listener({ type: 'downloaded', version: '0.2.0' }) }
}

/** A service whose money-moving calls wait until the test lets them fail with a dropped connection. */
async function holdingService() {
  const held: ServerResponse[] = []
  let dropping = false
  let arrived!: () => void
  const reached = new Promise<void>((resolve) => (arrived = resolve))
  const server = await stubServer((req, res) => {
    // Retries (with the same key) after the first drop are dropped at once, so the outcome stays unknown.
    if (req.method === 'POST' && dropping) res.socket?.destroy()
    else if (req.method === 'POST') {
      held.push(res)
      arrived()
    } else res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[],"hasMore":false}')
  })
  return {
    server,
    held,
    /** Resolves when the first money-moving call has reached the service (and is held there). */
    reached,
    /** The request reached the service; its answer never comes back (the outcome is unknown). */
    dropAll: () => {
      dropping = true
      held.splice(0).forEach((res) => res.socket?.destroy())
    }
  }
}

let backend: Backend
let cleanup: () => Promise<void>
let service: Awaited<ReturnType<typeof holdingService>>
let updater: ReturnType<typeof fakeUpdater>

beforeEach(async () => {
  const t = await tempDir('update-restart')
  service = await holdingService()
  updater = fakeUpdater()
  cleanup = async () => {
    await service.server.close()
    await t.cleanup()
  }
  backend = await createBackend(
    {
      mode: 'electron',
      appVersion: '0.1.0',
      dataDir: t.dir,
      notify: () => {},
      log: () => {},
      desktop: { updater: updater.driver }
    },
    {
      keychainService: testKeychainService('update-restart'),
      localSandbox: false,
      autoSync: false,
      clientOptions: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, totalTimeoutMs: 10_000 }
    }
  )
  const created = await backend.handlers['profiles.create']({
    name: 'Stub',
    environment: 'sandbox',
    baseUrl: service.server.baseUrl,
    tokenId: 'tok',
    clientSecret: 'sek'
  })
  await backend.handlers['profiles.switch']({ id: created.id })
  await backend.handlers['updates.settings.set']({ enabled: true, feedUrl: 'https://updates.example.com/paydesk' })
  updater.downloaded()
})
afterEach(async () => {
  service.dropAll()
  await backend.close()
  await cleanup()
})

const install = () => dispatch(backend.handlers, 'updates.install', null)

describe('restarting into an update', () => {
  it('is offered once downloaded, and happens on the operator’s click when no money is in flight', async () => {
    expect(await dispatch(backend.handlers, 'updates.status', null)).toMatchObject({
      ok: true,
      value: { state: 'ready', message: 'Update ready — Restart to install' }
    })
    expect(updater.installs).toEqual([])
    expect(await install()).toMatchObject({ ok: true })
    expect(updater.installs).toEqual(['restart'])
  })

  it('is refused while a transfer is on its way, and while its outcome is unknown', async () => {
    const sending = dispatch(backend.handlers, 'transfers.send', {
      actionId: randomUUID(),
      sourceAccountId: 'InternalAccount:usd',
      destinationAccountId: 'ExternalAccount:bank',
      amount: 12_00
    })
    await service.reached
    expect(service.held).toHaveLength(1)
    expect(await install()).toEqual({
      ok: false,
      error: {
        code: 'CONFLICT',
        message:
          'Paydesk will not restart while money is in flight: 1 transfer being sent in “Stub”; 1 transfer of unknown ' +
          'outcome in “Stub”. Try again once they are settled.'
      }
    })
    service.dropAll()
    expect(await sending).toMatchObject({ ok: false })
    expect(await install()).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('1 transfer of unknown outcome in “Stub”') }
    })
    expect(updater.installs).toEqual([])
  })
})
