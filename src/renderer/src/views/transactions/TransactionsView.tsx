import { useCallback, useMemo, useState } from 'react'
import type { Transaction } from '../../../../shared/api'
import {
  isTooShortTransactionSearch,
  type TransactionSort,
  type TransactionsQueryInput
} from '../../../../shared/ipc/channels/data'
import { EmptyState } from '../../ui/view-states'
import { ListDetail, useListPage } from '../../ui/ListDetail'
import type { Column } from '../../ui/WindowedTable'
import { useWindowQuery } from '../../data/window-query'
import { useChannelChanges } from '../../data/window-cache'
import { ExportButton } from './ExportButton'
import { narrowTransactions } from './search-narrowing'
import { TRANSACTION_COLUMNS } from './transaction-columns'
import { TransactionDetail } from './TransactionDetail'
import { WorkbenchFilters } from './WorkbenchFilters'
import { SavedViews } from './SavedViews'
import {
  AMOUNT_SORT_HINT,
  nextSort,
  SEARCH_TOO_SHORT_HINT,
  searchToApply,
  WORKBENCH_DEFAULTS,
  workbenchQuery
} from './workbench-filters'
import { WorkbenchTotals } from './WorkbenchTotals'
import './workbench.css'

const { status, type, amount, customer, to, created, id } = TRANSACTION_COLUMNS
type SortField = TransactionSort['field']

/**
 * The columns, with Status, Amount and Created sorting the list from their headers (aria-sort says which and how).
 * Amount sorts only within one currency filtered: its header says so otherwise. Built once per sort, so the rows
 * (memoised on their columns) are not drawn again on each key of the search box.
 */
function useColumns(sort: TransactionSort, currency: string, setSort: (value: string) => void): Column<Transaction>[] {
  return useMemo(() => {
    const sortable = (field: SortField, enabled = true) => ({
      state: (sort.field === field ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none') as
        | 'ascending'
        | 'descending'
        | 'none',
      ...(enabled ? { onSort: () => setSort(nextSort(sort, field)) } : { hint: AMOUNT_SORT_HINT })
    })
    return [
      { ...status, width: '104px', sort: sortable('status') },
      { ...type, width: '66px' },
      { ...amount, width: '150px', sort: sortable('amount', Boolean(currency)) },
      customer,
      to,
      { ...created, width: '150px', sort: sortable('createdAt') },
      { ...id, width: '200px' }
    ]
  }, [sort, currency, setSort])
}

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
  const generation = useChannelChanges('transactions.query')
  const { filter, sort, errors } = useMemo(() => workbenchQuery(typed), [typed, generation]) // eslint-disable-line react-hooks/exhaustive-deps
  const input = useMemo<Omit<TransactionsQueryInput, 'offset' | 'limit'>>(() => ({ filter, sort }), [filter, sort])
  const query = useWindowQuery('transactions.query', input, list.initialScrollTop, narrowTransactions)
  // A key in the search box asks main for its search before React draws the key: main's answer (the first screenful of
  // a three-character search) is then on its way while the page renders, instead of being asked for after it.
  const { setFilter } = list
  const setSort = useCallback((value: string) => setFilter('sort', value), [setFilter])
  const columns = useColumns(sort, list.filters.currency, setSort)
  const onSearch = (value: string) => {
    const next = workbenchQuery({ ...list.filters, search: searchToApply(value, search) })
    query.ask({ filter: next.filter, sort: next.sort })
    list.setFilter('search', value)
  }

  return (
    <section
      className={`page workbench-page${list.selectedId ? ' detail-open' : ''}`}
      aria-labelledby="transactions-title"
    >
      <h1 id="transactions-title">Transactions</h1>
      <ListDetail
        page={page}
        query={query}
        label="Transactions"
        searchLabel="Filter transactions"
        searchPlaceholder="Name, id, reference, amount…  ( / )"
        searchHint={isTooShortTransactionSearch(list.filters.search) ? SEARCH_TOO_SHORT_HINT : null}
        onSearch={onSearch}
        filters={
          <>
            <WorkbenchFilters filters={list.filters} set={list.setFilter} errors={errors} />
            <SavedViews filters={list.filters} set={list.setFilter} />
            <ExportButton filter={filter} sort={sort} disabled={Object.keys(errors).length > 0} />
          </>
        }
        aboveList={<WorkbenchTotals filter={filter} />}
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
