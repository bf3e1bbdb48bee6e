import type { ConnectionReport } from '../../../shared/ipc/channels/app'
import type { ProfileView } from '../../../shared/profile'
import { useChannelMutation } from '../data/channel-query'
import { formatClock } from '../format/time'

/** Calls the service through main with the active profile and shows exactly what came back. */
export function ConnectionPanel({ profile }: { profile: ProfileView }) {
  // A test of the connection is an action the operator asks for, not data to keep: the last answer is shown.
  const testing = useChannelMutation('connection.test')
  const { busy, error } = testing
  const report: ConnectionReport | null = testing.last?.ok ? testing.last.value : null
  const test = () => void testing.run({ profileId: profile.id })

  return (
    <div className="panel" data-testid="connection-panel">
      <div className="panel-head">
        <h2>Connection</h2>
        <button onClick={test} disabled={busy}>
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
