import type { InternalAccount, Transaction } from '../../../../shared/api'
import type { TransferRecord } from '../../../../shared/ipc/channels/data'
import { formatMoney, type CurrencyLike } from '../../../../shared/format/money'
import { useChannelQuery } from '../../data/channel-query'
import { Id, Time } from '../../ui/atoms'
import { PaymentStatus } from '../../ui/PaymentStatus'
import { durationWords, feeBasisFrom, reviewFigures, sentFigures } from './payment-figures'

/** Recent outgoing payments in a currency: where the review reads the fee the service charges on a transfer-out. */
const RECENT_OUTGOING = 25

/**
 * The review's money lines: the fee, what leaves the account in all, the balance after and the expected arrival. The
 * service states a transfer-out's fee only once it accepts it, so the fee shown is the one it charged on the latest
 * transfer-out in this currency, named as such; the result then shows this payment's own.
 */
export function ReviewFigures(props: { amount: number; source: InternalAccount; currency: CurrencyLike }) {
  const { amount, source, currency } = props
  const recent = useChannelQuery('transactions.query', {
    filter: { type: 'OUTGOING', currency: currency.code },
    sort: { field: 'createdAt', direction: 'desc' },
    offset: 0,
    limit: RECENT_OUTGOING
  })
  const basis = recent.data ? feeBasisFrom(recent.data.rows, currency.code, source.id) : null
  const figures = reviewFigures(amount, source.balance.amount, basis?.fee ?? null)
  const money = (n: number) => formatMoney(n, currency)
  if (!recent.data) {
    return (
      <p className="muted" aria-busy="true">
        Reading the fee the service charges…
      </p>
    )
  }
  return (
    <dl className="facts" data-testid="review-figures">
      <dt>Fee</dt>
      <dd data-testid="review-fee">
        {figures.fee !== null && basis ? (
          <>
            {money(figures.fee)}{' '}
            <span className="muted">
              as the service charged on the latest {currency.code} transfer-out (<Id value={basis.transactionId} />
              {basis.createdAt ? (
                <>
                  , <Time iso={basis.createdAt} />
                </>
              ) : null}
              ); it states this payment’s fee when it accepts it
            </span>
          </>
        ) : (
          <span className="muted">
            The service states the fee when it accepts the payment: no {currency.code} transfer-out shows one yet
          </span>
        )}
      </dd>
      <dt>Total debit</dt>
      <dd data-testid="review-total">
        {figures.totalDebit !== null ? money(figures.totalDebit) : `${money(amount)} plus the fee`}
      </dd>
      <dt>Balance after</dt>
      <dd data-testid="review-balance-after">
        {figures.balanceAfter !== null ? (
          <>
            {money(figures.balanceAfter)} <span className="muted">of {money(source.balance.amount)} now</span>
          </>
        ) : (
          `${money(source.balance.amount - amount)} less the fee`
        )}
      </dd>
      <dt>Expected arrival</dt>
      <dd data-testid="review-arrival">
        {basis?.tookMs != null
          ? `${durationWords(basis.tookMs)} after it is sent (the latest ${currency.code} transfer-out took that long)`
          : 'The service gives no arrival time before it accepts the payment; its status is followed here until final'}
      </dd>
    </dl>
  )
}

/**
 * The sent payment as it is now: its one live status (the cached transaction, which sync follows until final), the fee
 * and total the service debited, and the account's balance as it stands.
 */
export function SentPayment(props: {
  sent: { transaction: Transaction; record: TransferRecord }
  source: InternalAccount | undefined
  currency: CurrencyLike | undefined
}) {
  const { sent, source, currency } = props
  const live = useChannelQuery('transactions.get', { id: sent.transaction.id as `Transaction:${string}` })
  const transaction = live.data?.transaction ?? sent.transaction
  const { fee, totalDebit } = sentFigures(transaction)
  const settledAt = typeof transaction.settledAt === 'string' ? transaction.settledAt : undefined
  const money = (n: number | null) => (n === null ? '—' : currency ? formatMoney(n, currency) : `${n} minor units`)
  return (
    <dl className="facts">
      <dt>Status</dt>
      <dd>
        <PaymentStatus status={transaction.status} noun="Transfer" explain />
      </dd>
      <dt>Fee</dt>
      <dd data-testid="sent-fee">{money(fee)}</dd>
      <dt>Total debit</dt>
      <dd data-testid="sent-total">{money(totalDebit)}</dd>
      {source && (
        <>
          <dt>Balance now</dt>
          <dd data-testid="sent-balance">{money(source.balance.amount)}</dd>
        </>
      )}
      {settledAt && (
        <>
          <dt>Settled</dt>
          <dd>
            <Time iso={settledAt} />
          </dd>
        </>
      )}
      <dt>Transaction</dt>
      <dd>
        <Id value={transaction.id} />
      </dd>
      <dt>Request key</dt>
      <dd>
        <Id value={sent.record.actionId} />
      </dd>
    </dl>
  )
}
