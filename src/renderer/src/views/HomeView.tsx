import { lazy, Suspense } from 'react'
import type { ProfileView } from '../../../shared/profile'
import { currentTimeZone, formatClock } from '../format/time'
import { useListMemory } from '../stores/list-memory'
import { usePendingApprovals } from '../data/pending-approvals'
import { useUi } from '../stores/ui'
import { useChannelQuery } from '../data/channel-query'
import { Freshness, NeverSynced } from '../ui/view-states'
import { ConnectionPanel } from './ConnectionPanel'
import { TRANSACTION_COLUMNS, unheaded } from './transactions/transaction-columns'
import { BALANCE_COLUMNS } from './internal-accounts/balance-columns'
import { LoadedTable } from '../ui/DataTable'
import type { Transaction } from '../../../shared/api'
import { ErrorNotice } from '../ui/atoms'

// The charts and uPlot are a chunk of their own, fetched once Home has painted: start-up does not wait for them.
const HomeCharts = lazy(() => import('./home/HomeCharts'))

const { status, type, amount, created, id } = TRANSACTION_COLUMNS
const LATEST_COLUMNS = unheaded<Transaction>([status, type, amount, created, id])

/** The zone times are shown in (Settings): Home's days are cut there too. */
function chosenZone(): string {
  return currentTimeZone() === 'utc' ? 'UTC' : Intl.DateTimeFormat().resolvedOptions().timeZone
}

/** The operator's morning glance: what needs them, what the platform holds, what moved last. */
export function HomeView({ profile }: { profile: ProfileView | undefined }) {
  const pending = usePendingApprovals()
  const go = useUi((s) => s.go)
  const balances = useChannelQuery('internalAccounts.list', { scope: 'platform' }, { enabled: !!profile })
  const figures = useChannelQuery('home.figures', { timeZone: chosenZone() }, { enabled: !!profile })
  const prompts = useChannelQuery('gate.prompts', null, { enabled: !!profile })
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
          <Counts
            failed={figures.data?.failed}
            deadlines={prompts.data?.prompts.map((p) => p.fallbackAt) ?? []}
            fallback={prompts.data?.prompts[0]?.fallback}
            showFailed={() => {
              // The Transactions list opens on the same filter the count was made with: FAILED, last 30 days (its other
              // filters are its defaults). Named here, not imported: the workbench's module would join the first chunk.
              useListMemory.getState().save('transactions', {
                filters: { status: 'FAILED', datePreset: '30d' },
                scrollTop: 0,
                selectedId: null
              })
              go('transactions')
            }}
            showApprovals={() => go('approvals')}
          />
        </div>
        <div className="panel" data-testid="home-balances">
          <div className="panel-head">
            <h2>Platform balances</h2>
            <Freshness syncedAt={balances.data?.syncedAt ?? null} />
          </div>
          <LoadedTable
            label="Platform balances"
            columns={BALANCE_COLUMNS}
            read={balances}
            loadingLabel="platform balances"
            empty={
              balances.data?.syncedAt ? <p className="muted">No platform internal accounts yet.</p> : <NeverSynced />
            }
          />
        </div>
      </div>
      {figures.error && !figures.data ? (
        <ErrorNotice error={figures.error} onRetry={figures.reload} />
      ) : figures.data ? (
        <Suspense fallback={<div className="skeleton-rows" aria-busy="true" />}>
          <HomeCharts figures={figures.data} />
        </Suspense>
      ) : (
        <div className="skeleton-rows" aria-busy="true" />
      )}
      <div className="panel">
        <div className="panel-head">
          <h2>Latest transactions</h2>
          <button onClick={() => go('transactions')}>All transactions</button>
        </div>
        <LoadedTable
          label="Latest transactions"
          columns={LATEST_COLUMNS}
          read={recent}
          onOpen={(t) => go('transactions', t.id)}
          loadingLabel="latest transactions"
          empty={recent.data?.syncedAt ? <p className="muted">No transactions yet.</p> : <NeverSynced />}
        />
      </div>
      <ConnectionPanel profile={profile} />
    </section>
  )
}

/** What went wrong lately and what is about to run out, each a link to the list that shows it. */
function Counts(props: {
  failed: number | undefined
  deadlines: string[]
  fallback: 'approve' | 'reject' | undefined
  showFailed: () => void
  showApprovals: () => void
}) {
  const first = [...props.deadlines].sort()[0]
  return (
    <div className="home-counts" data-testid="home-counts">
      {props.failed !== undefined && (
        <button className="link" onClick={props.showFailed} data-testid="home-failed">
          {props.failed} failed payment{props.failed === 1 ? '' : 's'} in the last 30 days
        </button>
      )}
      {first && (
        <button className="link" onClick={props.showApprovals} data-testid="home-expiring">
          {props.deadlines.length} approval{props.deadlines.length === 1 ? '' : 's'} waiting; the first{' '}
          {props.fallback === 'approve' ? 'is approved' : 'is rejected'} by its rule at {formatClock(first)}
        </button>
      )}
    </div>
  )
}
