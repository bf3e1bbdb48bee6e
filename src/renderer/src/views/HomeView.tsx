import type { ProfileView } from '../../../shared/profile'
import { useBadges } from '../stores/badges'
import { useUi } from '../stores/ui'
import { Id, Money, StatusChip, Time } from '../ui/atoms'
import { useChannelQuery } from '../data/channel-query'
import { transactionTone } from '../ui/status'
import { Freshness } from '../ui/view-states'
import { ConnectionPanel } from './ConnectionPanel'
import { headlineAmount } from './transactions/amount'

/** The operator's morning glance: what needs them, what the platform holds, what moved last. */
export function HomeView({ profile }: { profile: ProfileView | undefined }) {
  const pending = useBadges((s) => s.pendingApprovals)
  const go = useUi((s) => s.go)
  const balances = useChannelQuery('internalAccounts.list', { scope: 'platform' }, { enabled: !!profile })
  const recent = useChannelQuery(
    'transactions.query',
    { filter: {}, sort: { field: 'createdAt', direction: 'desc' }, offset: 0, limit: 8 },
    { enabled: !!profile }
  )
  if (!profile) return <div className="skeleton-rows" aria-busy="true" />
  return (
    <section className="page" aria-labelledby="home-title">
      <h1 id="home-title">Home</h1>
      <div className="home-grid">
        <div className="panel" data-testid="home-approvals">
          <h2>Waiting for you</h2>
          {pending > 0 ? (
            <p>
              <strong>{pending}</strong> incoming payment{pending === 1 ? '' : 's'} waiting for approval.{' '}
              <button className="primary" onClick={() => go('approvals')}>
                Review approvals
              </button>
            </p>
          ) : (
            <p className="muted">Nothing is waiting for approval.</p>
          )}
        </div>
        <div className="panel" data-testid="home-balances">
          <div className="panel-head">
            <h2>Platform balances</h2>
            <Freshness syncedAt={balances.data?.syncedAt ?? null} />
          </div>
          {balances.data ? (
            balances.data.rows.length === 0 ? (
              <p className="muted">No platform internal accounts yet.</p>
            ) : (
              <table className="table" aria-label="Platform balances">
                <tbody>
                  {balances.data.rows.map((account) => (
                    <tr key={account.id}>
                      <td>
                        <Id value={account.id} />
                      </td>
                      <td className="num">
                        <Money amount={account.balance.amount} currency={account.balance.currency} showCode />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )
          ) : (
            <div className="skeleton-rows" aria-busy="true" />
          )}
        </div>
      </div>
      <div className="panel">
        <div className="panel-head">
          <h2>Latest transactions</h2>
          <button onClick={() => go('transactions')}>All transactions</button>
        </div>
        {recent.data ? (
          recent.data.rows.length === 0 ? (
            <p className="muted">No transactions yet.</p>
          ) : (
            <table className="table" aria-label="Latest transactions">
              <tbody>
                {recent.data.rows.map((t) => {
                  const amount = headlineAmount(t)
                  return (
                    <tr key={t.id} className="clickable" onClick={() => go('transactions', t.id)}>
                      <td>
                        <StatusChip value={t.status} tone={transactionTone(t.status, t.type)} />
                      </td>
                      <td>{t.type === 'INCOMING' ? '↓ In' : t.type === 'OUTGOING' ? '↑ Out' : t.type}</td>
                      <td className="num">
                        {amount ? <Money amount={amount.amount} currency={amount.currency} showCode /> : '—'}
                      </td>
                      <td>
                        <Time iso={'createdAt' in t ? (t.createdAt as string | undefined) : undefined} />
                      </td>
                      <td>
                        <Id value={t.id} />
                      </td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
          )
        ) : (
          <div className="skeleton-rows" aria-busy="true" />
        )}
      </div>
      <ConnectionPanel profile={profile} />
    </section>
  )
}
