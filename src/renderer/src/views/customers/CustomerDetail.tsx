import type { ReactNode } from 'react'
import type { Address } from '../../../../shared/api'
import { useUi } from '../../stores/ui'
import { ErrorNotice, Id, Money, StatusChip, Time } from '../../ui/atoms'
import { useChannelQuery } from '../../data/channel-query'
import { externalAccountTone, kycTone, transactionTone } from '../../ui/status'
import { Freshness, SkeletonRows } from '../../ui/view-states'
import { accountTypeName, lastDigits } from '../external-accounts/describe'
import { headlineAmount } from '../transactions/amount'

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

export function CustomerDetail({ id, onClose }: { id: string; onClose(): void }) {
  const go = useUi((s) => s.go)
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
      {internal.loading && !internal.data ? (
        <SkeletonRows label="internal accounts" />
      ) : internal.error && !internal.data ? (
        <ErrorNotice error={internal.error} onRetry={internal.reload} />
      ) : internal.data?.rows.length ? (
        <table className="table compact" aria-label="Customer internal accounts">
          <tbody>
            {internal.data.rows.map((a) => (
              <tr key={a.id} className="clickable" onClick={() => go('internal-accounts', a.id)}>
                <td>
                  <Id value={a.id} />
                </td>
                <td className="num">
                  <Money amount={a.balance.amount} currency={a.balance.currency} showCode />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No internal accounts.</p>
      )}

      <h3>External accounts</h3>
      {external.loading && !external.data ? (
        <SkeletonRows label="external accounts" />
      ) : external.error && !external.data ? (
        <ErrorNotice error={external.error} onRetry={external.reload} />
      ) : external.data?.rows.length ? (
        <table className="table compact" aria-label="Customer external accounts">
          <tbody>
            {external.data.rows.map((a) => (
              <tr key={a.id} className="clickable" onClick={() => go('external-accounts', a.id)}>
                <td>
                  {accountTypeName(a.accountInfo.accountType)} <span className="mono">{lastDigits(a)}</span>
                </td>
                <td>{a.currency}</td>
                <td>
                  <StatusChip value={a.status} tone={externalAccountTone(a.status)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No external accounts. Add one under External accounts to pay this customer out.</p>
      )}

      <h3>Recent payments</h3>
      {transactions.loading && !transactions.data ? (
        <SkeletonRows label="payments" />
      ) : transactions.error && !transactions.data ? (
        <ErrorNotice error={transactions.error} onRetry={transactions.reload} />
      ) : transactions.data?.rows.length ? (
        <table className="table compact" aria-label="Customer recent payments">
          <tbody>
            {transactions.data.rows.map((t) => {
              const amount = headlineAmount(t)
              return (
                <tr key={t.id} className="clickable" onClick={() => go('transactions', t.id)}>
                  <td>{t.type === 'INCOMING' ? '↓ In' : t.type === 'OUTGOING' ? '↑ Out' : t.type}</td>
                  <td className="num">
                    {amount ? <Money amount={amount.amount} currency={amount.currency} showCode /> : '—'}
                  </td>
                  <td>
                    <StatusChip value={t.status} tone={transactionTone(t.status, t.type)} />
                  </td>
                  <td>
                    <Time iso={'createdAt' in t ? (t.createdAt as string | undefined) : undefined} />
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      ) : (
        <p className="muted">No payments yet.</p>
      )}
    </div>
  )
}
