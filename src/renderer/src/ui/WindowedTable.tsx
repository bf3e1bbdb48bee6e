import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react'

export interface Column<Row> {
  key: string
  header: string
  numeric?: boolean
  width?: string
  render(row: Row): ReactNode
}

export const ROW_HEIGHT = 34
/** Rows asked of main per window: the screen plus a margin above and below. */
export const WINDOW_SIZE = 120

/**
 * A table that holds only the window of rows main sent (never the whole list), positioned inside a spacer as tall as
 * all `total` rows, so scrolling through 100,000 transactions stays smooth. Scrolling asks for a new window.
 */
export function WindowedTable<Row>(props: {
  label: string
  columns: Column<Row>[]
  rows: Row[]
  offset: number
  total: number
  rowId(row: Row): string
  selectedId: string | null
  onSelect(row: Row, index: number): void
  onWindow(offset: number): void
  initialScrollTop?: number
  onScroll?(scrollTop: number): void
  rowClass?(row: Row): string | undefined
}) {
  const { rows, offset, total, onWindow } = props
  const scroller = useRef<HTMLDivElement>(null)
  const lastRequested = useRef(offset)

  useLayoutEffect(() => {
    if (scroller.current && props.initialScrollTop) scroller.current.scrollTop = props.initialScrollTop
    // Only on mount: restores where the operator left this list.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  useEffect(() => {
    const index = rows.findIndex((r) => props.rowId(r) === props.selectedId)
    if (index < 0 || !scroller.current) return
    const top = (offset + index) * ROW_HEIGHT
    const el = scroller.current
    if (top < el.scrollTop) el.scrollTop = top
    else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight - ROW_HEIGHT)
      el.scrollTop = top - el.clientHeight + 2 * ROW_HEIGHT
  }, [props.selectedId, rows, offset, props])

  const onScroll = () => {
    const el = scroller.current
    if (!el) return
    props.onScroll?.(el.scrollTop)
    const first = Math.floor(el.scrollTop / ROW_HEIGHT)
    const visible = Math.ceil(el.clientHeight / ROW_HEIGHT)
    const windowEnd = offset + rows.length
    if (first < offset || first + visible > windowEnd) {
      const next = Math.max(0, first - Math.floor((WINDOW_SIZE - visible) / 2))
      if (next !== lastRequested.current) {
        lastRequested.current = next
        onWindow(next)
      }
    }
  }

  return (
    <div className="windowed" ref={scroller} onScroll={onScroll} role="region" aria-label={props.label} tabIndex={-1}>
      <table className="table" aria-label={props.label} aria-rowcount={total}>
        <thead>
          <tr>
            {props.columns.map((c) => (
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
          {offset > 0 && (
            <tr aria-hidden style={{ height: offset * ROW_HEIGHT }}>
              <td colSpan={props.columns.length} />
            </tr>
          )}
          {rows.map((row, i) => {
            const id = props.rowId(row)
            return (
              <tr
                key={id}
                aria-rowindex={offset + i + 1}
                aria-selected={id === props.selectedId}
                className={props.rowClass?.(row)}
                style={{ height: ROW_HEIGHT }}
                onClick={() => props.onSelect(row, offset + i)}
              >
                {props.columns.map((c) => (
                  <td key={c.key} className={c.numeric ? 'num' : undefined}>
                    {c.render(row)}
                  </td>
                ))}
              </tr>
            )
          })}
          {total > offset + rows.length && (
            <tr aria-hidden style={{ height: (total - offset - rows.length) * ROW_HEIGHT }}>
              <td colSpan={props.columns.length} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  )
}
