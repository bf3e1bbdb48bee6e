import { Id, Money, Time } from '../../ui/atoms'
import { KNOWN_DECIMALS } from '../../../../shared/format/money'
import { useChannelQuery } from '../../data/channel-query'
import type { ChannelOutput } from '../../../../shared/ipc/contract'
import { LoadedTable, type TableColumn } from '../../ui/DataTable'

const OUTCOME_TEXT = {
  approved: 'Approved',
  'left-for-operator': 'Left for you',
  failed: 'Approve call failed'
} as const

type Decision = ChannelOutput<'approvals.decisions'>['decisions'][number]

const COLUMNS: TableColumn<Decision>[] = [
  { key: 'when', header: 'When', render: (d) => <Time iso={d.decidedAt} /> },
  {
    key: 'outcome',
    header: 'Outcome',
    render: (d) => (
      <span className={`chip chip-${d.outcome === 'approved' ? 'good' : d.outcome === 'failed' ? 'bad' : 'needs-you'}`}>
        {OUTCOME_TEXT[d.outcome]}
      </span>
    )
  },
  {
    key: 'amount',
    header: 'Amount',
    numeric: true,
    render: (d) => (
      <Money amount={d.amount} currency={{ code: d.currency, decimals: KNOWN_DECIMALS[d.currency] }} showCode />
    )
  },
  { key: 'sender', header: 'Sender', className: 'mono', render: (d) => d.sender ?? '—' },
  { key: 'payment', header: 'Payment', render: (d) => <Id value={d.transactionId} /> },
  {
    key: 'why',
    header: 'Why',
    className: 'wrap',
    render: (d) => (
      <>
        {d.reasons.join(' · ')}
        {d.error && <span className="field-error"> {d.error}</span>}
      </>
    )
  },
  { key: 'took', header: 'Took', numeric: true, render: (d) => `${Math.round(d.latencyMs)} ms` }
]

/** Every automatic decision, with the reason for each rule, so nothing is decided behind the operator's back. */
export function DecisionsLog() {
  const query = useChannelQuery('approvals.decisions', { limit: 200 })
  return (
    <LoadedTable
      label="Automatic decisions"
      columns={COLUMNS}
      rowKey={(d) => d.id}
      rows={query.data?.decisions}
      error={query.error}
      reload={query.reload}
      loadingLabel="automatic decisions"
      empty={
        <div className="state">
          <p>No automatic decisions yet. When approval rules are on, each one is recorded here.</p>
        </div>
      }
    />
  )
}
