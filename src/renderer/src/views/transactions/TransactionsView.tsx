import { useCallback, useMemo, useRef, useState } from 'react'
import { TRANSACTION_STATUSES, type Transaction } from '../../../../shared/api'
import type { TransactionsQueryInput } from '../../../../shared/ipc/channels/data'
import { useDataVersion } from '../../stores/data-version'
import { listMemory, useListMemory } from '../../stores/list-memory'
import { useUi } from '../../stores/ui'
import { Id, Money, StatusChip, Time, ErrorNotice } from '../../ui/atoms'
import { useListKeys } from '../../ui/list-keys'
import { useChannel } from '../../ui/query'
import { transactionTone } from '../../ui/status'
import { WINDOW_SIZE, WindowedTable, type Column } from '../../ui/WindowedTable'
import { SyncedNote } from '../../ui/SyncedNote'
import { headlineAmount } from './amount'
import { TransactionDetail } from './TransactionDetail'

const LIST = 'transactions'

const columns: Column<Transaction>[] = [
  { key: 'status', header: 'Status', width: '130px', render: (t) => <StatusChip value={t.status} tone={transactionTone(t.status, t.type)} /> },
  { key: 'type', header: 'Type', width: '90px', render: (t) => (t.type === 'INCOMING' ? '↓ In' : t.type === 'OUTGOING' ? '↑ Out' : t.type) },
  {
    key: 'amount',
    header: 'Amount',
    numeric: true,
    render: (t) => {
      const amount = headlineAmount(t)
      return amount ? <Money amount={amount.amount} currency={amount.currency} showCode /> : <span className="muted">—</span>
    }
  },
  { key: 'customer', header: 'Customer', render: (t) => <Id value={'customerId' in t ? (t.customerId as string) : undefined} /> },
  { key: 'created', header: 'Created', render: (t) => <Time iso={'createdAt' in t ? (t.createdAt as string | undefined) : undefined} /> },
  { key: 'id', header: 'Transaction', render: (t) => <Id value={t.id} /> }
]

export function TransactionsView() {
  const memory = listMemory(LIST)
  const save = useListMemory((s) => s.save)
  const version = useDataVersion((s) => s.versions.transactions)
  const focusId = useUi((s) => s.focusId)
  const [search, setSearch] = useState(memory.filters['search'] ?? '')
  const [status, setStatus] = useState(memory.filters['status'] ?? '')
  const [type, setType] = useState(memory.filters['type'] ?? '')
  const [offset, setOffset] = useState(Math.max(0, Math.floor(memory.scrollTop / 34) - 20))
  const [selectedId, setSelectedId] = useState<string | null>(focusId ?? memory.selectedId)
  const filterRef = useRef<HTMLInputElement>(null)

  const input = useMemo<TransactionsQueryInput>(
    () => ({
      filter: {
        ...(search.trim() && { search: search.trim() }),
        ...(status && { status: [status] }),
        ...(type && { type: type as 'INCOMING' | 'OUTGOING' })
      },
      sort: { field: 'createdAt', direction: 'desc' },
      offset,
      limit: WINDOW_SIZE
    }),
    [search, status, type, offset]
  )
  const query = useChannel('transactions.query', input, version)
  const rows = query.data?.rows ?? []
  const total = query.data?.total ?? 0

  const setFilter = (name: string, value: string, apply: (v: string) => void) => {
    apply(value)
    setOffset(0)
    save(LIST, { filters: { ...listMemory(LIST).filters, [name]: value }, scrollTop: 0 })
  }
  const select = useCallback(
    (id: string | null) => {
      setSelectedId(id)
      save(LIST, { selectedId: id })
    },
    [save]
  )
  const selectedIndex = rows.findIndex((r) => r.id === selectedId)
  useListKeys({
    count: rows.length,
    selected: selectedIndex,
    select: (i) => rows[i] && select(rows[i].id),
    open: (i) => rows[i] && select(rows[i].id),
    close: () => select(null),
    filterRef
  })

  return (
    <section className="page" aria-labelledby="transactions-title">
      <h1 id="transactions-title">Transactions</h1>
      <div className="list-detail">
        <div className="list-pane">
          <div className="filters" role="search">
            <input
              ref={filterRef}
              type="search"
              aria-label="Filter transactions"
              placeholder="Filter by id, customer, description…  ( / )"
              value={search}
              onChange={(e) => setFilter('search', e.target.value, setSearch)}
            />
            <select aria-label="Status" value={status} onChange={(e) => setFilter('status', e.target.value, setStatus)}>
              <option value="">Any status</option>
              {TRANSACTION_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
            <select aria-label="Direction" value={type} onChange={(e) => setFilter('type', e.target.value, setType)}>
              <option value="">In and out</option>
              <option value="INCOMING">Incoming</option>
              <option value="OUTGOING">Outgoing</option>
            </select>
          </div>
          <div className="list-meta">
            <span data-testid="transactions-count">
              {total.toLocaleString()} transaction{total === 1 ? '' : 's'}
            </span>
            <SyncedNote syncedAt={query.data?.syncedAt ?? null} />
          </div>
          {query.error && !query.data ? (
            <ErrorNotice error={query.error} onRetry={query.reload} />
          ) : query.loading ? (
            <div className="skeleton-rows" aria-busy="true" aria-label="Loading transactions" />
          ) : total === 0 ? (
            <div className="state">
              <p>
                {search || status || type
                  ? 'No transaction matches these filters.'
                  : 'No transactions yet. Payments you send or receive appear here as soon as the service reports them.'}
              </p>
            </div>
          ) : (
            <WindowedTable
              label="Transactions"
              columns={columns}
              rows={rows}
              offset={query.data?.offset ?? 0}
              total={total}
              rowId={(t) => t.id}
              selectedId={selectedId}
              onSelect={(t) => select(t.id)}
              onWindow={setOffset}
              initialScrollTop={memory.scrollTop}
              onScroll={(scrollTop) => save(LIST, { scrollTop })}
            />
          )}
        </div>
        <aside className="detail-pane" aria-label="Transaction detail">
          {selectedId ? (
            <TransactionDetail id={selectedId} version={version} onClose={() => select(null)} />
          ) : (
            <p className="muted">Select a transaction to see its details. j/k move, Enter opens, Esc closes.</p>
          )}
        </aside>
      </div>
    </section>
  )
}
