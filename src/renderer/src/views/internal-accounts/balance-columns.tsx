import type { InternalAccount } from '../../../../shared/api'
import { Id, Money } from '../../ui/atoms'
import type { TableColumn } from '../../ui/DataTable'

/** An internal account in a short list (Home's platform balances, a customer's accounts): its id and balance. */
export const BALANCE_COLUMNS: TableColumn<InternalAccount>[] = [
  { key: 'id', render: (a) => <Id value={a.id} /> },
  {
    key: 'balance',
    numeric: true,
    render: (a) => <Money amount={a.balance.amount} currency={a.balance.currency} showCode />
  }
]
