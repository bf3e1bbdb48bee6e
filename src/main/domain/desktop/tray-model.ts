/**
 * What the tray and the dock/taskbar badge show, computed from the watched profiles alone so it is tested without
 * Electron. The Electron adapter turns `items` into a native menu one to one.
 */

/** One profile as the tray sees it. */
interface WatchedProfile {
  id: string
  name: string
  /** Its approval gate is followed and its prompts counted (the link is not `none`). */
  watched: boolean
  /** Payments its gate is holding for a person, as last counted; 0 when it has no gate. */
  pending: number
  /** It has a platform's approval gate (not Paydesk's own Local one): closing the window keeps Paydesk in the tray. */
  followsGate: boolean
}

export interface DesktopSnapshot {
  activeProfileId: string
  profiles: WatchedProfile[]
}

export type TrayItem =
  | { kind: 'open'; label: string }
  | { kind: 'approvals'; label: string; enabled: boolean }
  | { kind: 'separator' }
  | { kind: 'profile'; profileId: string; label: string; checked: boolean }
  | { kind: 'quit'; label: string }

interface TrayModel {
  /** Payments waiting across watched profiles: what the badge shows. */
  total: number
  tooltip: string
  items: TrayItem[]
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`
}

export function trayModel(snapshot: DesktopSnapshot): TrayModel {
  const watched = snapshot.profiles.filter((p) => p.watched)
  const total = watched.reduce((sum, p) => sum + Math.max(0, p.pending), 0)
  const waiting = watched.filter((p) => p.pending > 0)
  const tooltip =
    total === 0
      ? 'Paydesk: no payments awaiting approval'
      : `Paydesk: ${plural(total, 'payment', 'payments')} awaiting approval` +
        (watched.length > 1 ? ` (${waiting.map((p) => `${p.name} ${p.pending}`).join(', ')})` : '')
  return {
    total,
    tooltip,
    items: [
      { kind: 'open', label: 'Open Paydesk' },
      { kind: 'approvals', label: `Approvals (${total})`, enabled: true },
      { kind: 'separator' },
      ...snapshot.profiles.map(
        (p): TrayItem => ({
          kind: 'profile',
          profileId: p.id,
          label: p.watched && p.pending > 0 ? `${p.name} (${p.pending})` : p.name,
          checked: p.id === snapshot.activeProfileId
        })
      ),
      { kind: 'separator' },
      { kind: 'quit', label: 'Quit Paydesk' }
    ]
  }
}

/** The approvals view to open from the tray: the active profile's when it has some, else the first one that does. */
export function approvalsTarget(snapshot: DesktopSnapshot): string {
  const active = snapshot.profiles.find((p) => p.id === snapshot.activeProfileId)
  if (active && active.pending > 0) return active.id
  return snapshot.profiles.find((p) => p.watched && p.pending > 0)?.id ?? snapshot.activeProfileId
}
