import { useCallback, type ReactNode, type RefObject } from 'react'
import { ErrorNotice } from './atoms'
import { useListKeys } from './list-keys'
import type { ListState } from './list-state'
import { EmptyState, Freshness, NeverSynced, SkeletonRows } from './view-states'
import { useWindowState, type WindowQuery } from '../data/window-query'
import { WindowedTable, type Column } from './WindowedTable'

/**
 * The body of a windowed list with every state of the design: skeleton rows before the first answer, the error with
 * its code (cached rows stay when there are any), the empty state, and the table with its count and freshness.
 * j/k move the selection, Enter opens it, Esc closes the detail, / focuses the list's search box.
 */
export function WindowedList<Row, F extends Record<string, string>>(props: {
  label: string
  /** Plural noun for the count line ("customers"). */
  noun: string
  state: ListState<F>
  query: WindowQuery<Row>
  columns: Column<Row>[]
  rowId(row: Row): string
  rowClass?(row: Row): string | undefined
  /** Shown when the list has no rows at all. */
  empty: ReactNode
  /** Whether filters narrow the list: an empty answer then says `noMatch` instead of `empty`. */
  filtered: boolean
  noMatch: string
  /** The detail pane, focused when a row is opened. */
  detailRef: RefObject<HTMLElement | null>
  /** The list's search box, focused by `/`. */
  filterRef?: RefObject<HTMLInputElement | null>
}) {
  const { state, query } = props
  // Subscribed here, not in the view: an answer draws the list again, not the search box and filters above it.
  const { data, loading, error } = useWindowState(query)
  const rows = data?.rows ?? []
  const offset = data?.offset ?? 0
  const selectedIndex = rows.findIndex((r) => props.rowId(r) === state.selectedId)
  const { select } = state
  const { rowId } = props
  // Stable, so memoised rows are not re-rendered by every render of the list.
  const onSelect = useCallback((row: Row) => select(rowId(row)), [select, rowId])

  useListKeys({
    count: data?.total ?? 0,
    selected: selectedIndex < 0 ? (rows.length > 0 ? offset - 1 : -1) : offset + selectedIndex,
    select: (index) => {
      const row = rows[index - offset]
      if (row) state.select(props.rowId(row))
    },
    open: () => props.detailRef.current?.focus(),
    close: () => state.select(null),
    ...(props.filterRef ? { filterRef: props.filterRef } : {})
  })

  if (loading && !data) {
    return error ? <ErrorNotice error={error} onRetry={query.reload} /> : <SkeletonRows label={props.label} />
  }
  return (
    <>
      {error && <ErrorNotice error={error} onRetry={query.reload} />}
      {data && (
        <div className="list-meta">
          <span>
            {data.total.toLocaleString()} {props.noun}
          </span>
          <Freshness syncedAt={data.syncedAt} />
        </div>
      )}
      {data && data.total === 0 ? (
        props.filtered ? (
          <EmptyState title={props.noMatch} />
        ) : data.syncedAt ? (
          props.empty
        ) : (
          // Never matched the service: not "No transactions yet", which would claim the service has none.
          <NeverSynced />
        )
      ) : (
        data && (
          <WindowedTable
            label={props.label}
            columns={props.columns}
            rows={rows}
            offset={offset}
            total={data.total}
            rowId={props.rowId}
            selectedId={state.selectedId}
            onSelect={onSelect}
            onViewport={query.setViewport}
            initialScrollTop={state.initialScrollTop}
            scrollResetKey={state.scrollResetKey}
            onScroll={state.onScroll}
            {...(props.rowClass ? { rowClass: props.rowClass } : {})}
          />
        )
      )}
    </>
  )
}
