import os from 'node:os'
import path from 'node:path'
import { LOCAL_PROFILE_ID } from '../../shared/profile'
import { ExportJobs } from '../domain/export/export-jobs'
import { GateLinks, type ManagedGate } from '../domain/gate/gate-links'
import { GatePositions } from '../domain/gate/gate-position'
import { NoticeBoard, type ReportDamage } from '../domain/notices'
import type { AppNotification } from '../domain/notifications/batch'
import { isProduction } from '../domain/production-guard'
import { findOrphans } from '../domain/profile-data'
import { ProfileStore } from '../domain/profiles'
import { SavedViewFiles } from '../domain/saved-views'
import type { SchedulerClock } from '../domain/sync/poll-scheduler'
import { accountHandlers } from '../handlers/accounts'
import { appHandlers, profileHandlers } from '../handlers/app'
import { dataHandlers } from '../handlers/data'
import { desktopHandlers } from '../handlers/desktop'
import type { Handlers } from '../handlers/dispatch'
import { exportHandlers } from '../handlers/export'
import { gateHandlers } from '../handlers/gate'
import { historyHandlers, withActionLog } from '../handlers/history'
import { homeHandlers } from '../handlers/home'
import { quoteHandlers } from '../handlers/quotes'
import { syncHandlers } from '../handlers/sync'
import { workbenchHandlers } from '../handlers/workbench'
import type { ApiClientOptions } from '../infra/api-client'
import type { SandboxLauncher } from '../infra/child-launcher'
import type { Emit } from '../infra/emit'
import type { FollowerDeps } from '../infra/gate/gate-stream'
import { createKeytarStore, KEYCHAIN_SERVICE, type SecretStore } from '../infra/keychain'
import { createDesktop, type DesktopHost, type DesktopView } from './desktop'
import { LocalProfile } from './local-profile'
import { ProfileSessions } from './profile-sessions'
import { QuietCalls, SETTLED_AT_MOST_MS, SETTLED_QUIET_MS } from './quiet-calls'
import { StartupPlan } from './startup-plan'

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
  // What waits for what at start-up is startup-plan.ts; the window's first screen is told by its calls going quiet.
  const calls = new QuietCalls(SETTLED_QUIET_MS, SETTLED_AT_MOST_MS, options.quietCallsClock)
  const events = eventSinks(host.log)
  const stores = await openStores(host, options, events.emit)
  // The page's first calls (the profile list, the active profile's cached transactions) are answered first: the
  // sandbox's process, the orphan scan, the gates' streams and sync all start now but finish behind them.
  const local = LocalProfile.begin(
    { ...stores, dataDir: host.dataDir, launcher: host.sandboxLauncher, log: host.log },
    options.localSandbox !== false
  )
  const plan = new StartupPlan({
    firstScreen: calls.settled,
    localAddressed: () => local.whenAddressed(),
    localStarted: () => local.whenStarted()
  })
  const sessions = openSessions(host, options, stores, local, plan)
  const gates = followGates(host, options, stores, local, sessions)
  // The Local gate died: say why at once; it is started again, and the link follows it there.
  local.onGateExit((reason) => gates.managedExited(LOCAL_PROFILE_ID, reason))
  // The Local sandbox came up late or stopped: the Local profile's session re-opens and says so.
  local.onChange = () => sessions.restartIfRunning(LOCAL_PROFILE_ID)
  const orphansChecked = openActiveAndScan(host, stores, sessions)
  const desktop = await createDesktop({
    ...host,
    ...stores,
    host: host.desktop,
    sessions: sessions.running,
    gates,
    emit: events.emit
  })
  const exports = openExports(host, events.emit)
  const setForeground = (foreground: boolean) => sessions.setLooking({ foreground })
  const handlers = everyHandler({
    host,
    stores,
    local,
    sessions,
    gates,
    desktop,
    exports,
    orphansChecked,
    setForeground,
    plan
  })
  return {
    // Every manual approve, reject and edit is logged with its reason (handlers/history.ts) before it is sent.
    handlers: calls.observe(handlers),
    desktop,
    exports,
    subscribe: events.subscribe,
    setForeground,
    setSuspended: (suspended) => sessions.setLooking({ suspended }),
    async close() {
      desktop.updates.close()
      await sessions.closeAll()
      await gates.close()
      events.clear()
      await exports.close()
      await orphansChecked
      await stores.notices.idle()
      await local.close()
    }
  }
}

/** The page's subscriptions to main's events: one failing sink never keeps an event from the others. */
function eventSinks(log: (message: string) => void) {
  const sinks = new Set<Emit>()
  const emit: Emit = (event, payload) => {
    for (const sink of sinks) {
      try {
        sink(event, payload)
      } catch {
        log(`event sink failed for ${String(event)}`)
      }
    }
  }
  const subscribe = (sink: Emit) => {
    sinks.add(sink)
    return () => void sinks.delete(sink)
  }
  return { emit, subscribe, clear: () => sinks.clear() }
}

/** What the data folder and the keychain hold: the notices, the profiles, and how damage found in them is told. */
interface Stores {
  secrets: SecretStore
  notices: NoticeBoard
  reportDamage: ReportDamage
  profiles: ProfileStore
  emit: Emit
}

async function openStores(host: BackendHost, options: BackendOptions, emit: Emit): Promise<Stores> {
  const secrets: SecretStore = createKeytarStore(options.keychainService ?? KEYCHAIN_SERVICE)
  // Damaged or orphaned state is told to the operator at once (a banner), kept until they dismiss it.
  const notices = await NoticeBoard.open(host.dataDir, (list) => emit('notices.changed', list), host.log)
  const reportDamage: ReportDamage = (notice) => void notices.report(notice).catch(() => {})
  const profiles = await ProfileStore.open(host.dataDir, secrets, host.log, reportDamage)
  return { secrets, notices, reportDamage, profiles, emit }
}

function openSessions(
  host: BackendHost,
  options: BackendOptions,
  stores: Stores,
  local: LocalProfile,
  plan: StartupPlan
): ProfileSessions {
  return new ProfileSessions({
    ...stores,
    dataDir: host.dataDir,
    local,
    notify: (n) => host.notify(n),
    log: host.log,
    clock: options.clock,
    clientOptions: options.clientOptions,
    autoSync: options.autoSync,
    plan
  })
}

/** Every profile's approval gate is followed, active or not, so its prompts and decisions always reach the operator. */
function followGates(
  host: BackendHost,
  options: BackendOptions,
  stores: Stores,
  local: LocalProfile,
  sessions: ProfileSessions
): GateLinks {
  const { profiles, reportDamage } = stores
  const gates = new GateLinks({
    profiles,
    secrets: stores.secrets,
    // The Local profile's gate is Paydesk's own (a process of its own, its token made once): gate() waits for it.
    resolveManaged: async (profileId): Promise<ManagedGate | null> =>
      profileId === LOCAL_PROFILE_ID ? { ...(await local.gate()), managed: true } : null,
    emit: stores.emit,
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
  return gates
}

/**
 * The active profile's session opens at once (its cache answers the first screen), and the keychain is scanned for
 * data no profile points to, off the first calls' way; the notices the page lists wait for that scan.
 */
function openActiveAndScan(host: BackendHost, stores: Stores, sessions: ProfileSessions): Promise<unknown> {
  void sessions
    .active()
    .catch((error) => host.log(`opening the active profile failed: ${error instanceof Error ? error.name : 'error'}`))
  return findOrphans(host.dataDir, stores.secrets, () => stores.profiles.all().map((p) => p.id)).then(
    (orphans) => orphans && stores.reportDamage(orphans),
    () => host.log('looking for orphaned profile data failed')
  )
}

/** CSV exports: written where the operator chose (desktop) or kept for the page to download (browser mode). */
function openExports(host: BackendHost, emit: Emit): ExportJobs {
  return new ExportJobs({
    downloadDir: path.join(host.dataDir, 'exports'),
    ...(host.chooseExportFile && { chooseFile: (name: string) => host.chooseExportFile!(name) }),
    emit: (progress) => emit('export.progress', progress),
    log: host.log
  })
}

interface Composed {
  host: BackendHost
  stores: Stores
  local: LocalProfile
  sessions: ProfileSessions
  gates: GateLinks
  desktop: DesktopView
  exports: ExportJobs
  orphansChecked: Promise<unknown>
  setForeground(foreground: boolean): void
  plan: StartupPlan
}

/** One handler per channel, from one file per channel group (src/main/handlers/<group>.ts). */
function everyHandler(c: Composed): Handlers {
  const { host, stores, local, sessions, gates } = c
  const { profiles, secrets } = stores
  const active = () => sessions.active()
  const handlers: Handlers = {
    ...appHandlers({
      info: { name: 'Paydesk', version: host.appVersion, mode: host.mode, platform: os.platform() },
      setForeground: c.setForeground,
      notices: stores.notices,
      noticesFound: c.orphansChecked
    }),
    // The Local profile's address and secret are settled once its sandbox's process is spawned (startup-plan.ts).
    ...c.plan.afterLocalAddressed(
      profileHandlers({
        dataDir: host.dataDir,
        profiles,
        sessions,
        gates,
        secrets,
        local,
        emit: stores.emit,
        log: host.log
      })
    ),
    ...desktopHandlers({ settings: c.desktop.settings, updates: c.desktop.updates, window: host.desktop }),
    ...exportHandlers(c.exports, active),
    ...workbenchHandlers(new SavedViewFiles(host.dataDir, host.log, stores.reportDamage), active),
    ...dataHandlers(active),
    ...quoteHandlers(active),
    ...homeHandlers(active),
    ...syncHandlers(active, () => local.restart()),
    ...accountHandlers(active, host.log),
    ...gateHandlers({ profiles, links: gates, active }),
    ...historyHandlers(active)
  }
  return withActionLog(handlers, { active, production: () => isProduction(profiles.get(profiles.activeProfileId)) })
}
