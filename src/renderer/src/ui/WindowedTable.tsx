import { memo, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react'
import { rowsOnScreen, scrollTopToShow } from './scroll-scale'
import { ROW_HEIGHT } from '../data/window-query'

export interface Column<Row> {
  key: string
  header: string
  numeric?: boolean
  width?: string
  /** A header that sorts the list: its state (aria-sort) and what a click does; `hint` says why it cannot now. */
  sort?: { state: 'ascending' | 'descending' | 'none'; onSort?(): void; hint?: string }
  /** Must not depend on anything but the row: rows are memoised on the row object. */
  render(row: Row): ReactNode
}

/** The usual `rowId`: one function for every render, so memoised rows stay memoised. */
export const idOf = (row: { id: string }): string => row.id

/**
 * Rows drawn beyond each edge of the viewport, so a fast scroll finds them already laid out: 3,000 px/s moves about
 * two rows a frame. Each one drawn is laid out again with every new filter.
 */
const OVERSCAN = 8

/**
 * A table as tall as all `total` rows that draws only those on screen, filled from the window of rows main sent. It
 * reports the rows on screen through `onViewport`; the window loader keeps rows ahead of them loaded. A row not loaded
 * yet draws as a placeholder of the same height, so the scroll position never jumps.
 *
 * Every row is ROW_HEIGHT tall, so which rows are on screen is arithmetic on the scroll position (scroll-scale.ts).
 * A virtualizer that measures rows (@tanstack/react-virtual, used before) builds an entry per row whenever the count
 * changes: 100,000 objects on every filter keystroke at 100k rows, ten times that at a million.
 */
export function WindowedTable<Row>(props: {
  label: string
  columns: Column<Row>[]
  rows: Row[]
  offset: number
  total: number
  rowId(row: Row): string
  selectedId: string | null
  onSelect(row: Row): void
  onViewport(first: number, last: number): void
  initialScrollTop?: number
  /** Scrolls back to the top whenever it changes (a new filter). */
  scrollResetKey?: number
  onScroll?(scrollTop: number): void
  rowClass?(row: Row): string | undefined
}) {
  const { rows, offset, total, onViewport, selectedId, columns, rowId } = props
  const scroller = useRef<HTMLDivElement>(null)
  const [scrollTop, setScrollTop] = useState(props.initialScrollTop ?? 0)
  const [viewport, setViewport] = useState(0)
  const view = rowsOnScreen({ count: total, rowHeight: ROW_HEIGHT, scrollTop, viewport, overscan: OVERSCAN })
  const { first, last, before, after, scale } = view

  // The scroll area's height follows the window; the first position is the one the list was left at.
  useLayoutEffect(() => {
    const element = scroller.current
    if (!element) return
    // Setting it fires a scroll event where the browser clamps it; the observer reports the first height.
    if (props.initialScrollTop) element.scrollTop = props.initialScrollTop
    const observer = new ResizeObserver(() => setViewport(element.clientHeight))
    observer.observe(element)
    return () => observer.disconnect()
    // Mount only: later renders never move the scroll position on their own.
  }, []) // eslint-disable-line react-hooks/exhaustive-deps

  // Reported as the rows the screen has room for, past the end of a short list too: a short list's next filter (the
  // box cleared) is asked for a screenful, not for the few rows it had.
  const room = Math.max(0, first) + Math.ceil(viewport / ROW_HEIGHT) + 2 * OVERSCAN
  useEffect(() => onViewport(Math.max(0, first), Math.max(last, room)), [first, last, room, onViewport])

  // A new filter draws the top at once (state adjusted while rendering), and the scroll area follows before paint.
  const [resetKey, setResetKey] = useState(props.scrollResetKey)
  if (resetKey !== props.scrollResetKey) {
    setResetKey(props.scrollResetKey)
    setScrollTop(0)
  }
  const scrolledKey = useRef(props.scrollResetKey)
  /** The scroll area's scrollTop as its last scroll event said: reading the element's would force a layout. */
  const domScrollTop = useRef(props.initialScrollTop ?? 0)
  useLayoutEffect(() => {
    if (scrolledKey.current === props.scrollResetKey) return
    scrolledKey.current = props.scrollResetKey
    // Already at the top (typing on in the filter box): nothing to move or lay out again.
    if (scroller.current && domScrollTop.current !== 0) scroller.current.scrollTop = 0
    domScrollTop.current = 0
  }, [props.scrollResetKey])

  // Keeps the selected row in view once per selection (j/k, a link), as soon as its row is loaded — never again for the
  // same selection, so scrolling away from it is not yanked back by a later render or a window arriving.
  const selectedIndex = selectedId === null ? -1 : rows.findIndex((r) => rowId(r) === selectedId)
  const absoluteSelected = selectedIndex < 0 ? -1 : offset + selectedIndex
  const revealed = useRef<string | null>(null)
  useEffect(() => {
    if (selectedId === revealed.current || absoluteSelected < 0) return
    revealed.current = selectedId
    const element = scroller.current
    if (!element) return
    const to = scrollTopToShow({
      index: absoluteSelected,
      rowHeight: ROW_HEIGHT,
      scrollTop: element.scrollTop,
      viewport: element.clientHeight,
      scale
    })
    if (to !== null) element.scrollTop = to
  }, [selectedId, absoluteSelected, scale])

  const { onScroll: saveScroll } = props
  const onScroll = () => {
    const element = scroller.current
    if (!element) return
    domScrollTop.current = element.scrollTop
    setScrollTop(domScrollTop.current)
    saveScroll?.(domScrollTop.current)
  }

  const items = first < 0 ? [] : Array.from({ length: last - first + 1 }, (_, i) => first + i)
  return (
    <div className="windowed" ref={scroller} onScroll={onScroll} role="region" aria-label={props.label} tabIndex={0}>
      <table className="table" aria-label={props.label} aria-rowcount={total}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th
                key={c.key}
                scope="col"
                className={c.numeric ? 'num' : undefined}
                style={c.width ? { width: c.width } : undefined}
                aria-sort={c.sort?.state}
                title={c.sort?.hint}
              >
                {c.sort?.onSort ? (
                  <button className="sort-head" onClick={c.sort.onSort}>
                    {c.header}
                    <span aria-hidden>
                      {c.sort.state === 'ascending' ? ' ▲' : c.sort.state === 'descending' ? ' ▼' : ''}
                    </span>
                  </button>
                ) : (
                  c.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {before > 0 && (
            <tr aria-hidden style={{ height: before }}>
              <td colSpan={columns.length} />
            </tr>
          )}
          {items.map((index) => {
            const row = rows[index - offset]
            if (row === undefined) return <PendingRow key={`pending-${index}`} span={columns.length} />
            const id = rowId(row)
            // Keyed by position, not by id: a new filter's answer (new ids in every row) then updates the rows on
            // screen in place, where keying by id unmounted each of them and built it again. With about 40 rows that
            // was 4-6 ms of each search key's 30-40 at 100,000 rows, measured in the page. Selection still follows the
            // id (`selected`), and a cell keeps no state of its own (atoms.tsx Id remembers which value it copied).
            return (
              <TableRow
                key={index}
                row={row}
                index={index}
                columns={columns}
                selected={id === selectedId}
                className={props.rowClass?.(row)}
                onSelect={props.onSelect}
              />
            )
          })}
          {after > 0 && (
            <tr aria-hidden style={{ height: after }}>
              <td colSpan={columns.length} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  )
}

function TableRowInner<Row>(props: {
  row: Row
  index: number
  columns: Column<Row>[]
  selected: boolean
  className: string | undefined
  onSelect(row: Row): void
}) {
  const { row, columns, onSelect } = props
  return (
    <tr
      aria-rowindex={props.index + 1}
      aria-selected={props.selected}
      className={props.className}
      style={{ height: ROW_HEIGHT }}
      onClick={() => onSelect(row)}
    >
      {columns.map((c) => (
        <td key={c.key} className={c.numeric ? 'num' : undefined}>
          {c.render(row)}
        </td>
      ))}
    </tr>
  )
}
/** Re-renders only when its row object, position, selection or columns change. */
const TableRow = memo(TableRowInner) as typeof TableRowInner

function PendingRow({ span }: { span: number }) {
  return (
    <tr className="row-pending" aria-hidden style={{ height: ROW_HEIGHT }}>
      <td colSpan={span} />
    </tr>
  )
}
