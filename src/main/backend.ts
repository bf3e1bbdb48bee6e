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
import { ProfileSession } from './services/session'
import type { Clock } from './services/sync/scheduler'
import type { ApiClientOptions } from './services/api-client'

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
  /** Clock of the poll scheduler. */
  clock?: Clock
  /** API client settings (timeouts, retry delays). */
  clientOptions?: Partial<ApiClientOptions>
  /** false: no background polling; tests call `sync.now`. */
  autoSync?: boolean
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

  // ---- the active profile's session (cache, sync, approvals); only one at a time, so profiles never mix
  const looking = { foreground: true, suspended: false }
  let session: ProfileSession | undefined
  let sessionChain: Promise<unknown> = Promise.resolve()
  let closed = false
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = sessionChain.then(work, work)
    sessionChain = run.catch(() => {})
    return run
  }
  const openSession = async (): Promise<ProfileSession> => {
    const profile = profiles.get(profiles.activeProfileId)
    const next = await ProfileSession.open({
      profile,
      clientSecret: profile.environment === 'local' && !localSandbox ? undefined : await profiles.secretOf(profile.id),
      ...(profile.environment === 'local' &&
        !localSandbox && {
          noClientReason: `The Local sandbox is not running: ${localSandboxError ?? 'it did not start'}. Cached data stays available.`
        }),
      dataDir: host.dataDir,
      secrets,
      emit,
      notify: (n) => {
        try {
          host.notify(n)
        } catch {
          host.log('notification failed')
        }
      },
      log: host.log,
      ...(options.clock !== undefined && { clock: options.clock }),
      scheduler: { ...looking },
      ...(profile.environment === 'local' && localSandbox && { approvalWindowMs: localSandbox.approvalWindowMs }),
      ...(options.clientOptions !== undefined && { clientOptions: options.clientOptions }),
      ...(options.autoSync !== undefined && { autoSync: options.autoSync })
    })
    emit('sync.status', next.syncStatus())
    return next
  }
  /** The session of the active profile, opened on first use. */
  const active = (): Promise<ProfileSession> =>
    serial(async () => {
      if (closed) throw new AppError('INTERNAL', 'Paydesk is shutting down.')
      if (session && session.profileId === profiles.activeProfileId) return session
      await session?.close()
      session = undefined
      session = await openSession()
      return session
    })
  /** Closes the session (before a switch, a removal or new credentials); the next call opens the right one. */
  const closeSession = (): Promise<void> =>
    serial(async () => {
      const s = session
      session = undefined
      await s?.close()
    })

  const profilesChanged = async () => emit('profiles.changed', await profiles.list())
  /** New credentials or a new address for the active profile: close its session and open a fresh one. */
  const restartSession = async () => {
    await closeSession()
    void active().catch(() => {})
  }

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
      if (input.id === profiles.activeProfileId) await restartSession()
      await profilesChanged()
      return view
    },
    'profiles.remove': async ({ id }) => {
      const wasActive = id === profiles.activeProfileId
      if (wasActive) await closeSession()
      const list = await profiles.remove(id)
      emit('profiles.changed', list)
      if (wasActive) void active().catch(() => {})
      return list
    },
    'profiles.switch': async ({ id }) => {
      profiles.get(id)
      if (id !== profiles.activeProfileId) await closeSession()
      const list = await profiles.switch(id)
      emit('profiles.changed', list)
      void active().catch(() => {})
      return list
    },
    'profiles.setSecret': async ({ id, clientSecret }) => {
      const view = await profiles.setSecret(id, clientSecret)
      if (id === profiles.activeProfileId) await restartSession()
      await profilesChanged()
      return view
    },
    'profiles.clearSecret': async ({ id }) => {
      const view = await profiles.clearSecret(id)
      if (id === profiles.activeProfileId) await restartSession()
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
    },

    // ---- data
    'transactions.query': async (input) => (await active()).queryTransactions(input),
    'transactions.get': async ({ id }) => (await active()).getTransaction(id),
    'customers.query': async (input) => (await active()).queryCustomers(input),
    'customers.get': async ({ id }) => (await active()).getCustomer(id),
    'customers.create': async (input) => (await active()).createCustomer(input),
    'externalAccounts.query': async (input) => (await active()).queryExternalAccounts(input),
    'externalAccounts.create': async (input) => (await active()).createExternalAccount(input),
    'externalAccounts.remove': async ({ id }) => (await active()).removeExternalAccount(id),
    'internalAccounts.list': async (input) => (await active()).listInternalAccounts(input),
    'discoveries.list': async (input) => (await active()).listDiscoveries(input),
    'transfers.send': async (input) => (await active()).sendTransfer(input),
    'transfers.journal': async () => (await active()).journalRecords(),
    'sandbox.fund': async ({ accountId, amount }) => (await active()).fund(accountId, amount),
    'sandbox.receive': async (input) => (await active()).receive(input),

    // ---- sync
    'sync.status': async () => (await active()).syncStatus(),
    'sync.now': async () => {
      const s = await active()
      await s.sync?.scheduler.pollNow()
      return s.syncStatus()
    },

    // ---- approvals
    'approvals.list': async () => {
      const s = await active()
      return { profileId: s.profileId, items: s.approvals.list(), syncedAt: s.syncStatus().lastSyncedAt }
    },
    'approvals.approve': async ({ transactionId, receiverCustomerInfo }) =>
      (await active()).approvals.approve(transactionId, receiverCustomerInfo),
    'approvals.reject': async ({ transactionId, reason }) => (await active()).approvals.reject(transactionId, reason),
    'approvals.rules.get': async () => (await active()).approvals.rules,
    'approvals.rules.set': async (rules) => {
      const s = await active()
      const saved = await s.approvals.setRules(rules)
      await s.setRulesEnabled(saved.enabled)
      return saved
    },
    'approvals.decisions': async ({ limit }) => {
      const s = await active()
      return { profileId: s.profileId, decisions: s.approvals.decisions(limit) }
    }
  }

  const backend: Backend = {
    handlers,
    subscribe(sink) {
      sinks.add(sink)
      return () => void sinks.delete(sink)
    },
    setForeground(foreground) {
      looking.foreground = foreground
      session?.setScheduler({ foreground })
    },
    setSuspended(suspended) {
      looking.suspended = suspended
      session?.setScheduler({ suspended })
    },
    async close() {
      closed = true
      await serial(async () => {
        await session?.close()
        session = undefined
      })
      sinks.clear()
      await localSandbox?.close().catch(() => {})
    }
  }
  // Start the active profile's sync right away: the first screen should not wait for it.
  void active().catch((error) =>
    host.log(`opening the active profile failed: ${error instanceof Error ? error.name : 'error'}`)
  )
  return backend
}
