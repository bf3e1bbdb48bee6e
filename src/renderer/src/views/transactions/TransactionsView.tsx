import { useMemo, useState } from 'react'
import type { Transaction } from '../../../../shared/api'
import { isTooShortTransactionSearch, type TransactionsQueryInput } from '../../../../shared/ipc/channels/data'
import { EmptyState } from '../../ui/view-states'
import { ListDetail, useListPage } from '../../ui/ListDetail'
import type { Column } from '../../ui/WindowedTable'
import { useWindowQuery } from '../../data/window-query'
import { useWindowGeneration } from '../../data/window-generations'
import { ExportButton } from './ExportButton'
import { narrowTransactions } from './search-narrowing'
import { TRANSACTION_COLUMNS } from './transaction-columns'
import { TransactionDetail } from './TransactionDetail'
import { WorkbenchFilters } from './WorkbenchFilters'
import { SEARCH_TOO_SHORT_HINT, searchToApply, WORKBENCH_DEFAULTS, workbenchQuery } from './workbench-filters'
import './workbench.css'

const { status, type, amount, customer, to, created, id } = TRANSACTION_COLUMNS
const columns: Column<Transaction>[] = [
  { ...status, width: '130px' },
  { ...type, width: '90px' },
  amount,
  customer,
  to,
  created,
  id
]

/** The search the list applies (see searchToApply), kept across renders; a restored short search applies none. */
function useAppliedSearch(typed: string): string {
  const [applied, setApplied] = useState(() => searchToApply(typed, ''))
  const next = searchToApply(typed, applied)
  // Adjusting state while rendering (React's pattern for state derived from a prop): no extra query in between.
  if (next !== applied) setApplied(next)
  return next
}

export function TransactionsView() {
  const page = useListPage('transactions', WORKBENCH_DEFAULTS, 'Transaction:')
  const { list } = page
  const search = useAppliedSearch(list.filters.search)
  const typed = useMemo(() => ({ ...list.filters, search }), [list.filters, search])

  // A preset ("last 7 days") is relative to now: it is re-read whenever the data or the filters change.
  const generation = useWindowGeneration('transactions.query')
  const { filter, sort, errors } = useMemo(() => workbenchQuery(typed), [typed, generation]) // eslint-disable-line react-hooks/exhaustive-deps
  const input = useMemo<Omit<TransactionsQueryInput, 'offset' | 'limit'>>(() => ({ filter, sort }), [filter, sort])
  const query = useWindowQuery('transactions.query', input, list.initialScrollTop, narrowTransactions)
  // A key in the search box asks main for its search before React draws the key: main's answer (the first screenful of
  // a three-character search) is then on its way while the page renders, instead of being asked for after it.
  const onSearch = (value: string) => {
    const next = workbenchQuery({ ...list.filters, search: searchToApply(value, search) })
    query.ask({ filter: next.filter, sort: next.sort })
    list.setFilter('search', value)
  }

  return (
    <section className="page" aria-labelledby="transactions-title">
      <h1 id="transactions-title">Transactions</h1>
      <ListDetail
        page={page}
        query={query}
        label="Transactions"
        searchLabel="Filter transactions"
        searchPlaceholder="Name, id, description, reference…  ( / )"
        searchHint={isTooShortTransactionSearch(list.filters.search) ? SEARCH_TOO_SHORT_HINT : null}
        onSearch={onSearch}
        filters={<ExportButton filter={filter} sort={sort} disabled={Object.keys(errors).length > 0} />}
        aboveList={<WorkbenchFilters filters={list.filters} set={list.setFilter} errors={errors} />}
        noun="transactions"
        columns={columns}
        filtered={Object.keys(filter).length > 0}
        noMatch="No transaction matches these filters."
        empty={
          <EmptyState title="No transactions yet.">
            Payments you send or receive appear here as soon as the service reports them.
          </EmptyState>
        }
        detailLabel="Transaction detail"
        detail={
          list.selectedId ? (
            <TransactionDetail id={list.selectedId} onClose={() => list.select(null)} />
          ) : (
            <p className="muted">Select a transaction to see its details. j/k move, Enter opens, Esc closes.</p>
          )
        }
      />
    </section>
  )
}
