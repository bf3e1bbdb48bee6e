import { useEffect, useMemo, useRef, useState } from 'react'
import type { ExternalAccount, InternalAccount, Transaction } from '../../../../shared/api'
import type { TransferRecord } from '../../../../shared/ipc/channels/data'
import type { IpcError } from '../../../../shared/ipc/define'
import { formatMoney } from '../../../../shared/format/money'
import { paydesk } from '../../bridge/paydesk'
import { useDataVersion } from '../../stores/data-version'
import { activeProfile, useProfiles } from '../../stores/profiles'
import { useUi } from '../../stores/ui'
import { Id, StatusChip } from '../../ui/atoms'
import { Field } from '../../ui/Field'
import { checkAmount, currencyOf, MoneyField } from '../../ui/MoneyField'
import { useChannel } from '../../ui/query'
import { transactionTone } from '../../ui/status'
import { ActionResult } from '../../ui/view-states'
import { accountTypeName, describeAccount, lastDigits } from '../external-accounts/describe'
import { TransferCheck } from './TransferCheck'

/** What a failed send means for the operator, beside main's own sentence. */
const NEXT_STEP: Record<string, string> = {
  OFFLINE: 'Trying again is safe: it reuses this payment’s key, so the money cannot go out twice.',
  TIMEOUT: 'Trying again is safe: it reuses this payment’s key, so the money cannot go out twice.',
  UNREACHABLE: 'Trying again is safe: it reuses this payment’s key, so the money cannot go out twice.',
  SERVICE_ERROR: 'Trying again is safe: it reuses this payment’s key, so the money cannot go out twice.',
  RATE_LIMITED: 'Wait a moment, then try again: it reuses this payment’s key.',
  CONFLICT: 'The service refused this payment as it stands. Go back and change it rather than retrying.',
  INVALID_INPUT: 'Go back and correct the payment.',
  CONFIRMATION_REQUIRED: 'Confirm the production payment below, then send.'
}

export interface ResumeTransfer {
  actionId: string
  sourceAccountId: string
  destinationAccountId: string
  amount: number
  /** Past it, the service may have forgotten the key: the review asks for a check at the service instead. */
  keyExpiresAt?: string
}

/** One payment as the operator reviews it: its action id (and key) is kept for as long as this stays the same. */
const paymentOf = (source: string, destination: string, amount: number) => `${source}\n${destination}\n${amount}`

export function accountLabel(a: InternalAccount, customerNames: Map<string, string>): string {
  const owner = a.customerId ? (customerNames.get(a.customerId) ?? 'Customer') : 'Platform'
  const currency = currencyOf(a.balance.currency)
  const balance = currency
    ? formatMoney(a.balance.amount, currency, { showCode: true })
    : `${a.balance.amount} minor units`
  return `${owner} · ${a.balance.currency.code} · ${balance}`
}

/**
 * Transfer-out: source internal account, an ACTIVE external account of the same currency, an amount typed by a
 * person, then a review step whose button says exactly what it does. One actionId per review (per operator action),
 * reused by every retry of it, so main sends the same Idempotency-Key and a retry can never pay twice. On a
 * production profile the review asks a second time.
 */
export function SendMoney(props: {
  accounts: InternalAccount[]
  customerNames: Map<string, string>
  sourceId: string | null
  resume?: ResumeTransfer | null
  onClose(): void
  onSent(): void
}) {
  const versions = useDataVersion((s) => s.versions)
  const production = useProfiles((s) => activeProfile(s.list)?.environment === 'production')
  const go = useUi((s) => s.go)
  const resume = props.resume ?? null
  const [sourceId, setSourceId] = useState(resume?.sourceAccountId ?? props.sourceId ?? props.accounts[0]?.id ?? '')
  const [destinationId, setDestinationId] = useState(resume?.destinationAccountId ?? '')
  const source = props.accounts.find((a) => a.id === sourceId)
  const currency = source ? currencyOf(source.balance.currency) : undefined
  const [amountText, setAmountText] = useState('')
  const [amountLeft, setAmountLeft] = useState(false)
  const [tried, setTried] = useState(false)
  const [step, setStep] = useState<'edit' | 'review' | 'done'>(resume ? 'review' : 'edit')
  /** The key of this operator action: made when the review opens, kept for every retry of it. */
  const [actionId, setActionId] = useState<string | null>(resume?.actionId ?? null)
  // Read once when the review opens (a render must not read the clock).
  const [resumeExpired] = useState(
    () => resume?.keyExpiresAt !== undefined && Date.parse(resume.keyExpiresAt) <= Date.now()
  )
  const [keyedPayment, setKeyedPayment] = useState<string | null>(
    resume ? paymentOf(resume.sourceAccountId, resume.destinationAccountId, resume.amount) : null
  )
  const [realMoney, setRealMoney] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<IpcError | null>(null)
  const [sent, setSent] = useState<{ transaction: Transaction; record: TransferRecord } | null>(null)
  const reviewRef = useRef<HTMLDivElement>(null)

  const destinations = useChannel(
    'externalAccounts.query',
    {
      status: 'ACTIVE',
      currency: source?.balance.currency.code,
      limit: 500,
      ...(source?.customerId ? { customerId: source.customerId } : {})
    },
    versions.externalAccounts,
    !!source
  )
  const options: ExternalAccount[] = useMemo(() => destinations.data?.rows ?? [], [destinations.data])
  const destination = options.find((a) => a.id === destinationId)

  useEffect(() => {
    if (step === 'review') reviewRef.current?.scrollIntoView({ block: 'nearest' })
  }, [step])

  const check =
    amountText.trim() || tried
      ? checkAmount(
          amountText,
          currency,
          source
            ? {
                max: source.balance.amount,
                maxText: `More than this account holds (${currency ? formatMoney(source.balance.amount, currency) : source.balance.amount})`
              }
            : {}
        )
      : null
  const amount = resume && step !== 'edit' ? resume.amount : check?.ok ? check.amount : null
  const amountDisplay = amount !== null && currency ? formatMoney(amount, currency) : ''
  const to = destination ? lastDigits(destination) || describeAccount(destination) : ''
  const sendLabel = `Send ${amountDisplay} to ${to}`

  const review = () => {
    setTried(true)
    if (!source || !destination || !check?.ok) return
    // Back and review again with the same payment: the same action, so the same key; a changed payment is a new one.
    const payment = paymentOf(source.id, destination.id, check.amount)
    if (!actionId || keyedPayment !== payment) {
      setActionId(crypto.randomUUID())
      setKeyedPayment(payment)
    }
    setRealMoney(false)
    setError(null)
    setStep('review')
  }

  const send = async () => {
    if (!actionId || amount === null || !source || !destination) return
    setBusy(true)
    const result = await paydesk.invoke('transfers.send', {
      actionId,
      sourceAccountId: source.id as `InternalAccount:${string}`,
      destinationAccountId: destination.id as `ExternalAccount:${string}`,
      amount,
      ...(production ? { confirmProduction: true } : {})
    })
    setBusy(false)
    if (!result.ok) {
      setError(result.error)
      props.onSent()
      return
    }
    setError(null)
    setSent({ transaction: result.value.transaction, record: result.value.record })
    setStep('done')
    props.onSent()
  }

  const settled = (result: { transaction: Transaction; record: TransferRecord }) => {
    setError(null)
    setSent(result)
    setStep('done')
    props.onSent()
  }
  const expiredResume = resumeExpired && actionId === resume?.actionId
  const needsCheck = error?.code === 'CHECK_REQUIRED' || (expiredResume && error === null)
  // Main refused a new payment identical to one whose outcome is unknown: that one is reviewed and retried instead.
  const twinActionId = error?.code === 'CONFLICT' ? error.actionId : undefined
  const retryTwin = () => {
    if (!twinActionId) return
    setActionId(twinActionId)
    setError(null)
  }

  const restart = () => {
    setStep('edit')
    setActionId(null)
    setKeyedPayment(null)
    setAmountText('')
    setTried(false)
    setAmountLeft(false)
    setSent(null)
    setError(null)
  }

  return (
    <div className="detail send-money" data-testid="send-money">
      <div className="panel-head">
        <h2 id="send-title">Send money</h2>
        <button className="icon" aria-label="Close send money" onClick={props.onClose}>
          ×
        </button>
      </div>
      {step === 'done' && sent ? (
        <div className="review review-done" role="status" aria-label="Payment sent">
          <h3>
            {amountDisplay} to {destination ? describeAccount(destination) : to}
          </h3>
          <p>The service accepted the payment.</p>
          <dl className="facts">
            <dt>Transaction</dt>
            <dd>
              <Id value={sent.transaction.id} />
            </dd>
            <dt>Status</dt>
            <dd>
              <StatusChip
                value={sent.transaction.status}
                tone={transactionTone(sent.transaction.status, sent.transaction.type)}
              />
            </dd>
            <dt>Request key</dt>
            <dd>
              <Id value={sent.record.actionId} />
            </dd>
          </dl>
          <div className="row">
            <button onClick={() => go('transactions', sent.transaction.id)}>Open in Transactions</button>
            <button onClick={restart}>Send another</button>
          </div>
        </div>
      ) : (
        <form
          className="form form-in-pane"
          aria-labelledby="send-title"
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            review()
          }}
        >
          <fieldset disabled={step === 'review'} className="plain">
            <Field id="send-source" label="From internal account">
              <select id="send-source" value={sourceId} onChange={(e) => setSourceId(e.target.value)}>
                {props.accounts.map((a) => (
                  <option key={a.id} value={a.id}>
                    {accountLabel(a, props.customerNames)}
                  </option>
                ))}
              </select>
            </Field>
            <Field
              id="send-destination"
              label="To external account"
              error={
                tried && !destination
                  ? `Choose an ACTIVE ${source?.balance.currency.code ?? ''} account to pay`
                  : undefined
              }
              hint={`Only ACTIVE accounts in ${source?.balance.currency.code ?? 'this currency'} can receive payments`}
            >
              <select
                id="send-destination"
                value={destination ? destinationId : ''}
                onChange={(e) => setDestinationId(e.target.value)}
              >
                <option value="">
                  {destinations.loading
                    ? 'Loading accounts…'
                    : options.length
                      ? 'Choose an account'
                      : `No ACTIVE ${source?.balance.currency.code ?? ''} account`}
                </option>
                {options.map((a) => (
                  <option key={a.id} value={a.id}>
                    {describeAccount(a)}
                    {a.customerId ? '' : ' (platform)'}
                  </option>
                ))}
              </select>
            </Field>
            <MoneyField
              id="send-amount"
              label="Amount"
              currency={currency}
              value={amountText}
              onChange={setAmountText}
              check={check}
              showError={amountLeft || tried}
              onBlur={() => setAmountLeft(true)}
            />
          </fieldset>
          {step === 'edit' && (
            <div className="row">
              <button type="submit" className="primary">
                Review payment
              </button>
              <button type="button" onClick={props.onClose}>
                Cancel
              </button>
            </div>
          )}
        </form>
      )}

      {step === 'review' && source && destination && amount !== null && (
        <div className="review" role="group" aria-label="Review payment" ref={reviewRef}>
          <h3>Review payment</h3>
          <p className="review-amount">{amountDisplay}</p>
          <dl className="facts">
            <dt>From</dt>
            <dd>{accountLabel(source, props.customerNames)}</dd>
            <dt>To</dt>
            <dd>
              {describeAccount(destination)}
              <br />
              <span className="muted">
                {accountTypeName(destination.accountInfo.accountType)}
                {destination.accountInfo.bankName ? ` · ${destination.accountInfo.bankName}` : ''} ·{' '}
                <Id value={destination.id} />
              </span>
            </dd>
            <dt>Request key</dt>
            <dd>
              <Id value={actionId} />
            </dd>
          </dl>
          {production && (
            <label className="confirm-twice">
              <input type="checkbox" checked={realMoney} onChange={(e) => setRealMoney(e.target.checked)} />I am sending
              real money: {amountDisplay} leaves {source.customerId ? 'this customer’s' : 'the platform’s'} account and
              cannot be called back.
            </label>
          )}
          {error && error.code !== 'CHECK_REQUIRED' && (
            <ActionResult ok={false} code={error.serviceCode ?? error.code}>
              {error.message} {NEXT_STEP[error.code] ?? ''}
            </ActionResult>
          )}
          {needsCheck && actionId && (
            <TransferCheck actionId={actionId} production={production} realMoney={realMoney} onSettled={settled} />
          )}
          <div className="row">
            {twinActionId ? (
              <button className="primary" onClick={retryTwin}>
                Review and retry that payment
              </button>
            ) : (
              !needsCheck && (
                <button className="primary" disabled={busy || (production && !realMoney)} onClick={() => void send()}>
                  {busy ? 'Sending…' : error ? `Try again: ${sendLabel}` : sendLabel}
                </button>
              )
            )}
            <button disabled={busy} onClick={() => (resume ? props.onClose() : setStep('edit'))}>
              {resume ? 'Close' : 'Back: change the payment'}
            </button>
          </div>
        </div>
      )}
    </div>
  )
}
