import { useState } from 'react'
import type { ConnectionReport } from '../../../shared/ipc/channels/app'
import type { IpcError } from '../../../shared/ipc/define'
import type { ProfileView } from '../../../shared/profile'
import { paydesk } from '../bridge/paydesk'
import { formatClock } from '../format/time'

/** Calls the service through main with the active profile and shows exactly what came back. */
export function ConnectionPanel({ profile }: { profile: ProfileView }) {
  const [report, setReport] = useState<ConnectionReport | null>(null)
  const [error, setError] = useState<IpcError | null>(null)
  const [busy, setBusy] = useState(false)

  const test = async () => {
    setBusy(true)
    const result = await paydesk.invoke('connection.test', { profileId: profile.id })
    setBusy(false)
    if (result.ok) {
      setReport(result.value)
      setError(null)
    } else {
      setError(result.error)
      setReport(null)
    }
  }

  return (
    <div className="panel" data-testid="connection-panel">
      <div className="panel-head">
        <h2>Connection</h2>
        <button onClick={() => void test()} disabled={busy}>
          {busy ? 'Testing…' : 'Test connection'}
        </button>
      </div>
      <dl className="facts">
        <dt>Profile</dt>
        <dd>{profile.name}</dd>
        <dt>Base URL</dt>
        <dd className="mono">{profile.baseUrl}</dd>
        <dt>API token id</dt>
        <dd className="mono">{profile.tokenId || '—'}</dd>
        <dt>Client secret</dt>
        <dd>{profile.hasSecret ? 'Stored in the OS keychain' : 'Not set'}</dd>
      </dl>
      {report && (
        <p
          className={report.ok ? 'result result-ok' : 'result result-bad'}
          role="status"
          data-testid="connection-result"
        >
          {report.ok ? '✓ ' : '✗ '}
          {report.message}
          {report.serviceCode && <code className="code">{report.serviceCode}</code>}
          <span className="muted"> · checked {formatClock(report.checkedAt)}</span>
        </p>
      )}
      {error && (
        <p className="result result-bad" role="alert" data-testid="connection-result">
          ✗ {error.message} <code className="code">{error.code}</code>
        </p>
      )}
    </div>
  )
}
