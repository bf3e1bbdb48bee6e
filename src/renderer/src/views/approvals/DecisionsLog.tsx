import { ErrorNotice, Id, Money, Time } from '../../ui/atoms'
import { KNOWN_DECIMALS } from '../../../../shared/format/money'
import { useChannelQuery } from '../../data/channel-query'

const OUTCOME_TEXT = {
  approved: 'Approved',
  'left-for-operator': 'Left for you',
  failed: 'Approve call failed'
} as const

/** Every automatic decision, with the reason for each rule, so nothing is decided behind the operator's back. */
export function DecisionsLog() {
  const query = useChannelQuery('approvals.decisions', { limit: 200 })
  if (query.error && !query.data) return <ErrorNotice error={query.error} onRetry={query.reload} />
  if (!query.data) return <div className="skeleton-rows" aria-busy="true" />
  const decisions = query.data.decisions
  if (decisions.length === 0) {
    return (
      <div className="state">
        <p>No automatic decisions yet. When approval rules are on, each one is recorded here.</p>
      </div>
    )
  }
  return (
    <table className="table" aria-label="Automatic decisions">
      <thead>
        <tr>
          <th>When</th>
          <th>Outcome</th>
          <th className="num">Amount</th>
          <th>Sender</th>
          <th>Payment</th>
          <th>Why</th>
          <th className="num">Took</th>
        </tr>
      </thead>
      <tbody>
        {decisions.map((d) => (
          <tr key={d.id}>
            <td>
              <Time iso={d.decidedAt} />
            </td>
            <td>
              <span
                className={`chip chip-${d.outcome === 'approved' ? 'good' : d.outcome === 'failed' ? 'bad' : 'needs-you'}`}
              >
                {OUTCOME_TEXT[d.outcome]}
              </span>
            </td>
            <td className="num">
              <Money amount={d.amount} currency={{ code: d.currency, decimals: KNOWN_DECIMALS[d.currency] }} showCode />
            </td>
            <td className="mono">{d.sender ?? '—'}</td>
            <td>
              <Id value={d.transactionId} />
            </td>
            <td className="wrap">
              {d.reasons.join(' · ')}
              {d.error && <span className="field-error"> {d.error}</span>}
            </td>
            <td className="num">{Math.round(d.latencyMs)} ms</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
