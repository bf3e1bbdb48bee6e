import type { ProfileView } from '../../../shared/profile'
import { useProfiles } from '../stores/profiles'
import { useSync } from '../stores/sync'
import { useUi } from '../stores/ui'
import { formatClock } from '../format/time'

const ENVIRONMENT_LABEL = { local: 'Local sandbox', sandbox: 'Sandbox', production: 'PRODUCTION' } as const

export function TopBar({ profile }: { profile: ProfileView | undefined }) {
  const list = useProfiles((s) => s.list)
  const switchTo = useProfiles((s) => s.switchTo)
  const openPalette = useUi((s) => s.setPaletteOpen)
  return (
    <header className="topbar">
      <div className="brand">Paydesk</div>
      <div className="profile-bar" data-testid="profile-bar">
        <label className="visually-hidden" htmlFor="profile-select">
          Active profile
        </label>
        <select
          id="profile-select"
          value={list?.activeProfileId ?? ''}
          onChange={(e) => void switchTo(e.target.value)}
          disabled={!list}
        >
          {list?.profiles.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
        {profile && (
          <span className={`env-chip env-chip-${profile.environment}`} data-testid="environment-chip">
            {ENVIRONMENT_LABEL[profile.environment]}
          </span>
        )}
      </div>
      <SyncIndicator />
      <button className="palette-trigger" onClick={() => openPalette(true)}>
        Search or jump to… <kbd>Ctrl K</kbd>
      </button>
    </header>
  )
}

function SyncIndicator() {
  const { status, offlineSince, lastSyncedAt, message, progress } = useSync()
  const text =
    status === 'live'
      ? 'Live'
      : status === 'syncing'
        ? progress
          ? `Syncing history: ${progress.done.toLocaleString()} of ${progress.total.toLocaleString()}`
          : 'Syncing'
        : status === 'offline'
          ? `Offline${offlineSince ? ` since ${formatClock(offlineSince)}` : ''}`
          : status === 'error'
            ? 'Sync problem'
            : status === 'paused'
              ? 'Paused'
              : 'Not synced yet'
  return (
    <div
      className={`sync sync-${status}`}
      role="status"
      title={message ?? (lastSyncedAt ? `Last synced ${lastSyncedAt}` : undefined)}
    >
      <span className="sync-dot" aria-hidden /> {text}
    </div>
  )
}
