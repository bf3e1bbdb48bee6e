import type { ReactNode } from 'react'
import type { Address, ExternalAccount, InternalAccount, Transaction } from '../../../../shared/api'
import { useUi } from '../../stores/ui'
import { ErrorNotice, Id, StatusChip, Time } from '../../ui/atoms'
import { useChannelQuery } from '../../data/channel-query'
import { externalAccountTone, kycTone } from '../../ui/status'
import { Freshness, SkeletonRows } from '../../ui/view-states'
import { accountTypeName, lastDigits } from '../external-accounts/describe'
import { TRANSACTION_COLUMNS, unheaded } from '../transactions/transaction-columns'
import { LoadedTable, type TableColumn } from '../../ui/DataTable'
import { BALANCE_COLUMNS } from '../internal-accounts/balance-columns'
import { useCustomerActions } from './customer-actions'

const KYC_HINT: Record<string, string> = {
  UNVERIFIED: 'Identity not verified yet: this customer cannot move money until KYC is done.',
  PENDING: 'Identity check in progress.',
  REJECTED: 'Identity check failed: payments for this customer will be refused.'
}

export function formatAddress(a: Address | undefined): string | undefined {
  if (!a) return undefined
  return [a.line1, a.line2, [a.postalCode, a.city].filter(Boolean).join(' '), a.state, a.country]
    .filter(Boolean)
    .join(', ')
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children ?? <span className="muted">—</span>}</dd>
    </>
  )
}

const EXTERNAL_COLUMNS: TableColumn<ExternalAccount>[] = [
  {
    key: 'account',
    render: (a) => (
      <>
        {accountTypeName(a.accountInfo.accountType)} <span className="mono">{lastDigits(a)}</span>
      </>
    )
  },
  { key: 'currency', render: (a) => a.currency },
  { key: 'status', render: (a) => <StatusChip value={a.status} tone={externalAccountTone(a.status)} /> }
]
const { type, amount, status, created } = TRANSACTION_COLUMNS
const PAYMENT_COLUMNS = unheaded<Transaction>([type, amount, status, created])

/** The account a payment for this customer goes out from: the first with money in it, else the first. */
export function payingAccount(accounts: readonly InternalAccount[]): InternalAccount | undefined {
  return accounts.find((a) => a.balance.amount > 0) ?? accounts[0]
}

export function CustomerDetail({ id, onClose }: { id: string; onClose(): void }) {
  const go = useUi((s) => s.go)
  const startAction = useCustomerActions((s) => s.start)
  const query = useChannelQuery('customers.get', { id: id as `Customer:${string}` })
  const internal = useChannelQuery('internalAccounts.list', { scope: 'customer', customerId: id })
  const external = useChannelQuery('externalAccounts.query', { scope: 'customer', customerId: id, limit: 50 })
  const transactions = useChannelQuery('transactions.query', { filter: { customerId: id }, limit: 8 })

  if (query.loading && !query.data)
    return query.error ? <ErrorNotice error={query.error} onRetry={query.reload} /> : <SkeletonRows label="customer" />
  const customer = query.data?.customer
  if (!customer) {
    return (
      <div className="state" role="status">
        <p>This customer is not in this profile’s data{query.data?.syncedAt ? '' : ' yet'}.</p>
        <button onClick={onClose}>Close</button>
      </div>
    )
  }
  const kycHint = customer.kycStatus ? KYC_HINT[customer.kycStatus] : undefined
  const source = payingAccount(internal.data?.rows ?? [])
  return (
    <div className="detail" data-testid="customer-detail">
      <div className="panel-head">
        <h2>{customer.fullName ?? customer.platformCustomerId}</h2>
        <button className="icon" aria-label="Close customer detail" onClick={onClose}>
          ×
        </button>
      </div>
      <p className="detail-sub">
        <StatusChip value={customer.kycStatus} tone={kycTone(customer.kycStatus)} />{' '}
        <Freshness syncedAt={query.data?.syncedAt} />
      </p>
      {kycHint && <p className={`hint hint-${kycTone(customer.kycStatus)}`}>{kycHint}</p>}
      <div className="row" data-testid="customer-actions">
        <button
          onClick={() => {
            startAction({ kind: 'add-external-account', customerId: customer.id })
            go('external-accounts')
          }}
        >
          Add external account
        </button>
        <button
          disabled={!source}
          title={source ? undefined : 'This customer has no internal account to pay from yet'}
          onClick={() => {
            if (!source) return
            startAction({ kind: 'send-money', customerId: customer.id, sourceId: source.id })
            go('internal-accounts', source.id)
          }}
        >
          Send money
        </button>
      </div>
      {query.error && <ErrorNotice error={query.error} onRetry={query.reload} />}
      {customer.isDeleted && <p className="result result-bad">This customer is marked deleted.</p>}
      <dl className="facts">
        <Fact label="Customer id">
          <Id value={customer.id} />
        </Fact>
        <Fact label="Platform id">
          <span className="mono">{customer.platformCustomerId}</span>
        </Fact>
        <Fact label="Type">{customer.customerType}</Fact>
        <Fact label="UMA address">
          <span className="mono">{customer.umaAddress}</span>
        </Fact>
        <Fact label="Region">{customer.region}</Fact>
        <Fact label="Currencies">{customer.currencies?.join(', ')}</Fact>
        <Fact label="Full name">{customer.fullName}</Fact>
        <Fact label="Birth date">{customer.birthDate}</Fact>
        <Fact label="Nationality">{customer.nationality}</Fact>
        <Fact label="Address">{formatAddress(customer.address)}</Fact>
        <Fact label="Created">
          <Time iso={customer.createdAt} />
        </Fact>
        <Fact label="Updated">
          <Time iso={customer.updatedAt} />
        </Fact>
      </dl>

      <h3>Internal accounts</h3>
      <LoadedTable
        label="Customer internal accounts"
        variant="compact"
        columns={BALANCE_COLUMNS}
        read={internal}
        onOpen={(a) => go('internal-accounts', a.id)}
        loadingLabel="internal accounts"
        empty={<p className="muted">No internal accounts.</p>}
      />

      <h3>External accounts</h3>
      <LoadedTable
        label="Customer external accounts"
        variant="compact"
        columns={EXTERNAL_COLUMNS}
        read={external}
        onOpen={(a) => go('external-accounts', a.id)}
        loadingLabel="external accounts"
        empty={<p className="muted">No external accounts. Add one (above) to pay this customer out.</p>}
      />

      <h3>Recent payments</h3>
      <LoadedTable
        label="Customer recent payments"
        variant="compact"
        columns={PAYMENT_COLUMNS}
        read={transactions}
        onOpen={(t) => go('transactions', t.id)}
        loadingLabel="payments"
        empty={<p className="muted">No payments yet.</p>}
      />
    </div>
  )
}
