import { afterEach, describe, expect, it } from 'vitest'
import type { UpdateSettings, UpdateStatus } from '../../../../src/shared/ipc/channels/desktop'
import { UpdateService, type UpdaterDriver, type UpdaterEvent } from '../../../../src/main/domain/desktop/updates'

/** A stand-in for electron-updater: records what the service asked of it, and emits what a feed would. */
function fakeDriver() {
  let listener: (e: UpdaterEvent) => void = () => {}
  const calls: string[] = []
  const driver: UpdaterDriver = {
    configure: (url) => void calls.push(`configure ${url}`),
    check: async () => void calls.push('check'),
    onEvent: (l) => (listener = l),
    installAndRestart: () => void calls.push('installAndRestart')
  }
  return { driver, calls, emit: (e: UpdaterEvent) => listener(e) }
}

const ON: UpdateSettings = { enabled: true, feedUrl: 'https://updates.example.com/paydesk' }
const services: UpdateService[] = []
afterEach(() => services.splice(0).forEach((s) => s.close()))

function setup(settings: UpdateSettings, inFlight: string[] = []) {
  const fake = fakeDriver()
  const statuses: UpdateStatus[] = []
  const money = { reasons: inFlight }
  const service = new UpdateService({
    settings: () => settings,
    driver: fake.driver,
    moneyInFlight: async () => money.reasons,
    onStatus: (s) => statuses.push(s),
    log: () => {}
  })
  services.push(service)
  service.applySettings()
  return { service, statuses, money, ...fake }
}

describe('updates', () => {
  it('are off by default: no feed is configured and nothing is checked', async () => {
    const { service, calls } = setup({ enabled: false, feedUrl: null })
    expect(service.status().state).toBe('off')
    expect(calls).toEqual([])
    await expect(service.check()).rejects.toMatchObject({ code: 'CONFLICT' })
  })

  it('once on, point the updater at the feed and check', () => {
    const { calls } = setup(ON)
    expect(calls).toEqual(['configure https://updates.example.com/paydesk', 'check'])
  })

  it('a downloaded update waits for the operator: "Update ready — Restart to install", nothing installed', () => {
    const { service, calls, emit, statuses } = setup(ON)
    emit({ type: 'available', version: '0.2.0' })
    expect(service.status()).toMatchObject({ state: 'downloading', version: '0.2.0' })
    emit({ type: 'downloaded', version: '0.2.0' })
    expect(service.status()).toMatchObject({ state: 'ready', message: 'Update ready — Restart to install' })
    expect(statuses.at(-1)?.state).toBe('ready')
    expect(calls).not.toContain('installAndRestart')
  })

  it('restarts into the update when the operator consents and no money is in flight', async () => {
    const { service, calls, emit } = setup(ON)
    emit({ type: 'downloaded', version: '0.2.0' })
    await service.install()
    expect(calls).toContain('installAndRestart')
  })

  it('refuses to restart while a transfer is being sent or of unknown outcome, or an approval is being sent', async () => {
    const reasons = ['1 transfer of unknown outcome in “Acme”', '1 approval being sent in “Local sandbox”']
    const { service, calls, emit, money } = setup(ON, reasons)
    emit({ type: 'downloaded', version: '0.2.0' })
    await expect(service.install()).rejects.toMatchObject({
      code: 'CONFLICT',
      message:
        'Paydesk will not restart while money is in flight: 1 transfer of unknown outcome in “Acme”; 1 approval being ' +
        'sent in “Local sandbox”. Try again once they are settled.'
    })
    expect(calls).not.toContain('installAndRestart')
    // The update stays on offer; once the money settled, the same click installs it.
    expect(service.status().state).toBe('ready')
    money.reasons = []
    await service.install()
    expect(calls).toContain('installAndRestart')
  })

  it('refuses to install when nothing was downloaded', async () => {
    const { service, calls } = setup(ON)
    await expect(service.install()).rejects.toMatchObject({ message: 'No update has been downloaded yet.' })
    expect(calls).not.toContain('installAndRestart')
  })

  it('reports a failed check with its reason and keeps a ready update on offer', () => {
    const { service, emit } = setup(ON)
    emit({ type: 'error', message: 'net::ERR_NAME_NOT_RESOLVED' })
    expect(service.status()).toMatchObject({
      state: 'error',
      message: 'The update check failed: net::ERR_NAME_NOT_RESOLVED'
    })
    emit({ type: 'downloaded', version: '0.2.0' })
    emit({ type: 'error', message: 'later failure' })
    expect(service.status().state).toBe('ready')
  })

  it('browser mode has no updater: updates are unsupported there', () => {
    const service = new UpdateService({
      settings: () => ON,
      driver: undefined,
      moneyInFlight: async () => [],
      onStatus: () => {},
      log: () => {}
    })
    expect(service.status().state).toBe('unsupported')
  })
})
