import type { HTMLAttributes, ReactNode } from 'react'
import type { IpcError } from '../../../shared/ipc/define'
import { ErrorNotice } from './atoms'
import { SkeletonRows } from './view-states'

export interface TableColumn<Row> {
  key: string
  /** The column's heading; a table whose columns have none is drawn without a header row. */
  header?: string
  /** The heading is for screen readers only (a column of buttons). */
  hiddenHeader?: boolean
  numeric?: boolean
  className?: string
  title?(row: Row): string | undefined
  render(row: Row): ReactNode
}

export interface DataTableProps<Row> {
  label: string
  columns: TableColumn<Row>[]
  rowKey(row: Row): string
  /** Extra classes beside `table`: `compact`, `balances`. */
  variant?: string
  /** A row that opens something: clicking it calls this (rows for which `canOpen` says no stay plain). */
  onOpen?(row: Row): void
  canOpen?(row: Row): boolean
  rowProps?(row: Row): HTMLAttributes<HTMLTableRowElement>
  /** A list that can grow long (a journal, every balance): it scrolls in its own box. */
  scrolls?: boolean
}

/** The small tables of the screens (balances, journals, a customer's accounts): every one drawn the same way. */
export function DataTable<Row>(props: DataTableProps<Row> & { rows: readonly Row[] }) {
  const { columns, onOpen, canOpen } = props
  const headed = columns.some((c) => c.header !== undefined)
  const table = (
    <table className={props.variant ? `table ${props.variant}` : 'table'} aria-label={props.label}>
      {headed && (
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} className={c.numeric ? 'num' : undefined}>
                {c.hiddenHeader ? <span className="visually-hidden">{c.header}</span> : c.header}
              </th>
            ))}
          </tr>
        </thead>
      )}
      <tbody>
        {props.rows.map((row) => {
          const opens = onOpen && (canOpen ? canOpen(row) : true)
          return (
            <tr
              key={props.rowKey(row)}
              {...props.rowProps?.(row)}
              className={opens ? 'clickable' : undefined}
              onClick={opens ? () => onOpen(row) : undefined}
            >
              {columns.map((c) => (
                <td
                  key={c.key}
                  className={[c.numeric && 'num', c.className].filter(Boolean).join(' ') || undefined}
                  title={c.title?.(row)}
                >
                  {c.render(row)}
                </td>
              ))}
            </tr>
          )
        })}
      </tbody>
    </table>
  )
  return props.scrolls ? <div className="scroll-table">{table}</div> : table
}

/** A read as a table shows it: useChannelQuery's answer, or anything with the same members. */
interface TableRead<Data> {
  data: Data | null
  error: IpcError | null
  reload(): void
}

/** Rows with an id are keyed by it unless said otherwise; others must say how. */
type KeyOf<Row> = [Row] extends [{ id: string }] ? { rowKey?(row: Row): string } : { rowKey(row: Row): string }
/** Where the rows are in the read's answer: its `rows` unless said otherwise. */
type RowsIn<Row, Data> = [Data] extends [{ rows: readonly Row[] }]
  ? { rowsOf?(data: Data): readonly Row[] }
  : { rowsOf(data: Data): readonly Row[] }

/**
 * A small table filled by a read: skeleton rows before the first answer, the error when there is nothing to show,
 * the empty sentence, else the rows.
 */
export function LoadedTable<Row, Data>(
  props: Omit<DataTableProps<Row>, 'rowKey'> &
    KeyOf<Row> &
    RowsIn<Row, Data> & {
      read: TableRead<Data>
      /** What the skeleton stands for ("internal accounts"). */
      loadingLabel: string
      empty: ReactNode
    }
) {
  const { data, error, reload } = props.read
  if (data === null) {
    if (error) return <ErrorNotice error={error} onRetry={reload} />
    return <SkeletonRows label={props.loadingLabel} />
  }
  // The types above say which of these a caller may leave out: rowsOf when the answer has rows, rowKey when rows have ids.
  const rows = props.rowsOf ? props.rowsOf(data) : (data as { rows: readonly Row[] }).rows
  const rowKey = props.rowKey ?? ((row: Row) => (row as { id: string }).id)
  return rows.length ? <DataTable {...props} rowKey={rowKey} rows={rows} /> : props.empty
}

/** A journal of this Paydesk's own writes (transfers sent, quotes executed): compact, scrolling, a row per action. */
export function JournalTable<Row extends { actionId: string }>(
  props: Omit<DataTableProps<Row>, 'rowKey' | 'variant' | 'scrolls'> & { rows: readonly Row[] }
) {
  return <DataTable {...props} scrolls variant="compact" rowKey={(r) => r.actionId} />
}
