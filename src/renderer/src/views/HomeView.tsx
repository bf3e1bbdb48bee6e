import type { ProfileView } from '../../../shared/profile'
import { usePendingApprovals } from '../stores/badges'
import { useUi } from '../stores/ui'
import { useChannelQuery } from '../data/channel-query'
import { Freshness, NeverSynced } from '../ui/view-states'
import { ConnectionPanel } from './ConnectionPanel'
import { TRANSACTION_COLUMNS, unheaded } from './transactions/transaction-columns'
import { BALANCE_COLUMNS } from './internal-accounts/balance-columns'
import { LoadedTable } from '../ui/DataTable'
import { idOf } from '../ui/WindowedTable'
import type { Transaction } from '../../../shared/api'

const { status, type, amount, created, id } = TRANSACTION_COLUMNS
const LATEST_COLUMNS = unheaded<Transaction>([status, type, amount, created, id])

/** The operator's morning glance: what needs them, what the platform holds, what moved last. */
export function HomeView({ profile }: { profile: ProfileView | undefined }) {
  const pending = usePendingApprovals()
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
              <strong>{pending}</strong> incoming payment{pending === 1 ? '' : 's'} the approval gate is holding for
              you.{' '}
              <button className="primary" onClick={() => go('approvals')}>
                Review approvals
              </button>
            </p>
          ) : (
            <p className="muted">The approval gate is holding nothing for you.</p>
          )}
        </div>
        <div className="panel" data-testid="home-balances">
          <div className="panel-head">
            <h2>Platform balances</h2>
            <Freshness syncedAt={balances.data?.syncedAt ?? null} />
          </div>
          <LoadedTable
            label="Platform balances"
            columns={BALANCE_COLUMNS}
            rowKey={idOf}
            rows={balances.data?.rows}
            error={balances.error}
            reload={balances.reload}
            loadingLabel="platform balances"
            empty={
              balances.data?.syncedAt ? <p className="muted">No platform internal accounts yet.</p> : <NeverSynced />
            }
          />
        </div>
      </div>
      <div className="panel">
        <div className="panel-head">
          <h2>Latest transactions</h2>
          <button onClick={() => go('transactions')}>All transactions</button>
        </div>
        <LoadedTable
          label="Latest transactions"
          columns={LATEST_COLUMNS}
          rowKey={idOf}
          rows={recent.data?.rows}
          error={recent.error}
          reload={recent.reload}
          onOpen={(t) => go('transactions', t.id)}
          loadingLabel="latest transactions"
          empty={recent.data?.syncedAt ? <p className="muted">No transactions yet.</p> : <NeverSynced />}
        />
      </div>
      <ConnectionPanel profile={profile} />
    </section>
  )
}
