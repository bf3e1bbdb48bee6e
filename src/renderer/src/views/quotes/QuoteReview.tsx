import { useState } from 'react'
import type { InternalAccount, Quote } from '../../../../shared/api'
import type { QuoteExecuteResult } from '../../../../shared/ipc/channels/quotes'
import { formatMoney } from '../../../../shared/format/money'
import { formatClock } from '../../format/time'
import { useUi } from '../../stores/ui'
import { Id, StatusChip, Time } from '../../ui/atoms'
import { paymentStatusSentence, quoteStanding } from '../../../../shared/payment-status'
import { currencyOf } from '../../ui/MoneyField'
import { useChannelMutation, useChannelQuery } from '../../data/channel-query'
import { transactionTone } from '../../ui/status'
import { ActionResult, useNow } from '../../ui/view-states'

/** Failures after which the outcome is not known: retrying the same action (same key) is the way to learn it. */
const UNKNOWN_OUTCOME = new Set(['OFFLINE', 'TIMEOUT', 'UNREACHABLE', 'SERVICE_ERROR', 'RATE_LIMITED'])

const money = (amount: number | undefined, currency: Quote['sendingCurrency']) => {
  const c = currency ? currencyOf(currency) : undefined
  return amount === undefined || !c ? `${amount ?? '—'} ${currency?.code ?? ''}`.trim() : formatMoney(amount, c)
}

function countdown(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}

/**
 * A quote as the operator reviews it: rate, fees, both totals and a live countdown to expiresAt. An expired quote
 * cannot be executed; it offers a new one. Executing uses one action id (one Idempotency-Key) for this review, reused
 * by every retry; on a production profile it asks a second time.
 */
export function QuoteReview(props: {
  quote: Quote
  actionId: string
  /** A journal record whose outcome is unknown: the retry is to learn it, so the quote's expiry does not block it. */
  resumed: boolean
  production: boolean
  /** The account the quote pays from, as last synced: the balance after is read from it. */
  source?: InternalAccount | undefined
  /** The destination account as the operator knows it (holder, kind, last digits), when it is in the cache. */
  destinationName?: string | undefined
  renewing: boolean
  onNewQuote(): void
  onClose(): void
}) {
  const { quote } = props
  const now = useNow(1_000)
  const go = useUi((s) => s.go)
  const [realMoney, setRealMoney] = useState(false)
  const executing = useChannelMutation('quotes.execute', { invalidates: ['transfers.journal'] })
  const { busy, error } = executing
  const [result, setResult] = useState<QuoteExecuteResult | null>(null)
  const transactionId = result?.record.transactionId
  // The payment is followed live: sync polls the operator's payments, and the data version moves with each change.
  const live = useChannelQuery(
    'transactions.get',
    { id: transactionId as `Transaction:${string}` },
    { enabled: !!transactionId }
  )
  const transaction = live.data?.transaction ?? result?.transaction ?? null

  // The quote the service answered the execution with, once there is one: it says it was executed.
  const shown = result?.quote ?? quote
  const expiresAt = quote.expiresAt ? Date.parse(quote.expiresAt) : NaN
  const expired = quote.status === 'EXPIRED' || error?.serviceCode === 'QUOTE_EXPIRED' || expiresAt <= now
  // One status: before execution the quote's own; after, its payment's live one (never a stale "ready" beside it).
  const paymentStatus = transaction?.status ?? result?.record.transactionStatus ?? (result ? 'PENDING' : null)
  const standing = quoteStanding({ status: String(shown.status), pastExpiry: expired, paymentStatus })
  const figures =
    props.source && quote.totalSendingAmount !== undefined
      ? { total: quote.totalSendingAmount, balance: props.source.balance.amount }
      : null
  const unknown = error !== null && UNKNOWN_OUTCOME.has(error.code)
  const canExecute = !result && (props.resumed || unknown || !expired)
  const sending = money(quote.totalSendingAmount, quote.sendingCurrency)
  const executeLabel = unknown || props.resumed ? `Review and retry: send ${sending}` : `Execute: send ${sending}`

  const execute = async () => {
    const r = await executing.run({
      actionId: props.actionId,
      quoteId: quote.id,
      ...(props.production && { confirmProduction: true })
    })
    if (r.ok) setResult(r.value)
  }

  return (
    <div className="review" role="group" aria-label="Review quote">
      <div className="panel-head">
        <h3 data-testid="quote-standing">Quote · {standing.title}</h3>
        <button className="icon" aria-label="Close quote" onClick={props.onClose}>
          ×
        </button>
      </div>
      <p className="review-amount">{sending}</p>
      <dl className="facts">
        <dt>They receive</dt>
        <dd>{money(quote.totalReceivingAmount, quote.receivingCurrency)}</dd>
        <dt>Fee (included in what you send)</dt>
        <dd data-testid="quote-fee">{money(quote.feesIncluded, quote.sendingCurrency)}</dd>
        <dt>Total debit</dt>
        <dd data-testid="quote-total">{sending}</dd>
        {figures && (
          <>
            <dt>Balance after</dt>
            <dd data-testid="quote-balance-after">
              {money(figures.balance - figures.total, quote.sendingCurrency)}{' '}
              <span className="muted">of {money(figures.balance, quote.sendingCurrency)} now</span>
            </dd>
          </>
        )}
        <dt>Expected arrival</dt>
        <dd>
          {transaction?.settledAt && typeof transaction.settledAt === 'string' ? (
            <>
              Settled <Time iso={transaction.settledAt} />
            </>
          ) : (
            'The service gives no arrival time for a quote; its payment is followed here until final'
          )}
        </dd>
        <dt>Rate</dt>
        <dd>
          {quote.exchangeRate !== undefined
            ? `1 ${quote.receivingCurrency?.code ?? ''} = ${quote.exchangeRate} ${quote.sendingCurrency?.code ?? ''}`
            : '—'}
        </dd>
        <dt>To</dt>
        <dd>{quote.destination?.umaAddress ?? props.destinationName ?? <Id value={quote.destination?.accountId} />}</dd>
        <dt>Quote</dt>
        <dd>
          <Id value={quote.id} />{' '}
          {standing.kind === 'executed' || standing.kind === 'other' ? (
            <StatusChip value={standing.status} tone={transactionTone(standing.status)} />
          ) : (
            <StatusChip
              value={standing.kind === 'expired' ? 'EXPIRED' : String(quote.status)}
              tone={standing.kind === 'expired' ? 'bad' : 'neutral'}
            />
          )}
        </dd>
        <dt>Expires</dt>
        <dd>
          {quote.expiresAt ? formatClock(quote.expiresAt) : '—'}
          {!result && !Number.isNaN(expiresAt) && (
            <span className="muted" role="timer" aria-label="Time left on this quote">
              {' '}
              · {expired ? 'expired' : `expires in ${countdown(expiresAt - now)}`}
            </span>
          )}
        </dd>
        <dt>Request key</dt>
        <dd>
          <Id value={props.actionId} />
        </dd>
      </dl>
      {result ? (
        <div className="review-done" role="status" aria-label="Quote executed">
          <p>
            The service executed the quote.{' '}
            {paymentStatus && <span className="muted">{paymentStatusSentence('Quote payment', paymentStatus)}</span>}
          </p>
          <dl className="facts">
            <dt>Transaction</dt>
            <dd>
              <Id value={transactionId} />
            </dd>
            <dt>Status</dt>
            <dd data-testid="quote-payment-status">
              <StatusChip
                value={transaction?.status ?? result.record.transactionStatus ?? 'PENDING'}
                tone={transactionTone(transaction?.status ?? '')}
              />
            </dd>
          </dl>
          <div className="row">
            {transactionId && <button onClick={() => go('transactions', transactionId)}>Open in Transactions</button>}
            <button onClick={props.onClose}>Get another quote</button>
          </div>
        </div>
      ) : (
        <>
          {expired && !canExecute && (
            <ActionResult ok={false} code="QUOTE_EXPIRED">
              This quote expired and can no longer be executed. Get a new one at the current rate.
            </ActionResult>
          )}
          {error && !(expired && error.serviceCode === 'QUOTE_EXPIRED') && (
            <ActionResult ok={false} code={error.serviceCode ?? error.code}>
              {unknown ? 'Outcome unknown. ' : ''}
              {error.message}
            </ActionResult>
          )}
          {props.production && canExecute && (
            <label className="confirm-twice">
              <input type="checkbox" checked={realMoney} onChange={(e) => setRealMoney(e.target.checked)} />I am sending
              real money: {sending} leaves the account and cannot be called back.
            </label>
          )}
          <div className="row">
            {canExecute ? (
              <button
                className="primary"
                disabled={busy || (props.production && !realMoney)}
                onClick={() => void execute()}
              >
                {busy ? 'Executing…' : executeLabel}
              </button>
            ) : (
              <button className="primary" disabled={props.renewing} onClick={props.onNewQuote}>
                {props.renewing ? 'Asking for a new quote…' : 'Get a new quote'}
              </button>
            )}
          </div>
        </>
      )}
    </div>
  )
}
