import type { ProfileView } from '../../../shared/profile'
import { switchProfile, useProfileList } from '../data/profiles'
import { useChannelMutation } from '../data/channel-query'
import { connectionLabel, useSync } from '../data/sync'
import { useUi } from '../stores/ui'
import { formatClock } from '../format/time'
import { useNow } from '../ui/view-states'

const ENVIRONMENT_LABEL = { local: 'Local sandbox', sandbox: 'Sandbox', production: 'PRODUCTION' } as const

export function TopBar({ profile }: { profile: ProfileView | undefined }) {
  const { list } = useProfileList()
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
          onChange={(e) => void switchProfile(e.target.value)}
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

/**
 * The connection, exactly one state (main decides it, with hysteresis), and a history's progress beside it while a
 * long history is read. A stopped Local sandbox offers Restart, which starts its process and session again.
 */
function SyncIndicator() {
  const { connection, progress, message } = useSync()
  const ticking = connection?.state === 'notResponding'
  const now = useNow(ticking ? 1_000 : 60_000)
  // On success the re-opened session's own status events say Connecting…, then Live.
  const restarting = useChannelMutation('sync.restartLocalSandbox')
  const restart = () => void restarting.run(null)
  const state = connection?.state ?? 'connecting'
  const text = connection ? connectionLabel(connection, now, formatClock) : 'Connecting…'
  return (
    <div className={`sync sync-${state}`} data-testid="connection-state">
      <span className="sync-state" role="status" title={connection?.detail ?? message ?? undefined}>
        <span className="sync-dot" aria-hidden />
        {text}
      </span>
      {state === 'sandboxStopped' && (
        <>
          <span aria-hidden> — </span>
          <button className="sync-restart" onClick={restart} disabled={restarting.busy}>
            {restarting.busy ? 'Restarting…' : 'Restart'}
          </button>
        </>
      )}
      {restarting.error && (
        <span className="sync-error-text" role="alert">
          {restarting.error.message}
        </span>
      )}
      {progress && state !== 'sandboxStopped' && (
        <span className="sync-progress muted">
          Syncing history: {progress.done.toLocaleString()} of {progress.total.toLocaleString()}
        </span>
      )}
    </div>
  )
}
