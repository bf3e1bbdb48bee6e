import type { Transaction } from '../../../../shared/api'
import { rowNames } from '../../data/row-names'
import { Id, Money, StatusChip, Time } from '../../ui/atoms'
import { Named } from '../../ui/Named'
import type { TableColumn } from '../../ui/DataTable'
import { transactionTone } from '../../ui/status'
import { headlineAmount } from './amount'

/**
 * How a transaction reads in any table (the workbench, Home, a customer's payments): the same status chip, direction,
 * headline amount and time everywhere. Each view picks the columns it has room for.
 */
export const TRANSACTION_COLUMNS = {
  status: {
    key: 'status',
    header: 'Status',
    render: (t) => <StatusChip value={t.status} tone={transactionTone(t.status)} />
  },
  type: {
    key: 'type',
    header: 'Type',
    render: (t) => (t.type === 'INCOMING' ? '↓ In' : t.type === 'OUTGOING' ? '↑ Out' : t.type)
  },
  amount: {
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
  customer: {
    key: 'customer',
    header: 'Customer',
    render: (t) => <Named id={'customerId' in t ? (t.customerId as string) : undefined} names={rowNames(t)} />
  },
  /** Where the money went: the customer's account it reached, or the external account it was sent to. */
  to: {
    key: 'to',
    header: 'To',
    render: (t) => {
      const destination = (t as { destination?: { accountId?: string; umaAddress?: string } }).destination
      if (!destination?.accountId && destination?.umaAddress)
        return <span className="mono">{destination.umaAddress}</span>
      return <Named id={destination?.accountId} names={rowNames(t)} />
    }
  },
  created: {
    key: 'created',
    header: 'Created',
    render: (t) => <Time iso={'createdAt' in t ? (t.createdAt as string | undefined) : undefined} />
  },
  id: { key: 'id', header: 'Transaction', render: (t) => <Id value={t.id} /> }
} satisfies Record<string, TableColumn<Transaction>>

/** The same columns for a table too small for a header row (its rows speak for themselves). */
export const unheaded = <Row,>(columns: TableColumn<Row>[]): TableColumn<Row>[] =>
  columns.map(({ header: _, ...column }) => column)
