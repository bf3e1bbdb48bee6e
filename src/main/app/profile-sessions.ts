import type { EventName } from '../../shared/ipc/contract'
import type { Emit } from '../infra/emit'
import { AppError } from '../infra/app-error'
import type { LocalProfile } from './local-profile'
import type { StartupPlan } from './startup-plan'
import type { AppNotification } from '../domain/notifications/batch'
import { Sequencer } from '../infra/sequencer'
import type { ApiClientOptions } from '../infra/api-client'
import type { SecretStore } from '../infra/keychain'
import type { ReportDamage } from '../domain/notices'
import type { ProfileStore } from '../domain/profiles'
import { openProfileCache, type OpenedCache } from '../domain/profile-cache'
import { ProfileSession } from '../domain/profile-session'
import type { SchedulerClock, SchedulerState } from '../domain/sync/poll-scheduler'

export interface SessionsDeps {
  dataDir: string
  profiles: ProfileStore
  secrets: SecretStore
  local: LocalProfile
  emit: Emit
  notify(notification: AppNotification): void
  reportDamage: ReportDamage
  log(message: string): void
  clock?: SchedulerClock | undefined
  clientOptions?: Partial<ApiClientOptions> | undefined
  autoSync?: boolean | undefined
  /** When a session's polling and refreshes start (startup-plan.ts). */
  plan: StartupPlan
}

/** Events a session that is no longer the active one (closing after a switch) keeps to itself. */
const ACTIVE_ONLY_EVENTS = new Set<EventName>(['data.changed', 'transactions.changed', 'sync.status'])

/**
 * The running profile session (cache, sync, transfers): the active profile's, opened on first use and closed when the
 * operator switches away. Approvals need no session: every profile's approval gate is followed by GateLinks, so no
 * profile keeps running in the background. Opening and closing run one at a time.
 */
export class ProfileSessions {
  readonly running = new Map<string, ProfileSession>()
  private readonly order = new Sequencer()
  private readonly looking: Partial<SchedulerState> = { foreground: true, suspended: false }
  private closed = false

  constructor(private readonly d: SessionsDeps) {}

  private serial<T>(work: () => Promise<T>): Promise<T> {
    return this.order.run(work)
  }

  private async open(id: string): Promise<ProfileSession> {
    const d = this.d
    const profiles = d.profiles
    const local = profiles.get(id).environment === 'local'
    // The cache needs nothing from the service, and the first screen reads it alone: it opens while the Local
    // sandbox's process is spawned, not after.
    const cache = openProfileCache(d, profiles.get(id))
    // Its failure is met where the session awaits it (after the sandbox, maybe): not a crash for a promise unheard.
    cache.catch(() => undefined)
    try {
      return await this.openWith(id, local, cache)
    } catch (error) {
      // A session that could not open leaves no cache (nor its threads) behind.
      void cache.then(({ store }) => store.close()).catch(() => undefined)
      throw error
    }
  }

  private async openWith(id: string, isLocal: boolean, cache: Promise<OpenedCache>): Promise<ProfileSession> {
    const d = this.d
    const profiles = d.profiles
    // The Local profile's session reads the profile once its address and credentials are final (startup-plan.ts).
    await d.plan.sessionOpens(isLocal)
    const profile = profiles.get(id)
    const isActive = () => profiles.activeProfileId === id
    const local = d.local.sessionOptions(profile)
    const next = await ProfileSession.open({
      profile,
      ...(local.notice !== undefined && { notice: local.notice }),
      clientSecret: local.withoutClient ? undefined : await profiles.secretOf(profile.id),
      ...(local.noClientReason !== undefined && { noClientReason: local.noClientReason }),
      ...d.plan.sessionStart(local.serviceReady),
      dataDir: d.dataDir,
      secrets: d.secrets,
      emit: (event, payload) => {
        if (ACTIVE_ONLY_EVENTS.has(event) && !isActive()) return
        d.emit(event, payload)
      },
      notify: (n) => {
        try {
          // A profile left behind says whose notification it is; clicking it switches to that profile first.
          const name = profiles.all().find((p) => p.id === id)?.name ?? id
          d.notify({ ...n, profileId: id, ...(!isActive() && { title: `${name}: ${lowerFirst(n.title)}` }) })
        } catch {
          d.log('notification failed')
        }
      },
      log: d.log,
      reportDamage: d.reportDamage,
      ...(d.clock !== undefined && { clock: d.clock }),
      scheduler: { ...this.looking },
      ...(d.clientOptions !== undefined && { clientOptions: d.clientOptions }),
      ...(d.autoSync !== undefined && { autoSync: d.autoSync }),
      cache
    })
    if (isActive()) d.emit('sync.status', next.syncStatus())
    return next
  }

  /** Closes the sessions of profiles that are no longer active. */
  reconcile(): Promise<void> {
    return this.serial(async () => {
      const active = this.d.profiles.activeProfileId
      for (const [id, s] of [...this.running]) {
        if (id === active) continue
        this.running.delete(id)
        await s.close().catch(() => this.d.log('closing a profile session failed'))
      }
    })
  }

  /** The session of the active profile, opened on first use. */
  active(): Promise<ProfileSession> {
    return this.serial(async () => {
      if (this.closed) throw new AppError('INTERNAL', 'Paydesk is shutting down.')
      const id = this.d.profiles.activeProfileId
      let s = this.running.get(id)
      if (!s) {
        s = await this.open(id)
        this.running.set(id, s)
      }
      return s
    })
  }

  /** Closes one profile's session (before a removal or new credentials); the next call opens a fresh one. */
  close(id: string): Promise<void> {
    return this.serial(async () => {
      const s = this.running.get(id)
      this.running.delete(id)
      await s?.close()
    })
  }

  /** After a switch or a removal: the profile left behind closes, the active one opens. */
  settle(): void {
    void this.reconcile().catch(() => {})
    void this.active().catch(() => {})
  }

  /** New credentials or a new address for a profile: close its session and open a fresh one if it needs one. */
  async restart(id: string): Promise<void> {
    await this.close(id)
    this.settle()
  }

  /** Restarts a profile's session only when one is running (the Local sandbox came up late or stopped). */
  restartIfRunning(id: string): void {
    // restart queues itself (close is serial): queuing it inside `serial` too would wait on itself.
    if (this.running.has(id) && !this.closed) void this.restart(id).catch(() => {})
  }

  /** Whether a person is looking, and whether the machine sleeps: every session's polling follows. */
  setLooking(patch: Pick<SchedulerState, 'foreground'> | Pick<SchedulerState, 'suspended'>): void {
    Object.assign(this.looking, patch)
    for (const s of this.running.values()) s.setScheduler(patch)
  }

  async closeAll(): Promise<void> {
    this.closed = true
    await this.serial(async () => {
      const all = [...this.running.values()]
      this.running.clear()
      await Promise.all(all.map((s) => s.close().catch(() => {})))
    })
  }
}

function lowerFirst(s: string): string {
  return /^[A-Z][a-z]/.test(s) ? s[0]!.toLowerCase() + s.slice(1) : s
}
