import { AppError } from './app-error'

/** The one keychain service name of the app; accounts are `profile:<id>:secret`, `profile:<id>:cache-key` and
 * `profile:<id>:gate-token`. */
export const KEYCHAIN_SERVICE = 'Paydesk'

export const secretAccount = (profileId: string): string => `profile:${profileId}:secret`
export const cacheKeyAccount = (profileId: string): string => `profile:${profileId}:cache-key`
/** The operator token of the profile's approval gate (docs/gate.md). */
export const gateTokenAccount = (profileId: string): string => `profile:${profileId}:gate-token`

/** The OS keychain as the services see it. The real one is keytar; nothing else is used in production or in tests. */
export interface SecretStore {
  get(account: string): Promise<string | undefined>
  set(account: string, value: string): Promise<void>
  delete(account: string): Promise<void>
  /** The account names stored under Paydesk's service (never their values), to find entries no profile points to. */
  accounts(): Promise<string[]>
}

type Keytar = {
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>
}

let keytarModule: Promise<Keytar> | undefined
async function loadKeytar(): Promise<Keytar> {
  keytarModule ??= import('keytar').then((m) => (m as { default?: Keytar }).default ?? (m as unknown as Keytar))
  return keytarModule
}

/**
 * What the keychain holds under each service, read once per launch (account → value), or being read. Each keytar call
 * is a round trip to the OS keychain (on Linux, D-Bus to the Secret Service, whose daemon needs the CPU the starting
 * window needs too): at a cold start each took 120-650 ms, and the first screen waited for six of them, some in turn
 * (the Local secret three times, the cache key twice, the keychain's account list). One `findCredentials` answers
 * them all: the rows showed about 300 ms sooner (median of six alternating cold starts at 100,000 transactions: 1,668
 * against 1,966 ms from process start). Starting that read as the process starts, to overlap the backend's modules
 * loading, measured worse (1,988 ms): it competed with them. A read that fails is not kept: the next one asks the
 * keychain again (it may have been unlocked meanwhile).
 */
const snapshots = new Map<string, Promise<Map<string, string>>>()

function snapshotOf(service: string): Promise<Map<string, string>> {
  let snapshot = snapshots.get(service)
  if (!snapshot) {
    const reading = loadKeytar()
      .then((keytar) => keytar.findCredentials(service))
      .then((found) => new Map(found.map((c) => [c.account, c.password])))
    snapshots.set(service, reading)
    reading.catch(() => {
      if (snapshots.get(service) === reading) snapshots.delete(service)
    })
    snapshot = reading
  }
  return snapshot
}

/** A change written to the keychain, applied to what was read of it (a read still in flight included). */
async function remember(service: string, change: (entries: Map<string, string>) => void): Promise<void> {
  await snapshots.get(service)?.then(change, () => undefined)
}

/**
 * keytar-backed store. Keychain failures become AppError KEYCHAIN with a sentence that never contains the value.
 * `service` is overridable only so tests can use a throwaway service name inside the isolated keyring.
 *
 * Reads come from one read of the whole service per launch (see `snapshots`); writes go to the keychain first and then
 * to what was read. Paydesk is the only writer of its entries (one instance per data folder): an entry changed by hand
 * in the OS keychain while Paydesk runs is seen at the next launch.
 */
export function createKeytarStore(service: string = KEYCHAIN_SERVICE): SecretStore {
  const fail = (what: string, error: unknown): never => {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error)
    throw new AppError(
      'KEYCHAIN',
      `The OS keychain could not ${what} (${reason}). Make sure a keyring service is running and unlocked.`
    )
  }
  return {
    async get(account) {
      try {
        return (await snapshotOf(service)).get(account)
      } catch (error) {
        return fail('be read', error)
      }
    },
    async set(account, value) {
      try {
        const keytar = await loadKeytar()
        await keytar.setPassword(service, account, value)
      } catch (error) {
        fail('store the value', error)
      }
      await remember(service, (entries) => entries.set(account, value))
    },
    async delete(account) {
      try {
        const keytar = await loadKeytar()
        await keytar.deletePassword(service, account)
      } catch (error) {
        fail('remove the value', error)
      }
      await remember(service, (entries) => entries.delete(account))
    },
    async accounts() {
      try {
        return [...(await snapshotOf(service)).keys()]
      } catch (error) {
        return fail('be listed', error)
      }
    }
  }
}
