import { randomBytes } from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import type { EventName, EventPayload } from '../shared/ipc/contract'
import { LOCAL_PROFILE_ID } from '../shared/profile'
import { isUnresolvedTransfer } from '../shared/ipc/channels/data'
import { accountHandlers } from './account-handlers'
import { AppError } from './errors'
import { Sequencer } from './sequencer'
import type { Handlers } from './ipc/dispatch'
import { quoteHandlers } from './quote-handlers'
import { testConnection } from './services/connection'
import { createKeytarStore, KEYCHAIN_SERVICE, secretAccount, type SecretStore } from './services/keychain'
import { generateCountFromEnv, localSandboxIsBig, startLocalSandbox, type LocalSandbox } from './services/local-sandbox'
import { NoticeBoard, type ReportDamage } from './services/notices'
import { describeTransfers, findOrphans, unresolvedTransfersOnDisk } from './services/profile-data'
import type { SandboxLauncher } from './services/sandbox-process'
import { profileDir, ProfileStore } from './services/profiles'
import { savedRulesEnabled } from './services/approvals'
import { ProfileSession } from './services/session'
import type { Clock } from './services/sync/scheduler'
import type { ApiClientOptions } from './services/api-client'
import { createDesktop, type DesktopHost, type DesktopView } from './desktop/compose'
import { exportHandlers } from './export-handlers'
import { ExportJobs } from './services/export/export-jobs'

/** Everything the backend needs from its host (Electron or browser mode); all of it can be faked in tests. */
export interface BackendHost {
  mode: 'electron' | 'browser'
  appVersion: string
  /** Folder for profiles, caches and the local sandbox's state (Electron: userData; browser mode: XDG config). */
  dataDir: string
  /** Starts the Local sandbox's process (Electron: a utilityProcess); default: a Node child process. */
  sandboxLauncher?: SandboxLauncher
  /** Raises a native notification (Electron) or forwards it to the page (browser mode). */
  notify(notification: {
    id: string
    title: string
    body: string
    route: string
    targetId?: string
    /** The profile the notification is about: clicking it switches to that profile first. */
    profileId?: string
  }): void
  log(message: string): void
  /** The desktop app's tray, menus and updater hooks (none in browser mode). */
  desktop?: DesktopHost
  /** Desktop: a save dialog for an export (null: dismissed). Absent in browser mode, where the page downloads it. */
  chooseExportFile?(suggestedName: string): Promise<string | null>
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
  /** Approvals waiting, money in flight, app settings and updates: what the tray and the update policy read. */
  desktop: DesktopView
  /** CSV exports: browser mode's server hands finished ones to the page. */
  exports?: ExportJobs
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
  // Damaged or orphaned state is told to the operator at once (a banner), kept until they dismiss it.
  const notices = await NoticeBoard.open(host.dataDir, (list) => emit('notices.changed', list), host.log)
  const reportDamage: ReportDamage = (notice) => void notices.report(notice).catch(() => {})
  const profiles = await ProfileStore.open(host.dataDir, secrets, host.log, reportDamage)
  const orphans = await findOrphans(
    host.dataDir,
    secrets,
    profiles.all().map((p) => p.id)
  )
  if (orphans) reportDamage(orphans)

  // The Local sandbox profile: credentials generated once and kept in the keychain like any other profile's.
  let localSandbox: LocalSandbox | undefined
  let localSandboxError: string | undefined
  /** Told to the operator once, in the Local profile's sync status (and in its connection reports). */
  let localSandboxNotice: string | undefined
  let localNoticeShown = false
  /** Re-opens the Local profile's session once the sandbox came up late or stopped (set once sessions exist). */
  let reopenLocalSession = (): void => {}
  if (options.localSandbox !== false) {
    try {
      const generateTransactions = generateCountFromEnv()
      const local = profiles.get(LOCAL_PROFILE_ID)
      let secret = await secrets.get(secretAccount(LOCAL_PROFILE_ID))
      if (!secret) {
        secret = randomBytes(32).toString('base64url')
        await profiles.setSecret(LOCAL_PROFILE_ID, secret, { internal: true })
      }
      const sandbox = await startLocalSandbox({
        dataDir: host.dataDir,
        tokenId: local.tokenId,
        clientSecret: secret,
        log: host.log,
        ...(host.sandboxLauncher !== undefined && { launcher: host.sandboxLauncher }),
        ...(generateTransactions !== undefined && { generateTransactions })
      })
      localSandbox = sandbox
      await profiles.setLocalBaseUrl(sandbox.baseUrl)
      const stopped = (message: string) => {
        if (localSandbox !== sandbox) return
        localSandbox = undefined
        localSandboxError = message
        // The Local profile's session re-opens without a client and says why.
        if (sessions.has(LOCAL_PROFILE_ID) && !closed) void restartSession(LOCAL_PROFILE_ID).catch(() => {})
      }
      sandbox.onUnexpectedExit(stopped)
      const whenReady = sandbox.ready.then(
        (r) => {
          if (r.corruptFileMovedTo !== undefined)
            localSandboxNotice = `The Local sandbox’s saved state was unreadable and was set aside as ${r.corruptFileMovedTo}; it started fresh.`
          return true
        },
        (error: unknown) => {
          stopped(`the embedded sandbox failed to start (${error instanceof Error ? error.message : 'error'})`)
          return false
        }
      )
      // A small state is up in moments: wait, so the first sync works. A big one (a generated history, a large
      // state file) loads in the sandbox's own process while the cache answers; the first sync follows when it is up.
      if (!localSandboxIsBig(host.dataDir, generateTransactions)) await whenReady
      else
        void whenReady.then((up) => {
          if (up) reopenLocalSession()
        })
    } catch (error) {
      localSandboxError = error instanceof AppError ? error.message : 'the embedded sandbox failed to start'
      host.log(`local sandbox not started: ${error instanceof Error ? error.name : 'error'}`)
    }
  } else {
    localSandboxError = 'the embedded sandbox is switched off'
  }

  // ---- sessions (cache, sync, approvals), one per profile that needs one: the active profile, plus every profile
  //      whose approval rules are on, which keeps running in the background so its payments are still decided inside
  //      the service's approval window after the operator switched to another profile. A background session emits no
  //      data events (the renderer shows the active profile only) and names its profile in its notifications.
  const looking = { foreground: true, suspended: false }
  const sessions = new Map<string, ProfileSession>()
  /** Profiles whose approval rules are on: read from disk at start, then kept up to date by `approvals.rules.set`. */
  const rulesOn = new Set<string>()
  const sessionOrder = new Sequencer()
  let closed = false
  const serial = <T>(work: () => Promise<T>): Promise<T> => sessionOrder.run(work)
  /** Events a background session keeps to itself: they would refresh the active profile's views for nothing. */
  const activeOnlyEvents = new Set<EventName>(['data.changed', 'transactions.changed', 'sync.status'])
  const openSession = async (id: string): Promise<ProfileSession> => {
    const profile = profiles.get(id)
    const isActive = () => profiles.activeProfileId === id
    const notice = profile.environment === 'local' && !localNoticeShown ? localSandboxNotice : undefined
    const next = await ProfileSession.open({
      profile,
      ...(notice !== undefined && { notice }),
      clientSecret: profile.environment === 'local' && !localSandbox ? undefined : await profiles.secretOf(profile.id),
      ...(profile.environment === 'local' &&
        !localSandbox && {
          noClientReason: `The Local sandbox is not running: ${localSandboxError ?? 'it did not start'}. Cached data stays available.`
        }),
      dataDir: host.dataDir,
      secrets,
      emit: (event, payload) => {
        if (activeOnlyEvents.has(event) && !isActive()) return
        emit(event, payload)
      },
      notify: (n) => {
        try {
          // A background profile's notification says whose it is; clicking it switches to that profile first.
          const name = profiles.all().find((p) => p.id === id)?.name ?? id
          host.notify({ ...n, profileId: id, ...(!isActive() && { title: `${name}: ${lowerFirst(n.title)}` }) })
        } catch {
          host.log('notification failed')
        }
      },
      log: host.log,
      reportDamage,
      ...(options.clock !== undefined && { clock: options.clock }),
      scheduler: { ...looking },
      ...(profile.environment === 'local' && localSandbox && { approvalWindowMs: localSandbox.approvalWindowMs }),
      ...(options.clientOptions !== undefined && { clientOptions: options.clientOptions }),
      ...(options.autoSync !== undefined && { autoSync: options.autoSync })
    })
    if (notice !== undefined) localNoticeShown = true
    if (isActive()) emit('sync.status', next.syncStatus())
    return next
  }
  /** Closes the sessions nobody needs any more and opens the background ones that are missing. Inside `serial`. */
  const reconcile = async (): Promise<void> => {
    const wanted = new Set([profiles.activeProfileId, ...rulesOn])
    for (const [id, s] of [...sessions]) {
      if (wanted.has(id)) continue
      sessions.delete(id)
      await s.close().catch(() => host.log('closing a profile session failed'))
    }
    if (closed) return
    for (const id of rulesOn) {
      if (sessions.has(id) || id === profiles.activeProfileId) continue
      try {
        sessions.set(id, await openSession(id))
      } catch (error) {
        host.log(`background session not started: ${error instanceof Error ? error.name : 'error'}`)
      }
    }
  }
  /** The session of the active profile, opened on first use. */
  const active = (): Promise<ProfileSession> =>
    serial(async () => {
      if (closed) throw new AppError('INTERNAL', 'Paydesk is shutting down.')
      const id = profiles.activeProfileId
      let s = sessions.get(id)
      if (!s) {
        s = await openSession(id)
        sessions.set(id, s)
      } else if (s.sync) {
        // A background session becoming the active one: the renderer learns its state now.
        emit('sync.status', s.syncStatus())
      }
      return s
    })
  /** Closes one profile's session (before a removal or new credentials); the next call opens a fresh one. */
  const closeSession = (id: string): Promise<void> =>
    serial(async () => {
      const s = sessions.get(id)
      sessions.delete(id)
      await s?.close()
    })
  /** After a switch, a removal or a change of rules: background sessions follow, the active one opens. */
  const settleSessions = () => {
    void serial(reconcile).catch(() => {})
    void active().catch(() => {})
  }

  const profilesChanged = async () => emit('profiles.changed', await profiles.list())
  /** New credentials or a new address for a profile: close its session and open a fresh one if it needs one. */
  const restartSession = async (id: string) => {
    await closeSession(id)
    settleSessions()
  }

  reopenLocalSession = () => {
    // restartSession queues itself (closeSession is serial): queuing it inside `serial` too would wait on itself.
    if (sessions.has(LOCAL_PROFILE_ID) && !closed) void restartSession(LOCAL_PROFILE_ID).catch(() => {})
  }

  const desktop = await createDesktop({ ...host, host: host.desktop, profiles, sessions, rulesOn, secrets, emit })
  const exports = new ExportJobs({
    downloadDir: path.join(host.dataDir, 'exports'),
    ...(host.chooseExportFile && { chooseFile: (name: string) => host.chooseExportFile!(name) }),
    emit: (progress) => emit('export.progress', progress),
    log: host.log
  })

  const handlers: Handlers = {
    ...desktop.handlers,
    ...exportHandlers(exports, active),
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
      await restartSession(input.id)
      await profilesChanged()
      return view
    },
    'profiles.remove': async ({ id, confirmUnknownTransfers }) => {
      const profile = profiles.get(id)
      // Its journal goes with it, and with the journal the keys that make a retry safe: never without being told.
      const running = sessions.get(id)
      const unknown = running
        ? running.transfers.records().records.filter(isUnresolvedTransfer)
        : await unresolvedTransfersOnDisk(host.dataDir, secrets, id, host.log)
      if (unknown.length > 0 && confirmUnknownTransfers !== true) {
        throw new AppError(
          'CONFIRMATION_REQUIRED',
          `“${profile.name}” has ${unknown.length} transfer${unknown.length === 1 ? '' : 's'} whose outcome is unknown: ` +
            `${describeTransfers(unknown)}. Removing the profile deletes their record. Check Transactions first, or ` +
            'confirm to remove it anyway.'
        )
      }
      if (unknown.length > 0)
        host.log(`profile ${id} removed with ${unknown.length} unknown transfer(s), on confirmation`)
      // Its files go with it, so its session (active or background) closes first.
      await closeSession(id)
      let list
      try {
        list = await profiles.remove(id)
      } catch (error) {
        settleSessions()
        throw error
      }
      rulesOn.delete(id)
      emit('profiles.changed', list)
      settleSessions()
      return list
    },
    'notices.list': async () => notices.list(),
    'notices.dismiss': async ({ id }) => notices.dismiss(id),
    'profiles.switch': async ({ id }) => {
      profiles.get(id)
      const list = await profiles.switch(id)
      // The profile left behind keeps running only when its approval rules are on.
      await serial(reconcile)
      emit('profiles.changed', list)
      void active().catch(() => {})
      return list
    },
    'profiles.setSecret': async ({ id, clientSecret }) => {
      const view = await profiles.setSecret(id, clientSecret)
      await restartSession(id)
      await profilesChanged()
      return view
    },
    'profiles.clearSecret': async ({ id }) => {
      const view = await profiles.clearSecret(id)
      await restartSession(id)
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
      const report = await testConnection(profile, await profiles.secretOf(id))
      return profile.environment === 'local' && localSandboxNotice
        ? { ...report, message: `${report.message} ${localSandboxNotice}` }
        : report
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
    'transfers.send': async (input) => (await active()).transfers.send(input),
    'transfers.check': async ({ actionId }) => (await active()).transfers.check(actionId),
    'transfers.resolve': async (input) => (await active()).transfers.resolve(input),
    'transfers.sendAgain': async (input) => (await active()).transfers.sendAgain(input),
    'transfers.journal': async () => (await active()).transfers.records(),
    'sandbox.fund': async ({ accountId, amount }) => (await active()).fund(accountId, amount),
    'sandbox.receive': async (input) => (await active()).receive(input),
    ...quoteHandlers(active),

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
    'approvals.approve': async ({ transactionId, receiverCustomerInfo, confirmProduction }) =>
      (await active()).approvals.approve(transactionId, receiverCustomerInfo, confirmProduction),
    'approvals.reject': async ({ transactionId, reason }) => (await active()).approvals.reject(transactionId, reason),
    'approvals.rules.get': async () => (await active()).approvals.rules,
    'approvals.rules.set': async ({ confirmProduction, ...rules }) => {
      const s = await active()
      const saved = await s.approvals.setRules(rules, confirmProduction)
      await s.setRulesEnabled(saved.enabled)
      if (saved.enabled) rulesOn.add(s.profileId)
      else rulesOn.delete(s.profileId)
      return saved
    },
    'approvals.decisions': async ({ limit }) => {
      const s = await active()
      return { profileId: s.profileId, decisions: s.approvals.decisions(limit) }
    },
    ...accountHandlers(active, host.log)
  }

  const backend: Backend = {
    handlers,
    desktop: desktop.view,
    exports,
    subscribe(sink) {
      sinks.add(sink)
      return () => void sinks.delete(sink)
    },
    setForeground(foreground) {
      looking.foreground = foreground
      for (const s of sessions.values()) s.setScheduler({ foreground })
    },
    setSuspended(suspended) {
      looking.suspended = suspended
      for (const s of sessions.values()) s.setScheduler({ suspended })
    },
    async close() {
      closed = true
      desktop.view.updates.close()
      await serial(async () => {
        const all = [...sessions.values()]
        sessions.clear()
        await Promise.all(all.map((s) => s.close().catch(() => {})))
      })
      sinks.clear()
      await exports.close()
      await notices.idle()
      await localSandbox?.close().catch(() => {})
    }
  }
  // Start the active profile's sync right away: the first screen should not wait for it.
  void active().catch((error) =>
    host.log(`opening the active profile failed: ${error instanceof Error ? error.name : 'error'}`)
  )
  // Then every other profile whose approval rules are on, so it keeps deciding payments in the background.
  for (const p of profiles.all()) {
    try {
      if (await savedRulesEnabled(path.join(profileDir(host.dataDir, p.id), 'approvals.sealed'), secrets, p.id))
        rulesOn.add(p.id)
    } catch {
      host.log('reading approval rules failed')
    }
  }
  void serial(reconcile).catch(() => {})
  return backend
}

function lowerFirst(s: string): string {
  return /^[A-Z][a-z]/.test(s) ? s[0]!.toLowerCase() + s.slice(1) : s
}
