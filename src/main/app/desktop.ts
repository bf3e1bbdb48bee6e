import { isUnresolvedTransfer } from '../../shared/ipc/channels/data'
import type { UpdateStatus } from '../../shared/ipc/channels/desktop'
import type { DesktopWindow } from '../handlers/desktop'
import type { SecretStore } from '../infra/keychain'
import type { ReportDamage } from '../domain/notices'
import { unresolvedTransfersOnDisk } from '../domain/profile-data'
import type { ProfileStore } from '../domain/profiles'
import type { GateLinks } from '../domain/gate/gate-links'
import type { ProfileSession } from '../domain/profile-session'
import { AppSettings } from '../domain/desktop/app-settings'
import type { DesktopSnapshot } from '../domain/desktop/tray-model'
import { UpdateService, type UpdaterDriver } from '../domain/desktop/updates'

/** What the desktop host (Electron) lends the backend: its window (handlers/desktop.ts) and its updater. */
export interface DesktopHost extends DesktopWindow {
  updater?: UpdaterDriver
}

/** The backend's state as the tray, the close policy and the update policy read it. */
export interface DesktopView {
  snapshot(): DesktopSnapshot
  /** Why a restart now could lose track of money: one sentence each; empty when nothing is in flight. */
  moneyInFlight(): Promise<string[]>
  settings: AppSettings
  updates: UpdateService
}

interface Deps {
  dataDir: string
  host: DesktopHost | undefined
  profiles: ProfileStore
  sessions: ReadonlyMap<string, ProfileSession>
  /** Every profile's approval gate: its link and the prompts it holds. */
  gates: Pick<GateLinks, 'link' | 'openPrompts'>
  secrets: SecretStore
  emit: (event: 'updates.status', status: UpdateStatus) => void
  log: (m: string) => void
  /** Damaged app settings, or a damaged journal read for money in flight, are told to the operator (a notice). */
  reportDamage?: ReportDamage
}

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`
}

/** Composes the desktop services over the backend's profiles and sessions (their channels: handlers/desktop.ts). */
export async function createDesktop(d: Deps): Promise<DesktopView> {
  const settings = await AppSettings.open(d.dataDir, d.log, d.reportDamage)
  const nameOf = (id: string) => d.profiles.all().find((p) => p.id === id)?.name ?? id

  const moneyInFlight = async (): Promise<string[]> => {
    // Profiles without a running session can only hold transfers of unknown outcome, read from their journals first;
    // the running sessions are read last, with no await after, so nothing starts between this answer and its use.
    const onDisk: string[] = []
    for (const p of d.profiles.all()) {
      if (d.sessions.has(p.id)) continue
      const unknown = await unresolvedTransfersOnDisk(d, p).catch(() => [])
      if (unknown.length) onDisk.push(`${plural(unknown.length, 'transfer')} of unknown outcome in “${p.name}”`)
    }
    const live: string[] = []
    for (const [id, s] of d.sessions) {
      const unknown = s.transfers.records().records.filter(isUnresolvedTransfer).length
      if (s.transfers.sendingNow > 0)
        live.push(`${plural(s.transfers.sendingNow, 'transfer')} being sent in “${nameOf(id)}”`)
      if (unknown > 0) live.push(`${plural(unknown, 'transfer')} of unknown outcome in “${nameOf(id)}”`)
    }
    return [...onDisk, ...live]
  }

  const updates = new UpdateService({
    settings: () => settings.updates,
    driver: d.host?.updater,
    moneyInFlight,
    onStatus: (status) => d.emit('updates.status', status),
    log: d.log
  })
  updates.applySettings()

  const view: DesktopView = {
    snapshot: () => ({
      activeProfileId: d.profiles.activeProfileId,
      profiles: d.profiles.all().map((p) => {
        const link = d.gates.link(p.id)
        const watched = link.state !== 'none'
        return {
          id: p.id,
          name: p.name,
          watched,
          pending: watched ? d.gates.openPrompts(p.id) : 0,
          // The Local gate is Paydesk's own and stops with it: only a platform's gate is worth staying in the tray for.
          followsGate: watched && !link.managed
        }
      })
    }),
    moneyInFlight,
    settings,
    updates
  }

  return view
}
