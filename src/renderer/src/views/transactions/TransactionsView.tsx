import { useMemo, useRef, useState } from 'react'
import type { Transaction } from '../../../../shared/api'
import type { TransactionsQueryInput } from '../../../../shared/ipc/channels/data'
import { useUi } from '../../stores/ui'
import { Id, Money, StatusChip, Time } from '../../ui/atoms'
import { useListState } from '../../ui/list-state'
import { SearchBox } from '../../ui/SearchBox'
import { transactionTone } from '../../ui/status'
import { EmptyState } from '../../ui/view-states'
import { WindowedList } from '../../ui/WindowedList'
import { idOf, type Column } from '../../ui/WindowedTable'
import { useWindowQuery } from '../../data/window-query'
import { useWindowGeneration } from '../../data/window-generations'
import { headlineAmount } from './amount'
import { ExportButton } from './ExportButton'
import { TransactionDetail } from './TransactionDetail'
import { WorkbenchFilters } from './WorkbenchFilters'
import { WORKBENCH_DEFAULTS, workbenchQuery } from './workbench-filters'
import './workbench.css'

const columns: Column<Transaction>[] = [
  {
    key: 'status',
    header: 'Status',
    width: '130px',
    render: (t) => <StatusChip value={t.status} tone={transactionTone(t.status, t.type)} />
  },
  {
    key: 'type',
    header: 'Type',
    width: '90px',
    render: (t) => (t.type === 'INCOMING' ? '↓ In' : t.type === 'OUTGOING' ? '↑ Out' : t.type)
  },
  {
    key: 'amount',
    header: 'Amount',
    numeric: true,
    render: (t) => {
      const amount = headlineAmount(t)
      return amount ? (
        <Money amount={amount.amount} currency={amount.currency} showCode />
      ) : (
        <span className="muted">—</span>
      )
    }
  },
  {
    key: 'customer',
    header: 'Customer',
    render: (t) => <Id value={'customerId' in t ? (t.customerId as string) : undefined} />
  },
  {
    key: 'created',
    header: 'Created',
    render: (t) => <Time iso={'createdAt' in t ? (t.createdAt as string | undefined) : undefined} />
  },
  { key: 'id', header: 'Transaction', render: (t) => <Id value={t.id} /> }
]

export function TransactionsView() {
  const focusId = useUi((s) => s.focusId)
  const list = useListState('transactions', WORKBENCH_DEFAULTS)
  const filterRef = useRef<HTMLInputElement>(null)
  const detailRef = useRef<HTMLElement>(null)

  // Arriving with a transaction id (Home's latest list, a notification) opens it.
  const [seenFocusId, setSeenFocusId] = useState<string | null>(null)
  if (focusId !== seenFocusId) {
    setSeenFocusId(focusId)
    if (focusId?.startsWith('Transaction:')) list.select(focusId)
  }

  // A preset ("last 7 days") is relative to now: it is re-read whenever the data or the filters change.
  const generation = useWindowGeneration('transactions.query')
  const { filter, sort, errors } = useMemo(() => workbenchQuery(list.filters), [list.filters, generation]) // eslint-disable-line react-hooks/exhaustive-deps
  const input = useMemo<Omit<TransactionsQueryInput, 'offset' | 'limit'>>(() => ({ filter, sort }), [filter, sort])
  const query = useWindowQuery('transactions.query', input, list.initialScrollTop)
  const filtered = Object.keys(filter).length > 0

  return (
    <section className="page" aria-labelledby="transactions-title">
      <h1 id="transactions-title">Transactions</h1>
      <div className="list-detail">
        <div className="list-pane">
          <div className="filters" role="search">
            <SearchBox
              ref={filterRef}
              label="Filter transactions"
              placeholder="Id, customer, description, reference…  ( / )"
              value={list.filters.search}
              onChange={(v) => list.setFilter('search', v)}
            />
            <ExportButton filter={filter} sort={sort} disabled={Object.keys(errors).length > 0} />
          </div>
          <WorkbenchFilters filters={list.filters} set={list.setFilter} errors={errors} />
          <WindowedList
            label="Transactions"
            noun="transactions"
            state={list}
            filterRef={filterRef}
            query={query}
            columns={columns}
            rowId={idOf}
            detailRef={detailRef}
            filtered={filtered}
            noMatch="No transaction matches these filters."
            empty={
              <EmptyState title="No transactions yet.">
                Payments you send or receive appear here as soon as the service reports them.
              </EmptyState>
            }
          />
        </div>
        <aside className="detail-pane" aria-label="Transaction detail" ref={detailRef} tabIndex={-1}>
          {list.selectedId ? (
            <TransactionDetail id={list.selectedId} onClose={() => list.select(null)} />
          ) : (
            <p className="muted">Select a transaction to see its details. j/k move, Enter opens, Esc closes.</p>
          )}
        </aside>
      </div>
    </section>
  )
}
