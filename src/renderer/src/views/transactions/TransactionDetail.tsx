import type { ReactNode } from 'react'
import { rateDetailLines } from '../../../../shared/format/fees'
import type { Transaction } from '../../../../shared/api'
import { Id, Money, StatusChip, Time, ErrorNotice } from '../../ui/atoms'
import { useChannelQuery } from '../../data/channel-query'
import { Named } from '../../ui/Named'
import type { Names } from '../../../../shared/labels'
import { FAILURE_REASON_TEXT, transactionTone } from '../../ui/status'
import { Freshness } from '../../ui/view-states'
import { headlineAmount } from './amount'
import { StatusTimeline } from './StatusTimeline'

type Loose = Record<string, unknown>

/** Fields this view lays out itself; anything else the service sends is listed verbatim under "Other fields". */
const KNOWN_FIELDS = new Set([
  'id',
  'status',
  'type',
  'destination',
  'source',
  'customerId',
  'platformCustomerId',
  'settledAt',
  'createdAt',
  'updatedAt',
  'description',
  'counterpartyInformation',
  'rateDetails',
  'failureReason',
  'receivedAmount',
  'sentAmount',
  'exchangeRate',
  'fees',
  'quoteId',
  'paymentInstructions',
  'refund',
  'reconciliationInstructions'
])

export function TransactionDetail({ id, onClose }: { id: string; onClose(): void }) {
  const query = useChannelQuery('transactions.get', { id })
  if (query.error && !query.data) return <ErrorNotice error={query.error} onRetry={query.reload} />
  if (!query.data) return <div className="skeleton-rows" aria-busy="true" />
  const t = query.data.transaction
  if (!t) {
    return (
      <div className="state">
        <p>This transaction is not in the cache yet. It will appear once the service reports it.</p>
        <button onClick={onClose}>Close</button>
      </div>
    )
  }
  return <TransactionFacts t={t} names={query.data.names} syncedAt={query.data.syncedAt} onClose={onClose} />
}

function TransactionFacts({
  t,
  names,
  syncedAt,
  onClose
}: {
  t: Transaction
  names: Names
  syncedAt: string | null
  onClose(): void
}) {
  const loose = t as Loose
  const amount = headlineAmount(t)
  const failure = typeof loose['failureReason'] === 'string' ? (loose['failureReason'] as string) : undefined
  const rows: Array<[string, ReactNode]> = [
    ['Status', <StatusChip key="s" value={t.status} tone={transactionTone(t.status)} />],
    ['Direction', t.type === 'INCOMING' ? 'Incoming' : t.type === 'OUTGOING' ? 'Outgoing' : t.type],
    ['Amount', amount ? <Money amount={amount.amount} currency={amount.currency} showCode /> : '—']
  ]
  if (t.type === 'OUTGOING' && loose['receivedAmount']) {
    const received = loose['receivedAmount'] as { amount: number; currency: { code: string; decimals?: number } }
    rows.push(['Recipient gets', <Money key="r" amount={received.amount} currency={received.currency} showCode />])
  }
  if (typeof loose['fees'] === 'number' && amount)
    rows.push(['Fees', <Money key="f" amount={loose['fees'] as number} currency={amount.currency} showCode />])
  if (typeof loose['exchangeRate'] === 'number') rows.push(['Exchange rate', String(loose['exchangeRate'])])
  rows.push(
    ['Customer', <Named key="c" id={loose['customerId'] as string | undefined} names={names} />],
    ['Platform customer id', (loose['platformCustomerId'] as string | undefined) ?? '—'],
    ['From', <Endpoint key="from" value={loose['source']} names={names} />],
    ['To', <Endpoint key="to" value={loose['destination']} names={names} />],
    ['Created', <Time key="ct" iso={loose['createdAt'] as string | undefined} />],
    ['Updated', <Time key="ut" iso={loose['updatedAt'] as string | undefined} />],
    ['Settled', <Time key="st" iso={loose['settledAt'] as string | undefined} />]
  )
  if (loose['description']) rows.push(['Description', String(loose['description'])])
  if (loose['quoteId']) rows.push(['Quote', <Id key="q" value={loose['quoteId'] as string} />])
  const reference = (loose['reconciliationInstructions'] as { reference?: string } | undefined)?.reference
  if (reference) rows.push(['Reference', <code key="ref">{reference}</code>])

  const rateDetails = loose['rateDetails'] as Loose | undefined
  const refund = loose['refund'] as Loose | undefined
  const counterparty = loose['counterpartyInformation'] as Loose | undefined
  const other = Object.entries(loose).filter(([k]) => !KNOWN_FIELDS.has(k))

  return (
    <div data-testid="transaction-detail">
      <div className="panel-head">
        <h2>
          <Id value={t.id} />
        </h2>
        <button onClick={onClose} aria-label="Esc: close detail">
          Esc
        </button>
      </div>
      {failure && (
        <p className="result result-bad" role="status">
          {FAILURE_REASON_TEXT[failure] ?? 'The payment failed.'} <code className="code">{failure}</code>
        </p>
      )}
      <dl className="facts">
        {rows.map(([label, value]) => (
          <FactRow key={label} label={label}>
            {value}
          </FactRow>
        ))}
      </dl>
      {rateDetails && Object.keys(rateDetails).length > 0 && (
        <>
          <h3>Rate and fees</h3>
          <dl className="facts">
            {rateDetailLines(rateDetails, amount?.currency).map((line) => (
              <FactRow key={line.key} label={line.label}>
                {line.value}
              </FactRow>
            ))}
          </dl>
        </>
      )}
      {refund && (
        <>
          <h3>Refund</h3>
          <dl className="facts">
            {Object.entries(refund).map(([k, v]) => (
              <FactRow key={k} label={k}>
                {String(v)}
              </FactRow>
            ))}
          </dl>
        </>
      )}
      {counterparty && Object.keys(counterparty).length > 0 && (
        <>
          <h3>Counterparty</h3>
          <dl className="facts">
            {Object.entries(counterparty).map(([k, v]) => (
              <FactRow key={k} label={k}>
                {typeof v === 'string' ? v : JSON.stringify(v)}
              </FactRow>
            ))}
          </dl>
        </>
      )}
      {other.length > 0 && (
        <>
          <h3>Other fields</h3>
          <dl className="facts">
            {other.map(([k, v]) => (
              <FactRow key={k} label={k}>
                <code>{typeof v === 'string' ? v : JSON.stringify(v)}</code>
              </FactRow>
            ))}
          </dl>
        </>
      )}
      <StatusTimeline id={t.id} />
      <p className="list-meta">
        <Freshness syncedAt={syncedAt} />
      </p>
    </div>
  )
}

function FactRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  )
}

function Endpoint({ value, names }: { value: unknown; names: Names }) {
  if (!value || typeof value !== 'object') return <span className="muted">—</span>
  const v = value as { accountId?: string; umaAddress?: string; currency?: string }
  return (
    <span>
      {v.accountId ? <Named id={v.accountId} names={names} /> : <span className="mono">{v.umaAddress ?? '—'}</span>}
      {/* A label already says the currency ("Jane Smith · USD"). */}
      {v.currency && !(v.accountId && names[v.accountId]) && <span className="muted"> · {v.currency}</span>}
    </span>
  )
}
