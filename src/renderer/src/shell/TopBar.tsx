import type { ProfileView } from '../../../shared/profile'
import { useProfiles } from '../stores/profiles'
import { useState } from 'react'
import { paydesk } from '../bridge/paydesk'
import { connectionLabel, useSync } from '../stores/sync'
import { useUi } from '../stores/ui'
import { formatClock } from '../format/time'
import { useNow } from '../ui/view-states'

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

/**
 * The connection, exactly one state (main decides it, with hysteresis), and a history's progress beside it while a
 * long history is read. A stopped Local sandbox offers Restart, which starts its process and session again.
 */
function SyncIndicator() {
  const { connection, progress, message } = useSync()
  const ticking = connection?.state === 'notResponding'
  const now = useNow(ticking ? 1_000 : 60_000)
  const [restarting, setRestarting] = useState(false)
  const [restartError, setRestartError] = useState<string | null>(null)
  const restart = async () => {
    setRestarting(true)
    setRestartError(null)
    const result = await paydesk.invoke('sync.restartLocalSandbox', null)
    setRestarting(false)
    // On success the re-opened session's own status events say Connecting…, then Live.
    if (!result.ok) setRestartError(result.error.message)
  }
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
          <button className="sync-restart" onClick={() => void restart()} disabled={restarting}>
            {restarting ? 'Restarting…' : 'Restart'}
          </button>
        </>
      )}
      {restartError && (
        <span className="sync-error-text" role="alert">
          {restartError}
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
