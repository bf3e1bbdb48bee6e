import { useEffect, useRef, type ReactNode } from 'react'
import type { WindowQuery } from '../data/window-query'
import { useUi } from '../stores/ui'
import { useListState } from './list-state'
import { SearchBox } from './SearchBox'
import { WindowedList } from './WindowedList'
import { idOf, type Column } from './WindowedTable'

type SearchableFilters = Record<string, string> & { search: string }

/**
 * One collection screen's list state, with the refs its keys use (`/` to the search box, Enter to the detail pane).
 * Arriving with an id of this kind (a link from another view, a notification, a deep link) opens that item.
 */
export function useListPage<F extends SearchableFilters>(listKey: string, defaults: F, idPrefix: string) {
  const list = useListState(listKey, defaults)
  const focusId = useUi((s) => s.focusId)
  const detailRef = useRef<HTMLElement>(null)
  const filterRef = useRef<HTMLInputElement>(null)
  const { select } = list
  useEffect(() => {
    if (focusId?.startsWith(idPrefix)) select(focusId)
  }, [focusId, idPrefix, select])
  return { list, detailRef, filterRef }
}
export type ListPage<F extends SearchableFilters> = ReturnType<typeof useListPage<F>>

/**
 * The list-and-detail body every collection screen shares: the search box and filters, the windowed list with all its
 * states, and the detail pane beside it that Enter focuses.
 */
export function ListDetail<Row extends { id: string }, F extends SearchableFilters>(props: {
  page: ListPage<F>
  query: WindowQuery<Row>
  /** The list's accessible name, also the search box's subject. */
  label: string
  searchLabel: string
  searchPlaceholder: string
  /** Why what is typed does not search yet (null: it does); lists without search rules leave it out. */
  searchHint?: string | null
  /** Replaces setting the search filter, for a view that does more on each key (asks main for it at once). */
  onSearch?(value: string): void
  /** Beside the search box: filter drop-downs, an action on the filtered set. */
  filters?: ReactNode
  /** Between the filters and the list: more filters, the outcome of the last action. */
  aboveList?: ReactNode
  noun: string
  columns: Column<Row>[]
  rowClass?(row: Row): string | undefined
  filtered: boolean
  noMatch: string
  empty: ReactNode
  detailLabel: string
  detail: ReactNode
}) {
  const { list, detailRef, filterRef } = props.page
  return (
    <div className="list-detail">
      <div className="list-pane">
        <div className="filters" role="search">
          <SearchBox
            ref={filterRef}
            label={props.searchLabel}
            placeholder={props.searchPlaceholder}
            value={list.filters.search}
            onChange={props.onSearch ?? ((v) => list.setFilter('search', v))}
            {...(props.searchHint !== undefined ? { hint: props.searchHint } : {})}
          />
          {props.filters}
        </div>
        {props.aboveList}
        <WindowedList
          label={props.label}
          noun={props.noun}
          state={list}
          filterRef={filterRef}
          query={props.query}
          columns={props.columns}
          rowId={idOf}
          {...(props.rowClass ? { rowClass: props.rowClass } : {})}
          detailRef={detailRef}
          filtered={props.filtered}
          noMatch={props.noMatch}
          empty={props.empty}
        />
      </div>
      <aside className="detail-pane" aria-label={props.detailLabel} ref={detailRef} tabIndex={-1}>
        {props.detail}
      </aside>
    </div>
  )
}
