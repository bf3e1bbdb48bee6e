import { useState } from 'react'
import type { GateEvent } from '../../../../shared/gate'
import { useChannelQuery } from '../../data/channel-query'
import { ErrorNotice, Id, Money, Time } from '../../ui/atoms'
import { DataTable, type TableColumn } from '../../ui/DataTable'
import { EmptyState, SkeletonRows } from '../../ui/view-states'
import { amountsByTransaction, describeActor, describeEvent, type EventLine } from './gate-text'

const PAGE = 100
type Row = { event: GateEvent; line: EventLine }

const OUTCOME_TONE = { approved: 'good', rejected: 'bad', unprocessable: 'bad' } as const

const COLUMNS: TableColumn<Row>[] = [
  { key: 'when', header: 'When', render: (r) => <Time iso={r.event.at} /> },
  {
    key: 'what',
    header: 'What',
    render: (r) =>
      r.line.outcome ? <span className={`chip chip-${OUTCOME_TONE[r.line.outcome]}`}>{r.line.what}</span> : r.line.what
  },
  { key: 'who', header: 'Who or what', render: (r) => describeActor(r.event.actor) },
  {
    key: 'amount',
    header: 'Amount',
    numeric: true,
    render: (r) =>
      r.line.amount ? (
        <Money
          amount={r.line.amount.amount}
          currency={{ code: r.line.amount.code, decimals: r.line.amount.decimals }}
          showCode
        />
      ) : (
        <span className="muted">—</span>
      )
  },
  { key: 'why', header: 'Why', className: 'why', render: (r) => r.line.detail || <span className="muted">—</span> },
  { key: 'payment', header: 'Payment', render: (r) => <Id value={r.line.transactionId} /> }
]

/**
 * One page of the log (the newest, or the entries before a seq), then the older pages asked for: each is read before
 * the oldest entry of the page above as it is now, so entries pushed down by new ones are never skipped.
 */
export function LogPage(props: { before: number | undefined; older: number; onMore(): void }) {
  const { before, older } = props
  const page = useChannelQuery('gate.log', before === undefined ? { limit: PAGE } : { before, limit: PAGE })
  const events = page.data?.events
  if (!events)
    return page.error ? <ErrorNotice error={page.error} onRetry={page.reload} /> : <SkeletonRows label="decisions" />
  const amounts = amountsByTransaction(events)
  const rows = events.map((event) => ({ event, line: describeEvent(event, amounts) }))
  const oldest = events.length === PAGE ? (events[events.length - 1]?.seq ?? null) : null
  return (
    <>
      <DataTable
        label="Decisions"
        variant="decisions"
        columns={COLUMNS}
        rowKey={(r) => String(r.event.seq)}
        rows={rows}
      />
      {oldest !== null &&
        (older > 0 ? (
          <LogPage before={oldest} older={older - 1} onMore={props.onMore} />
        ) : (
          <div className="row">
            <button onClick={props.onMore}>Older entries</button>
          </div>
        ))}
    </>
  )
}

/**
 * The gate's decision log, newest first: who or what decided each payment (a rule, a pre-approval, an operator, the
 * fallback) and why, the webhooks received, rule changes and the rest. Older pages load on request with `before`.
 */
export function DecisionLog() {
  const first = useChannelQuery('gate.log', { limit: PAGE })
  const [older, setOlder] = useState(0)
  if (first.data && first.data.events.length === 0) {
    return (
      <EmptyState title="The gate has logged nothing yet.">
        Webhooks, decisions and rule changes appear here as they happen.
      </EmptyState>
    )
  }
  return (
    <div className="panel" data-testid="decision-log">
      <LogPage before={undefined} older={older} onMore={() => setOlder((n) => n + 1)} />
    </div>
  )
}
