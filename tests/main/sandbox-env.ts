import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import type { SandboxServer, SandboxServerOptions } from '../../src/sandbox/server'
import { startTestSandbox } from '../support/sandbox'
import { tempDir } from './helpers'
import { createBackend, type Backend, type BackendHost, type BackendOptions } from '../../src/main/app/backend'
import { dispatch } from '../../src/main/handlers/dispatch'
import type { AppNotification } from '../../src/main/domain/notifications/batch'
import type { ChannelInput, ChannelName, ChannelOutput } from '../../src/shared/ipc/contract'
import { testKeychainService } from '../support/keyring'
import type { SandboxLauncher } from '../../src/main/infra/child-launcher'

/** A sandbox on a free port (tests/support/sandbox.ts): faults on, no seed data, delays 100x shorter. */
export async function startSandbox(opts: SandboxServerOptions = {}): Promise<SandboxServer> {
  const { memory, ...rest } = opts
  const sandbox = await startTestSandbox({
    tokenId: 'tok_integration',
    clientSecret: 'sandbox-secret-for-tests',
    ...rest,
    ...(memory === false ? {} : memory !== undefined ? { memory } : {})
  })
  return sandbox.server
}

export interface Harness {
  backend: Backend
  events: Array<{ event: string; payload: unknown }>
  notifications: AppNotification[]
  logs: string[]
  call<K extends ChannelName>(name: K, input: ChannelInput<K>): Promise<ChannelOutput<K>>
  /** The raw IPC result (ok or error), for failure assertions. */
  raw<K extends ChannelName>(name: K, input: unknown): Promise<unknown>
  close(): Promise<void>
}

export async function startBackend(
  dataDir: string,
  keychainService: string,
  options: BackendOptions = {},
  /** How the Local sandbox's process is started (default: a Node child process). */
  sandboxLauncher?: SandboxLauncher
): Promise<Harness> {
  const events: Harness['events'] = []
  const notifications: Harness['notifications'] = []
  const logs: string[] = []
  const host: BackendHost = {
    mode: 'browser',
    appVersion: '0.0.0-test',
    dataDir,
    notify: (n) => notifications.push(n),
    log: (m) => logs.push(m),
    ...(sandboxLauncher !== undefined && { sandboxLauncher })
  }
  const backend = await createBackend(host, {
    keychainService,
    localSandbox: false,
    clientOptions: { baseDelayMs: 20, maxDelayMs: 200, totalTimeoutMs: 5_000, connectTimeoutMs: 2_000 },
    ...options
  })
  backend.subscribe((event, payload) => events.push({ event, payload }))
  const raw = (name: string, input: unknown) => dispatch(backend.handlers, name, input, (m) => logs.push(m))
  return {
    backend,
    events,
    notifications,
    logs,
    raw,
    async call(name, input) {
      const r = await raw(name, input)
      if (!r.ok) throw Object.assign(new Error(`${name} failed: ${r.error.code} ${r.error.message}`), { ipc: r.error })
      return r.value as never
    },
    close: () => backend.close()
  }
}

export { testKeychainService }

/** What `backendAgainstSandbox` sets up; read its fields inside tests and hooks (they change with every test). */
export interface BackendEnv {
  h: Harness
  /** Absent with `sandbox: false` (the test starts its own). */
  server: SandboxServer
  dir: string
  service: string
}

/**
 * A backend in a temp folder with its own keychain service, against a fresh sandbox, set up before each test (or once
 * for the file: `once`) and closed after it. Restarts (same folder and keychain) assign `env.h` anew. `profile`: also add a profile for the sandbox and make it active.
 */
export function backendAgainstSandbox(
  label: string,
  o: {
    /** false: no sandbox (the test starts the ones it needs). */
    sandbox?: SandboxServerOptions | false
    backend?: BackendOptions
    profile?: boolean | Parameters<typeof addProfile>[2]
    /** A new keychain service for every test (one test's profiles would be orphans in the next). */
    keychainPerTest?: boolean
    once?: boolean
  } = {}
): BackendEnv {
  const env = { service: testKeychainService(label) } as BackendEnv
  let cleanup: () => Promise<void>
  const [before, after] = o.once ? [beforeAll, afterAll] : [beforeEach, afterEach]
  before(async () => {
    if (o.keychainPerTest) env.service = testKeychainService(label)
    ;({ dir: env.dir, cleanup } = await tempDir(label))
    if (o.sandbox !== false) env.server = await startSandbox(o.sandbox)
    env.h = await startBackend(env.dir, env.service, { autoSync: false, ...o.backend })
    if (o.profile) await addProfile(env.h, env.server, o.profile === true ? {} : o.profile)
  })
  after(async () => {
    await env.h.close()
    if (o.sandbox !== false) await env.server.close()
    await cleanup()
  })
  return env
}

/**
 * Starts the sandboxes a test asks for and closes them after it. Call it before `backendAgainstSandbox`: hooks
 * registered first run after, so the backend closes first, then its sandboxes.
 */
export function sandboxesPerTest(): (opts?: SandboxServerOptions) => Promise<SandboxServer> {
  const servers: SandboxServer[] = []
  afterEach(async () => {
    while (servers.length) await servers.pop()!.close()
  })
  return async (opts = {}) => {
    const s = await startSandbox(opts)
    servers.push(s)
    return s
  }
}

/** The `data.changed` events `h` has emitted so far that name `collection`. */
export const dataChangedFor = (h: Harness, collection: string) =>
  h.events.filter(
    (e) => e.event === 'data.changed' && (e.payload as { collections: string[] }).collections.includes(collection)
  )

/** Creates a sandbox profile pointing at `server` and makes it active. */
export async function addProfile(
  h: Harness,
  server: SandboxServer,
  extra: { name?: string; environment?: 'sandbox' | 'production'; clientSecret?: string } = {}
) {
  const view = await h.call('profiles.create', {
    name: extra.name ?? 'Test sandbox',
    environment: extra.environment ?? 'sandbox',
    baseUrl: server.baseUrl,
    tokenId: server.tokenId,
    clientSecret: extra.clientSecret ?? server.clientSecret
  })
  await h.call('profiles.switch', { id: view.id })
  return view
}

/**
 * Polls until `check` returns a truthy value or the time is up. For something real that is only slow (a sync, a
 * refresh, a sandbox's status change): the default leaves a loaded 2-core machine room, where 5 s was missed.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  timeoutMs = 15_000,
  stepMs = 20
): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const v = await check()
    if (v) return v as NonNullable<T>
    if (Date.now() > end) throw new Error(`waitFor timed out after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, stepMs))
  }
}

/** Direct calls to the sandbox (setup and ground truth), bypassing Paydesk. */
export function sandboxApi(server: SandboxServer) {
  const auth = `Basic ${Buffer.from(`${server.tokenId}:${server.clientSecret}`).toString('base64')}`
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- ground-truth reads in tests
  return async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${server.baseUrl}/${path.replace(/^\//, '')}`, {
      method,
      headers: { authorization: auth, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) })
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`)
    return (text ? JSON.parse(text) : undefined) as T
  }
}

/** A funded platform USD internal account and an ACTIVE platform USD external account. */
export async function moneySetup(server: SandboxServer, fund = 1_000_000) {
  const api = sandboxApi(server)
  const internal = (
    await api<{ data: Array<{ id: string; balance: { currency: { code: string } } }> }>(
      'GET',
      'platform/internal-accounts'
    )
  ).data
  const usd = internal.find((a) => a.balance.currency.code === 'USD')!
  await api('POST', `sandbox/internal-accounts/${usd.id}/fund`, { amount: fund })
  const external = await api<{ id: string; status: string }>(
    'POST',
    'customers/external-accounts',
    platformUsdAccount('ops')
  )
  return { api, internalId: usd.id, externalId: external.id, externalStatus: external.status }
}

export async function balanceOf(server: SandboxServer, id: string): Promise<number> {
  const api = sandboxApi(server)
  const list = await api<{ data: Array<{ id: string; balance: { amount: number } }> }>(
    'GET',
    'platform/internal-accounts'
  )
  return list.data.find((a) => a.id === id)!.balance.amount
}

export async function outgoing(
  server: SandboxServer
): Promise<Array<{ id: string; status: string; sentAmount: { amount: number }; fees?: number }>> {
  const api = sandboxApi(server)
  return (await api('GET', 'transactions?type=OUTGOING&limit=100')).data
}

/**
 * A platform USD bank account (ACH) of a business, as `externalAccounts.create` takes it. The sandbox decides by the
 * account number's last digits (e.g. one ending in 004 is rejected by the bank after a while).
 */
export function platformUsdAccount(platformAccountId: string, accountNumber = '40012345678') {
  return {
    currency: 'USD' as const,
    platformAccountId,
    accountInfo: {
      accountType: 'USD_ACCOUNT' as const,
      accountNumber,
      routingNumber: '021000021',
      accountCategory: 'CHECKING' as const,
      bankName: 'Chase Bank',
      paymentRails: ['ACH' as const],
      beneficiary: {
        beneficiaryType: 'BUSINESS' as const,
        businessInfo: { legalName: 'Ops Inc.' },
        address: { line1: '1 Main St', city: 'Austin', postalCode: '78701', country: 'US' }
      }
    }
  }
}
