import { useEffect, useMemo, useRef, useState } from 'react'
import type { ExternalAccount, InternalAccount, Transaction } from '../../../../shared/api'
import { TransferSendInput, type TransferRecord } from '../../../../shared/ipc/channels/data'
import { formatMoney } from '../../../../shared/format/money'
import { useActiveProfile } from '../../data/profiles'
import { useUi } from '../../stores/ui'
import { Id } from '../../ui/atoms'
import { amountMessage, amountOf, currencyOf, MoneyField } from '../../ui/MoneyField'
import { useFlatForm } from '../../ui/flat-form'
import { FailedAction, FormFrame } from '../../ui/form-submit'
import { useChannelMutation, useChannelQuery } from '../../data/channel-query'
import { invalidateChannels } from '../../data/query-client'
import { accountTypeName, describeAccount, lastDigits } from '../external-accounts/describe'
import { ReviewFigures, SentPayment } from './PaymentFigures'
import { TransferCheck } from './TransferCheck'
import { accountLabel, ExternalAccountSelect, InternalAccountSelect } from './account-selects'

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
}

/** The payment boxes, checked by the channel's own schema; the action id and the confirmation come at the review. */
const PaymentBoxes = TransferSendInput.omit({ actionId: true, confirmProduction: true })

/** One payment as the operator reviews it: its action id (and key) is kept for as long as this stays the same. */
const paymentOf = (source: string, destination: string, amount: number) => `${source}\n${destination}\n${amount}`

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
}) {
  const production = useActiveProfile()?.environment === 'production'
  const go = useUi((s) => s.go)
  const resume = props.resume ?? null
  const [step, setStep] = useState<'edit' | 'review' | 'done'>(resume ? 'review' : 'edit')
  /** The key of this operator action: made when the review opens, kept for every retry of it. */
  const [actionId, setActionId] = useState<string | null>(resume?.actionId ?? null)
  const [keyedPayment, setKeyedPayment] = useState<string | null>(
    resume ? paymentOf(resume.sourceAccountId, resume.destinationAccountId, resume.amount) : null
  )
  const [realMoney, setRealMoney] = useState(false)
  const [sent, setSent] = useState<{ transaction: Transaction; record: TransferRecord } | null>(null)
  const sending = useChannelMutation('transfers.send', { invalidates: ['transfers.journal'] })
  const { busy, error } = sending
  const reviewRef = useRef<HTMLDivElement>(null)

  // The source picks which accounts can be paid, so it is chosen before the payment's other boxes are checked.
  const [sourceId, setSourceId] = useState(resume?.sourceAccountId ?? props.sourceId ?? props.accounts[0]?.id ?? '')
  const source = props.accounts.find((a) => a.id === sourceId)
  const currency = source ? currencyOf(source.balance.currency) : undefined
  const limits = source
    ? {
        max: source.balance.amount,
        maxText: `More than this account holds (${currency ? formatMoney(source.balance.amount, currency) : source.balance.amount})`
      }
    : {}
  const destinations = useChannelQuery(
    'externalAccounts.query',
    {
      status: 'ACTIVE',
      currency: source?.balance.currency.code,
      limit: 500,
      ...(source?.customerId ? { customerId: source.customerId } : {})
    },
    { enabled: !!source }
  )
  const options: ExternalAccount[] = useMemo(() => destinations.data?.rows ?? [], [destinations.data])
  const form = useFlatForm(
    PaymentBoxes,
    { destinationAccountId: resume?.destinationAccountId ?? '', amount: '' },
    {
      toInput: (v) => ({ ...v, sourceAccountId: sourceId, amount: amountOf(v['amount'] ?? '', currency) }),
      checks: (v, submitted) => ({
        destinationAccountId: options.some((a) => a.id === v['destinationAccountId'])
          ? undefined
          : `Choose an ACTIVE ${source?.balance.currency.code ?? ''} account to pay`,
        amount: amountMessage(v['amount'] ?? '', currency, submitted, limits)
      })
    }
  )
  const destination = options.find((a) => a.id === form.values['destinationAccountId'])

  useEffect(() => {
    if (step === 'review') reviewRef.current?.scrollIntoView({ block: 'nearest' })
  }, [step])

  const typed = amountOf(form.values['amount'] ?? '', currency)
  const amount = resume && step !== 'edit' ? resume.amount : (typed ?? null)
  const amountDisplay = amount !== null && currency ? formatMoney(amount, currency) : ''
  const to = destination ? lastDigits(destination) || describeAccount(destination) : ''
  const sendLabel = `Send ${amountDisplay} to ${to}`

  const review = () => {
    const payment = form.submit()
    if (!payment) return
    // Back and review again with the same payment: the same action, so the same key; a changed payment is a new one.
    const key = paymentOf(payment.sourceAccountId, payment.destinationAccountId, payment.amount)
    if (!actionId || keyedPayment !== key) {
      setActionId(crypto.randomUUID())
      setKeyedPayment(key)
    }
    setRealMoney(false)
    sending.clear()
    setStep('review')
  }

  const send = async () => {
    if (!actionId || amount === null || !source || !destination) return
    const result = await sending.run({
      actionId,
      sourceAccountId: source.id as `InternalAccount:${string}`,
      destinationAccountId: destination.id as `ExternalAccount:${string}`,
      amount,
      ...(production ? { confirmProduction: true } : {})
    })
    if (result.ok) settled(result.value)
  }

  const settled = (result: { transaction: Transaction; record: TransferRecord }) => {
    sending.clear()
    setSent(result)
    setStep('done')
    void invalidateChannels(['transfers.journal'])
  }
  // Main looked the payment up before retrying it and found something like it (or wants a look-up first).
  const needsCheck = error?.code === 'CHECK_REQUIRED'
  // Main refused a new payment identical to one whose outcome is unknown: that one is reviewed and retried instead.
  const twinActionId = error?.code === 'CONFLICT' ? error.actionId : undefined
  const retryTwin = () => {
    if (!twinActionId) return
    setActionId(twinActionId)
    sending.clear()
  }

  const restart = () => {
    setStep('edit')
    setActionId(null)
    setKeyedPayment(null)
    form.reset({ ...form.values, amount: '' })
    setSent(null)
    sending.clear()
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
          <SentPayment sent={sent} source={source} currency={currency} />
          <div className="row">
            <button onClick={() => go('transactions', sent.transaction.id)}>Open in Transactions</button>
            <button onClick={restart}>Send another</button>
          </div>
        </div>
      ) : (
        <FormFrame className="form form-in-pane" labelledBy="send-title" onSubmit={review}>
          <fieldset disabled={step === 'review'} className="plain">
            <InternalAccountSelect
              id="send-source"
              label="From internal account"
              accounts={props.accounts}
              customerNames={props.customerNames}
              value={sourceId}
              onChange={setSourceId}
            />
            <ExternalAccountSelect
              id="send-destination"
              error={form.error('destinationAccountId')}
              hint={`Only ACTIVE accounts in ${source?.balance.currency.code ?? 'this currency'} can receive payments`}
              loading={destinations.loading}
              options={options}
              value={destination ? destination.id : ''}
              onChange={(id) => form.set('destinationAccountId', id)}
              none={`No ACTIVE ${source?.balance.currency.code ?? ''} account`}
              optionLabel={(a) => `${describeAccount(a)}${a.customerId ? '' : ' (platform)'}`}
            />
            <MoneyField form={form} name="amount" id="send-amount" label="Amount" currency={currency} limits={limits} />
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
        </FormFrame>
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
          {currency && <ReviewFigures amount={amount} source={source} currency={currency} />}
          {production && (
            <label className="confirm-twice">
              <input type="checkbox" checked={realMoney} onChange={(e) => setRealMoney(e.target.checked)} />I am sending
              real money: {amountDisplay} leaves {source.customerId ? 'this customer’s' : 'the platform’s'} account and
              cannot be called back.
            </label>
          )}
          {error?.code !== 'CHECK_REQUIRED' && (
            <FailedAction error={error}> {NEXT_STEP[error?.code ?? ''] ?? ''}</FailedAction>
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
