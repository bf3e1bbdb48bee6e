import { afterEach, describe, expect, it } from 'vitest'
import { HOLD_MS } from '../../../src/main/domain/sync/connection-state'
import { nodeSandboxLauncher, type SandboxLauncher } from '../../../src/main/infra/child-launcher'
import { NOT_RESPONDING_MS, type ConnectionState, type SyncStatus } from '../../../src/shared/ipc/channels/sync'
import { requireRealKeyring } from '../../support/keyring'
import { closedPort, tempDir } from '../helpers'
import { addProfile, startBackend, startSandbox, testKeychainService, waitFor, type Harness } from '../sandbox-env'
import { FakeClock } from '../domain/sync/fake-clock'

requireRealKeyring()

/*
 * The top bar's connection state through the backend, against the real sandbox: what the client's requests did (a
 * hung service, refused credentials, an address nobody answers) and the Local sandbox's process stopping and being
 * restarted. Time is the injected clock's; a hung request is held by the sandbox's `hang` fault until released.
 */
const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  while (closers.length) await closers.pop()!()
})

async function backend(label: string, options: Parameters<typeof startBackend>[2] = {}, launcher?: SandboxLauncher) {
  const t = await tempDir(label)
  const h = await startBackend(t.dir, testKeychainService(label), { autoSync: false, ...options }, launcher)
  closers.push(t.cleanup, () => h.close())
  return h
}

/**
 * The connection states the backend told the window for one profile, in order, each once (what the top bar went
 * through). Only that profile's: the Local profile, active at the start, tells its own state whenever its session
 * opens, which on a loaded machine can come after the switch.
 */
function shown(h: Harness, profileId: string, from = 0): ConnectionState[] {
  const out: ConnectionState[] = []
  for (const e of h.events.slice(from)) {
    if (e.event !== 'sync.status' || (e.payload as SyncStatus).profileId !== profileId) continue
    const state = (e.payload as SyncStatus).connection?.state
    if (state !== undefined && out.at(-1) !== state) out.push(state)
  }
  return out
}

const connection = async (h: Harness) => (await h.call('sync.status', null)).connection

describe('connection state against the real sandbox', () => {
  it('a hung service: Not responding once a request has waited 10 s, with the last answer kept; Live again after', async () => {
    const server = await startSandbox()
    closers.push(() => server.close())
    const clock = new FakeClock()
    const h = await backend('conn-hung', { clock })
    const profile = await addProfile(h, server)
    await h.call('sync.now', null)
    const before = await connection(h)
    expect(before?.state).toBe('live')

    server.faults.add({ route: '*', kind: 'hang' })
    const poll = h.call('sync.now', null)
    await waitFor(() => server.faults.list()[0]!.hits > 0)
    await clock.advance(NOT_RESPONDING_MS - 1)
    expect((await connection(h))?.state).toBe('live')
    await clock.advance(1)
    const hung = await connection(h)
    expect(hung).toMatchObject({ state: 'notResponding', lastAnswerAt: before?.lastAnswerAt })
    expect(hung?.detail).toMatch(/has not answered a request for 10 s\.$/)

    server.faults.clear()
    await poll
    // The service answers again: Live once the answers have held, not at the first one.
    expect((await connection(h))?.state).toBe('notResponding')
    await h.call('sync.now', null)
    await clock.advance(HOLD_MS)
    expect((await connection(h))?.state).toBe('live')
    expect(shown(h, profile.id)).toEqual(['connecting', 'live', 'notResponding', 'live'])
  }, 60_000)

  it('refused credentials: Signed out, saying which status', async () => {
    const server = await startSandbox()
    closers.push(() => server.close())
    const h = await backend('conn-401')
    await addProfile(h, server, { clientSecret: 'not-the-secret' })
    await h.call('sync.now', null)
    const view = await connection(h)
    expect(view?.state).toBe('signedOut')
    expect(view?.detail).toMatch(/refused Paydesk’s credentials \(HTTP 401\)/)
  }, 60_000)

  it('an address nobody answers: Offline from the first probe, and it stays Offline probe after probe', async () => {
    const port = await closedPort()
    const h = await backend('conn-offline')
    const view = await h.call('profiles.create', {
      name: 'Gone',
      environment: 'sandbox',
      baseUrl: `http://127.0.0.1:${port}/2025-10-13`,
      tokenId: 'tok',
      clientSecret: 'secret'
    })
    await h.call('profiles.switch', { id: view.id })
    const from = h.events.length
    for (let i = 0; i < 4; i++) await h.call('sync.now', null)
    expect((await connection(h))?.detail).toBe(
      `Paydesk cannot reach 127.0.0.1:${port}: no network, or the service is down.`
    )
    expect(shown(h, view.id, from)).toEqual(['connecting', 'offline'])
    // Nor does the sync state flip to 'syncing' at each probe (the top bar flipped Syncing/Offline every 2-3 s).
    const states = h.events
      .slice(from)
      .filter((e) => e.event === 'sync.status')
      .map((e) => (e.payload as SyncStatus).state)
    expect(states.slice(states.indexOf('offline'))).not.toContain('syncing')
  }, 60_000)

  it('the Local sandbox killed: Local sandbox stopped; Restart starts its process again and its session syncs', async () => {
    const sandboxes: ReturnType<SandboxLauncher>[] = []
    const launcher: SandboxLauncher = (kind = 'sandbox') => {
      const child = nodeSandboxLauncher(kind)
      if (kind === 'sandbox') sandboxes.push(child)
      return child
    }
    const h = await backend('conn-local', { localSandbox: true }, launcher)
    await h.call('sync.now', null)
    expect((await connection(h))?.state).toBe('live')

    process.kill(sandboxes[0]!.pid!, 'SIGKILL')
    await waitFor(async () => (await connection(h))?.state === 'sandboxStopped', 30_000)
    const stopped = await h.call('sync.status', null)
    expect(stopped.connection?.detail).toMatch(
      /^The Local sandbox is not running: its process stopped unexpectedly \(signal SIGKILL\); use Restart in the top bar/
    )
    // The cache still answers.
    expect((await h.call('transactions.query', { limit: 1 })).profileId).toBe('local')

    await h.call('sync.restartLocalSandbox', null)
    expect(sandboxes).toHaveLength(2)
    await waitFor(async () => (await connection(h))?.state !== 'sandboxStopped', 30_000)
    await h.call('sync.now', null)
    expect((await connection(h))?.state).toBe('live')
    expect((await h.call('sync.status', null)).state).toBe('live')
  }, 120_000)
})
