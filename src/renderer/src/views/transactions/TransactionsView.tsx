import { useMemo, useRef, useState } from 'react'
import { TRANSACTION_STATUSES, type Transaction } from '../../../../shared/api'
import type { TransactionsQueryInput } from '../../../../shared/ipc/channels/data'
import { useDataVersion } from '../../stores/data-version'
import { useUi } from '../../stores/ui'
import { Id, Money, StatusChip, Time } from '../../ui/atoms'
import { useListState } from '../../ui/list-state'
import { SearchBox } from '../../ui/SearchBox'
import { transactionTone } from '../../ui/status'
import { EmptyState } from '../../ui/view-states'
import { WindowedList } from '../../ui/WindowedList'
import { idOf, type Column } from '../../ui/WindowedTable'
import { useWindowQuery } from '../../ui/window-query'
import { headlineAmount } from './amount'
import { TransactionDetail } from './TransactionDetail'

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
  const version = useDataVersion((s) => s.versions.transactions)
  const focusId = useUi((s) => s.focusId)
  const list = useListState('transactions', { search: '', status: '', type: '' })
  const filterRef = useRef<HTMLInputElement>(null)
  const detailRef = useRef<HTMLElement>(null)

  // Arriving with a transaction id (Home's latest list, a notification) opens it.
  const [seenFocusId, setSeenFocusId] = useState<string | null>(null)
  if (focusId !== seenFocusId) {
    setSeenFocusId(focusId)
    if (focusId?.startsWith('Transaction:')) list.select(focusId)
  }

  const { search, status, type } = list.filters
  const input = useMemo<Omit<TransactionsQueryInput, 'offset' | 'limit'>>(
    () => ({
      filter: {
        ...(search.trim() && { search: search.trim() }),
        ...(status && { status: [status] }),
        ...(type && { type: type as 'INCOMING' | 'OUTGOING' })
      },
      sort: { field: 'createdAt', direction: 'desc' }
    }),
    [search, status, type]
  )
  const query = useWindowQuery('transactions.query', input, version, list.initialScrollTop)
  const filtered = !!(search || status || type)

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
              value={search}
              onChange={(v) => list.setFilter('search', v)}
            />
            <select aria-label="Status" value={status} onChange={(e) => list.setFilter('status', e.target.value)}>
              <option value="">Any status</option>
              {TRANSACTION_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
            <select aria-label="Direction" value={type} onChange={(e) => list.setFilter('type', e.target.value)}>
              <option value="">In and out</option>
              <option value="INCOMING">Incoming</option>
              <option value="OUTGOING">Outgoing</option>
            </select>
          </div>
          <WindowedList
            label="Transactions"
            noun="transactions"
            state={list}
            filterRef={filterRef}
            query={query}
            columns={columns}
            rowId={idOf}
            onOpen={() => detailRef.current?.focus()}
            empty={
              filtered ? (
                <EmptyState title="No transaction matches these filters." />
              ) : (
                <EmptyState title="No transactions yet.">
                  Payments you send or receive appear here as soon as the service reports them.
                </EmptyState>
              )
            }
          />
        </div>
        <aside className="detail-pane" aria-label="Transaction detail" ref={detailRef} tabIndex={-1}>
          {list.selectedId ? (
            <TransactionDetail id={list.selectedId} version={version} onClose={() => list.select(null)} />
          ) : (
            <p className="muted">Select a transaction to see its details. j/k move, Enter opens, Esc closes.</p>
          )}
        </aside>
      </div>
    </section>
  )
}
