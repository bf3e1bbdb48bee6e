import { randomBytes } from 'node:crypto'
import os from 'node:os'
import type { EventName, EventPayload } from '../shared/ipc/contract'
import { LOCAL_PROFILE_ID } from '../shared/profile'
import { AppError } from './errors'
import type { Handlers } from './ipc/dispatch'
import { testConnection } from './services/connection'
import { createKeytarStore, KEYCHAIN_SERVICE, secretAccount, type SecretStore } from './services/keychain'
import { startLocalSandbox, type LocalSandbox } from './services/local-sandbox'
import { ProfileStore } from './services/profiles'

/** Everything the backend needs from its host (Electron or browser mode); all of it can be faked in tests. */
export interface BackendHost {
  mode: 'electron' | 'browser'
  appVersion: string
  /** Folder for profiles, caches and the local sandbox's state (Electron: userData; browser mode: XDG config). */
  dataDir: string
  /** Raises a native notification (Electron) or forwards it to the page (browser mode). */
  notify(notification: { id: string; title: string; body: string; route: string; targetId?: string }): void
  log(message: string): void
}

export type EventSink = <K extends EventName>(event: K, payload: EventPayload<K>) => void

export interface Backend {
  handlers: Handlers
  /** Subscribes to main → renderer events; returns the unsubscribe function. */
  subscribe(sink: EventSink): () => void
  /** Tells the backend whether a person is looking (window focused / page visible): drives the polling rate. */
  setForeground(foreground: boolean): void
  /** The machine goes to sleep (true) or wakes up (false): polling pauses while asleep and runs at once on wake. */
  setSuspended(suspended: boolean): void
  close(): Promise<void>
}

/** Knobs for tests and the bench; production passes none. */
export interface BackendOptions {
  /** Keychain service name; tests use a unique one per file so parallel runs never share the local profile's entry. */
  keychainService?: string
  /** false: do not start the embedded sandbox (the local profile then reports it as unreachable). */
  localSandbox?: boolean
}

export async function createBackend(host: BackendHost, options: BackendOptions = {}): Promise<Backend> {
  const secrets: SecretStore = createKeytarStore(options.keychainService ?? KEYCHAIN_SERVICE)
  const profiles = await ProfileStore.open(host.dataDir, secrets, host.log)
  const sinks = new Set<EventSink>()
  const emit: EventSink = (event, payload) => {
    for (const sink of sinks) {
      try {
        sink(event, payload)
      } catch {
        host.log(`event sink failed for ${String(event)}`)
      }
    }
  }

  // The Local sandbox profile: credentials generated once and kept in the keychain like any other profile's.
  let localSandbox: LocalSandbox | undefined
  let localSandboxError: string | undefined
  if (options.localSandbox !== false) {
    try {
      const local = profiles.get(LOCAL_PROFILE_ID)
      let secret = await secrets.get(secretAccount(LOCAL_PROFILE_ID))
      if (!secret) {
        secret = randomBytes(32).toString('base64url')
        await profiles.setSecret(LOCAL_PROFILE_ID, secret, { internal: true })
      }
      localSandbox = await startLocalSandbox({
        dataDir: host.dataDir,
        tokenId: local.tokenId,
        clientSecret: secret,
        log: host.log
      })
      await profiles.setLocalBaseUrl(localSandbox.baseUrl)
    } catch (error) {
      localSandboxError = error instanceof AppError ? error.message : 'the embedded sandbox failed to start'
      host.log(`local sandbox not started: ${error instanceof Error ? error.name : 'error'}`)
    }
  } else {
    localSandboxError = 'the embedded sandbox is switched off'
  }

  const profilesChanged = async () => emit('profiles.changed', await profiles.list())

  const handlers: Handlers = {
    'app.info': async () => ({ name: 'Paydesk', version: host.appVersion, mode: host.mode, platform: os.platform() }),
    'app.reportForeground': async ({ foreground }) => {
      backend.setForeground(foreground)
      return null
    },
    'profiles.list': () => profiles.list(),
    'profiles.create': async (input) => {
      const view = await profiles.create(input)
      await profilesChanged()
      return view
    },
    'profiles.update': async (input) => {
      const view = await profiles.update(input)
      await profilesChanged()
      return view
    },
    'profiles.remove': async ({ id }) => {
      const list = await profiles.remove(id)
      emit('profiles.changed', list)
      return list
    },
    'profiles.switch': async ({ id }) => {
      const list = await profiles.switch(id)
      emit('profiles.changed', list)
      return list
    },
    'profiles.setSecret': async ({ id, clientSecret }) => {
      const view = await profiles.setSecret(id, clientSecret)
      await profilesChanged()
      return view
    },
    'profiles.clearSecret': async ({ id }) => {
      const view = await profiles.clearSecret(id)
      await profilesChanged()
      return view
    },
    'connection.test': async ({ profileId }) => {
      const id = profileId ?? profiles.activeProfileId
      const profile = profiles.get(id)
      if (profile.environment === 'local' && !localSandbox) {
        return {
          profileId: id,
          ok: false,
          checkedAt: new Date().toISOString(),
          baseUrl: profile.baseUrl,
          code: 'UNREACHABLE',
          message: `The Local sandbox is not running: ${localSandboxError ?? 'it did not start'}.`
        }
      }
      return testConnection(profile, await profiles.secretOf(id))
    }
  }

  const backend: Backend = {
    handlers,
    subscribe(sink) {
      sinks.add(sink)
      return () => void sinks.delete(sink)
    },
    setForeground() {},
    setSuspended() {},
    async close() {
      sinks.clear()
      await localSandbox?.close().catch(() => {})
    }
  }
  return backend
}
