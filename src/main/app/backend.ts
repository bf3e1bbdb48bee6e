import os from 'node:os'
import path from 'node:path'
import { accountHandlers } from '../handlers/accounts'
import { createDesktop, type DesktopHost, type DesktopView } from './desktop'
import { exportHandlers } from '../handlers/export'
import { workbenchHandlers } from '../handlers/workbench'
import { SavedViewFiles } from '../domain/saved-views'
import { gateHandlers } from '../handlers/gate'
import { historyHandlers, withActionLog } from '../handlers/history'
import { isProduction } from '../domain/production-guard'
import { homeHandlers } from '../handlers/home'
import { GateLinks, type ManagedGate } from '../domain/gate/gate-links'
import { GatePositions } from '../domain/gate/gate-position'
import type { FollowerDeps } from '../infra/gate/gate-stream'
import type { Handlers } from '../handlers/dispatch'
import type { Emit } from '../infra/emit'
import { QuietCalls, SETTLED_AT_MOST_MS, SETTLED_QUIET_MS } from './quiet-calls'
import { LocalProfile } from './local-profile'
import type { AppNotification } from '../domain/notifications/batch'
import { profileHandlers } from '../handlers/app'
import { quoteHandlers } from '../handlers/quotes'
import { ProfileSessions } from './profile-sessions'
import type { ApiClientOptions } from '../infra/api-client'
import { ExportJobs } from '../domain/export/export-jobs'
import { createKeytarStore, KEYCHAIN_SERVICE, type SecretStore } from '../infra/keychain'
import { NoticeBoard, type ReportDamage } from '../domain/notices'
import { findOrphans } from '../domain/profile-data'
import type { SandboxLauncher } from '../infra/child-launcher'
import { ProfileStore } from '../domain/profiles'
import type { SchedulerClock } from '../domain/sync/poll-scheduler'
import { LOCAL_PROFILE_ID } from '../../shared/profile'

/** Everything the backend needs from its host (Electron or browser mode); all of it can be faked in tests. */
export interface BackendHost {
  mode: 'electron' | 'browser'
  appVersion: string
  /** Folder for profiles, caches and the local sandbox's state (Electron: userData; browser mode: XDG config). */
  dataDir: string
  /** Starts the Local sandbox's process (Electron: a utilityProcess); default: a Node child process. */
  sandboxLauncher?: SandboxLauncher
  /** Raises a native notification (Electron) or forwards it to the page (browser mode). */
  notify(notification: AppNotification): void
  log(message: string): void
  /** The desktop app's tray, menus and updater hooks (none in browser mode). */
  desktop?: DesktopHost
  /** Desktop: a save dialog for an export (null: dismissed). Absent in browser mode, where the page downloads it. */
  chooseExportFile?(suggestedName: string): Promise<string | null>
}

export interface Backend {
  handlers: Handlers
  /** Subscribes to main → renderer events; returns the unsubscribe function. */
  subscribe(sink: Emit): () => void
  /** Tells the backend whether a person is looking (window focused / page visible): drives the polling rate. */
  setForeground(foreground: boolean): void
  /** The machine goes to sleep (true) or wakes up (false): polling pauses while asleep and runs at once on wake. */
  setSuspended(suspended: boolean): void
  /** Prompts waiting at the gates, money in flight, app settings and updates: what the tray and the update policy read. */
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
  clock?: SchedulerClock
  /** API client settings (timeouts, retry delays). */
  clientOptions?: Partial<ApiClientOptions>
  /** false: no background polling; tests call `sync.now`. */
  autoSync?: boolean
  /** Clock of the quiet-calls detector (when the window's first screen counts as served, see QuietCalls). */
  quietCallsClock?: SchedulerClock
  /** How a gate's stream waits before reconnecting (tests hold it to act between two connections). */
  gateBackoff?: FollowerDeps['backoff']
}

export async function createBackend(host: BackendHost, options: BackendOptions = {}): Promise<Backend> {
  const secrets: SecretStore = createKeytarStore(options.keychainService ?? KEYCHAIN_SERVICE)
  // The first poll waits for the window's first screen: see QuietCalls.
  const calls = new QuietCalls(SETTLED_QUIET_MS, SETTLED_AT_MOST_MS, options.quietCallsClock)
  const sinks = new Set<Emit>()
  const emit: Emit = (event, payload) => {
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

  // The page's first calls (the profile list, the active profile's cached transactions) are answered first: the
  // sandbox's process, the orphan scan, the gates' streams and sync all start now but finish behind them.
  const local = LocalProfile.begin(
    { dataDir: host.dataDir, profiles, secrets, launcher: host.sandboxLauncher, log: host.log, reportDamage },
    options.localSandbox !== false
  )
  const sessions = new ProfileSessions({
    dataDir: host.dataDir,
    profiles,
    secrets,
    local,
    emit,
    notify: (n) => host.notify(n),
    reportDamage,
    log: host.log,
    clock: options.clock,
    clientOptions: options.clientOptions,
    autoSync: options.autoSync,
    pollsAfter: calls.settled
  })
  // Every profile's approval gate is followed, active or not, so its prompts and decisions always reach the operator.
  const gates = new GateLinks({
    profiles,
    secrets,
    // The Local profile's gate is Paydesk's own (a process of its own, its token made once): gate() waits for it.
    resolveManaged: async (profileId): Promise<ManagedGate | null> =>
      profileId === LOCAL_PROFILE_ID ? { ...(await local.gate()), managed: true } : null,
    emit,
    notify: (n) => host.notify(n),
    // The customer's label as the cache keeps it (src/shared/labels.ts customerName): the name, else the platform's id.
    customerName: (profileId, customerId) =>
      sessions.running.get(profileId)?.cache.namesOf([customerId])[customerId] ?? null,
    log: host.log,
    // Where each remote gate was last read, so what it decided while Paydesk was closed is told at the next start.
    positions: new GatePositions({
      dataDir: host.dataDir,
      log: host.log,
      reportDamage,
      profileName: (id) => profiles.all().find((p) => p.id === id)?.name ?? id
    }),
    ...(options.gateBackoff !== undefined && { backoff: options.gateBackoff })
  })
  gates.start()
  // The Local gate died: say why at once; it is started again, and the link follows it there.
  local.onGateExit((reason) => gates.managedExited(LOCAL_PROFILE_ID, reason))
  // The Local sandbox came up late or stopped: the Local profile's session re-opens and says so.
  local.onChange = () => sessions.restartIfRunning(LOCAL_PROFILE_ID)
  const active = () => sessions.active()
  // The active profile's session opens at once: its cache answers the first screen.
  void active().catch((error) =>
    host.log(`opening the active profile failed: ${error instanceof Error ? error.name : 'error'}`)
  )
  // Reported in the notices the page lists (which wait for it): a scan of the keychain, off the first calls' way.
  const orphansChecked = findOrphans(host.dataDir, secrets, () => profiles.all().map((p) => p.id)).then(
    (orphans) => orphans && reportDamage(orphans),
    () => host.log('looking for orphaned profile data failed')
  )

  const desktop = await createDesktop({
    ...host,
    host: host.desktop,
    profiles,
    sessions: sessions.running,
    gates,
    secrets,
    emit,
    reportDamage
  })
  const exports = new ExportJobs({
    downloadDir: path.join(host.dataDir, 'exports'),
    ...(host.chooseExportFile && { chooseFile: (name: string) => host.chooseExportFile!(name) }),
    emit: (progress) => emit('export.progress', progress),
    log: host.log
  })

  const handlers: Handlers = {
    ...desktop.handlers,
    ...exportHandlers(exports, active),
    ...workbenchHandlers(new SavedViewFiles(host.dataDir, host.log, reportDamage), active),
    // The Local profile's address and secret are settled once its sandbox's process is spawned: profile calls wait for
    // that, and not for the sandbox to answer (its state may load for a while, and on a busy machine its start does).
    ...afterLocalAddressed(
      profileHandlers({ dataDir: host.dataDir, profiles, sessions, gates, secrets, local, emit, log: host.log }),
      local
    ),
    'app.info': async () => ({ name: 'Paydesk', version: host.appVersion, mode: host.mode, platform: os.platform() }),
    'app.reportForeground': async ({ foreground }) => {
      backend.setForeground(foreground)
      return null
    },
    'notices.list': async () => {
      await orphansChecked
      return notices.list()
    },
    'notices.dismiss': async ({ id }) => notices.dismiss(id),

    // ---- data
    'transactions.query': async (input) => (await active()).queryTransactions(input),
    'transactions.get': async ({ id }) => (await active()).getTransaction(id),
    'customers.query': async (input) => (await active()).queryCustomers(input),
    'customers.get': async ({ id }) => (await active()).getCustomer(id),
    'customers.create': async (input) => (await active()).writes.createCustomer(input),
    'externalAccounts.query': async (input) => (await active()).queryExternalAccounts(input),
    'externalAccounts.create': async (input) => (await active()).writes.createExternalAccount(input),
    'externalAccounts.remove': async ({ id }) => (await active()).writes.removeExternalAccount(id),
    'internalAccounts.list': async (input) => (await active()).listInternalAccounts(input),
    'discoveries.list': async (input) => (await active()).listDiscoveries(input),
    'transfers.send': async (input) => (await active()).transfers.send(input),
    'transfers.check': async ({ actionId }) => (await active()).transfers.check(actionId),
    'transfers.resolve': async (input) => (await active()).transfers.resolve(input),
    'transfers.sendAgain': async (input) => (await active()).transfers.sendAgain(input),
    'transfers.journal': async () => (await active()).transfers.records(),
    'sandbox.fund': async ({ accountId, amount }) => (await active()).writes.fund(accountId, amount),
    'sandbox.receive': async (input) => (await active()).writes.receive(input),
    ...quoteHandlers(active),
    ...homeHandlers(active),

    // ---- sync
    'sync.status': async () => (await active()).syncStatus(),
    'sync.now': async () => {
      const s = await active()
      await s.sync?.scheduler.pollNow()
      return s.syncStatus()
    },
    // The top bar's Restart: the process first; its session then re-opens with a client (local.onChange).
    'sync.restartLocalSandbox': async () => {
      await local.restart()
      return (await active()).syncStatus()
    },

    ...accountHandlers(active, host.log),
    ...gateHandlers({ profiles, links: gates, active }),
    ...historyHandlers(active)
  }

  const backend: Backend = {
    // Every manual approve, reject and edit is logged with its reason (logged-actions.ts) before it is sent.
    handlers: calls.observe(
      withActionLog(handlers, { active, production: () => isProduction(profiles.get(profiles.activeProfileId)) })
    ),
    desktop: desktop.view,
    exports,
    subscribe(sink) {
      sinks.add(sink)
      return () => void sinks.delete(sink)
    },
    setForeground: (foreground) => sessions.setLooking({ foreground }),
    setSuspended: (suspended) => sessions.setLooking({ suspended }),
    async close() {
      desktop.view.updates.close()
      await sessions.closeAll()
      await gates.close()
      sinks.clear()
      await exports.close()
      await orphansChecked
      await notices.idle()
      await local.close()
    }
  }
  return backend
}

/** The same handlers, each answering once the Local profile's address and secret are final. */
function afterLocalAddressed<H extends Partial<Handlers>>(handlers: H, local: LocalProfile): H {
  const wrapped: Record<string, (input: never) => Promise<unknown>> = {}
  for (const [name, handler] of Object.entries(handlers) as [string, (input: never) => Promise<unknown>][]) {
    wrapped[name] = async (input) => {
      await local.whenAddressed()
      return handler(input)
    }
  }
  return wrapped as H
}
