import { elementScroll, observeElementOffset, useVirtualizer } from '@tanstack/react-virtual'
import { memo, useEffect, useLayoutEffect, useRef, type ReactNode } from 'react'
import { scrollScale, spacers, type ScrollScale } from './scroll-scale'
import { ROW_HEIGHT } from '../data/window-query'

export interface Column<Row> {
  key: string
  header: string
  numeric?: boolean
  width?: string
  /** Must not depend on anything but the row: rows are memoised on the row object. */
  render(row: Row): ReactNode
}

/** The usual `rowId`: one function for every render, so memoised rows stay memoised. */
export const idOf = (row: { id: string }): string => row.id

/** Rows drawn beyond each edge of the viewport, so a fast scroll finds them already laid out. */
const OVERSCAN = 12

/**
 * A table as tall as all `total` rows that draws only those on screen (@tanstack/react-virtual), filled from the
 * window of rows main sent. It reports the rows on screen through `onViewport`; the window loader keeps rows ahead of
 * them loaded. A row not loaded yet draws as a placeholder of the same height, so the scroll position never jumps.
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
  // The virtualizer works in row positions; the scroll area may be shorter than the rows (scroll-scale.ts). The
  // callbacks read the scale through a ref, as the virtualizer keeps the functions it was first given.
  const scale = useRef<ScrollScale>({ domHeight: 0, factor: 1 })
  // The virtualizer is read afresh on every render and never memoised here, which is what this warning is about.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    initialOffset: () => (props.initialScrollTop ?? 0) * scale.current.factor,
    observeElementOffset: (instance, report) =>
      observeElementOffset(instance, (offset, isScrolling) => report(offset * scale.current.factor, isScrolling)),
    scrollToFn: (offset, options, instance) =>
      elementScroll(
        offset / scale.current.factor,
        { ...options, adjustments: (options.adjustments ?? 0) / scale.current.factor },
        instance
      )
  })
  scale.current = scrollScale(virtualizer.getTotalSize(), scroller.current?.clientHeight ?? 0)
  const items = virtualizer.getVirtualItems()
  const first = items[0]?.index ?? 0
  const last = items[items.length - 1]?.index ?? 0

  useEffect(() => onViewport(first, last), [first, last, onViewport])

  const resetKey = useRef(props.scrollResetKey)
  useLayoutEffect(() => {
    if (resetKey.current === props.scrollResetKey) return
    resetKey.current = props.scrollResetKey
    virtualizer.scrollToOffset(0)
  }, [props.scrollResetKey, virtualizer])

  // Keeps the selected row in view once per selection (j/k, a link), as soon as its row is loaded — never again for the
  // same selection, so scrolling away from it is not yanked back by a later render or a window arriving.
  const selectedIndex = selectedId === null ? -1 : rows.findIndex((r) => rowId(r) === selectedId)
  const absoluteSelected = selectedIndex < 0 ? -1 : offset + selectedIndex
  const revealed = useRef<string | null>(null)
  useEffect(() => {
    if (selectedId === revealed.current || absoluteSelected < 0) return
    revealed.current = selectedId
    virtualizer.scrollToIndex(absoluteSelected, { align: 'auto' })
  }, [selectedId, absoluteSelected, virtualizer])

  const { onScroll: saveScroll } = props
  const onScroll = () => {
    if (scroller.current) saveScroll?.(scroller.current.scrollTop)
  }

  const scrollTop = (virtualizer.scrollOffset ?? 0) / scale.current.factor
  const drawn = (items[items.length - 1]?.end ?? 0) - (items[0]?.start ?? 0)
  const { before, after } = spacers(scale.current, scrollTop, items[0]?.start ?? 0, drawn)
  return (
    <div className="windowed" ref={scroller} onScroll={onScroll} role="region" aria-label={props.label} tabIndex={0}>
      <table className="table" aria-label={props.label} aria-rowcount={total}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th
                key={c.key}
                className={c.numeric ? 'num' : undefined}
                style={c.width ? { width: c.width } : undefined}
              >
                {c.header}
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
          {items.map((item) => {
            const row = rows[item.index - offset]
            if (row === undefined) return <PendingRow key={`pending-${item.index}`} span={columns.length} />
            const id = rowId(row)
            return (
              <TableRow
                key={id}
                row={row}
                index={item.index}
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
