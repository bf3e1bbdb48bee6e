import { AppError } from '../errors'

/** The one keychain service name of the app; accounts are `profile:<id>:secret` and `profile:<id>:cache-key`. */
export const KEYCHAIN_SERVICE = 'Paydesk'

export const secretAccount = (profileId: string): string => `profile:${profileId}:secret`
export const cacheKeyAccount = (profileId: string): string => `profile:${profileId}:cache-key`

/** The OS keychain as the services see it. The real one is keytar; nothing else is used in production or in tests. */
export interface SecretStore {
  get(account: string): Promise<string | undefined>
  set(account: string, value: string): Promise<void>
  delete(account: string): Promise<void>
  /** The account names stored under Paydesk's service (never their values), to find entries no profile points to. */
  accounts(): Promise<string[]>
}

type Keytar = {
  getPassword(service: string, account: string): Promise<string | null>
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
 * keytar-backed store. Keychain failures become AppError KEYCHAIN with a sentence that never contains the value.
 * `service` is overridable only so tests can use a throwaway service name inside the isolated keyring.
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
      let keytar: Keytar
      try {
        keytar = await loadKeytar()
        const value = await keytar.getPassword(service, account)
        return value ?? undefined
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
    },
    async delete(account) {
      try {
        const keytar = await loadKeytar()
        await keytar.deletePassword(service, account)
      } catch (error) {
        fail('remove the value', error)
      }
    },
    async accounts() {
      try {
        const keytar = await loadKeytar()
        return (await keytar.findCredentials(service)).map((c) => c.account)
      } catch (error) {
        return fail('be listed', error)
      }
    }
  }
}
