import { useState } from 'react'
import {
  MAX_SANDBOX_FUNDING_AMOUNT,
  SANDBOX_SENDER_ADDRESSES,
  SandboxReceiveRequest,
  type InternalAccount,
  type Transaction
} from '../../../../shared/api'
import { channels } from '../../../../shared/ipc/contract'
import { formatMoney, KNOWN_DECIMALS, type CurrencyLike } from '../../../../shared/format/money'
import { useActiveProfile } from '../../data/profiles'
import { useUi } from '../../stores/ui'
import { ErrorNotice, Id, StatusChip } from '../../ui/atoms'
import { Field } from '../../ui/Field'
import { amountMessage, amountOf, checkAmount, currencyOf, MoneyField } from '../../ui/MoneyField'
import { useFlatForm } from '../../ui/flat-form'
import { FailedAction, FormFrame } from '../../ui/form-submit'
import { useChannelMutation, useChannelQuery } from '../../data/channel-query'
import { useCustomerNames } from '../customers/names'
import { transactionTone } from '../../ui/status'
import { ActionResult, EmptyState, Freshness, SkeletonRows } from '../../ui/view-states'
import { InternalAccountSelect } from '../internal-accounts/account-selects'
import { SendAgainstQuotePanel } from './SendAgainstQuote'
import { fundingOutcome, type FundingOutcome, type UnansweredFunding } from './funding-outcome'

/** What each test sender of the reference does (shared/reference/README.md). */
const SENDER_TEXT: Record<string, string> = {
  '$success.usd@sandbox.uma.money': 'succeeds (USD)',
  '$success.eur@sandbox.uma.money': 'succeeds (EUR)',
  '$success.mxn@sandbox.uma.money': 'succeeds (MXN)',
  '$pending.long.usd@sandbox.uma.money': 'stays pending a long time',
  '$fail.compliance.usd@sandbox.uma.money': 'fails compliance'
}
const RECEIVE_CURRENCIES = ['USD', 'EUR', 'MXN', 'GBP', 'BRL', 'BTC', 'USDC']

/** Sandbox funding's ceiling, said in the currency and in minor units. */
const fundingLimit = (currency: CurrencyLike | undefined) => ({
  max: MAX_SANDBOX_FUNDING_AMOUNT,
  maxText: `Sandbox funding is at most ${currency ? formatMoney(MAX_SANDBOX_FUNDING_AMOUNT, currency) : MAX_SANDBOX_FUNDING_AMOUNT} (${MAX_SANDBOX_FUNDING_AMOUNT.toLocaleString()} minor units)`
})

export function SandboxToolsView() {
  const environment = useActiveProfile()?.environment
  if (environment === 'production') {
    return (
      <section className="page" aria-labelledby="sandbox-title">
        <h1 id="sandbox-title">Sandbox tools</h1>
        <EmptyState title="Sandbox tools are only for sandbox profiles.">
          This is a production profile: funding accounts and simulated payments do not exist here. Switch to a sandbox
          profile to use them.
        </EmptyState>
      </section>
    )
  }
  return <SandboxTools />
}

function SandboxTools() {
  const accounts = useChannelQuery('internalAccounts.list', { scope: 'all' })
  const { customers, names: customerNames } = useCustomerNames()
  return (
    <section className="page" aria-labelledby="sandbox-title">
      <div className="page-head">
        <h1 id="sandbox-title">Sandbox tools</h1>
        {accounts.data && <Freshness syncedAt={accounts.data.syncedAt} />}
      </div>
      <p className="muted page-intro">
        Test money only: these tools work on sandbox profiles and never touch production.
      </p>
      {accounts.error && <ErrorNotice error={accounts.error} onRetry={accounts.reload} />}
      <div className="two-panels">
        <FundPanel accounts={accounts.data?.rows ?? null} customerNames={customerNames} onFunded={accounts.reload} />
        <ReceivePanel customers={customers.data?.rows ?? null} />
        <SendAgainstQuotePanel />
      </div>
    </section>
  )
}

function FundPanel(props: {
  accounts: InternalAccount[] | null
  customerNames: Map<string, string>
  onFunded(): void
}) {
  const funding = useChannelMutation('sandbox.fund')
  const [funded, setFunded] = useState<{ before: number; after: InternalAccount; amount: number } | null>(null)
  // A request whose answer never came: followed through the account's balance until its outcome is known.
  const [unanswered, setUnanswered] = useState<UnansweredFunding | null>(null)
  const watched = useChannelQuery('internalAccounts.list', { scope: 'all' }, { enabled: !!unanswered, every: 3_000 })
  const watchedAccount = watched.data?.rows.find((a) => a.id === unanswered?.accountId)
  const outcome = unanswered ? fundingOutcome(unanswered, watchedAccount?.balance.amount) : null
  const accounts = props.accounts
  const accountOf = (id: string | undefined) => accounts?.find((a) => a.id === id) ?? accounts?.[0]
  const currencyOfAccount = (a: InternalAccount | undefined) => (a ? currencyOf(a.balance.currency) : undefined)
  const form = useFlatForm(
    channels['sandbox.fund'].input,
    { accountId: '', amount: '' },
    {
      toInput: (v) => {
        const account = accountOf(v['accountId'])
        return { accountId: account?.id, amount: amountOf(v['amount'] ?? '', currencyOfAccount(account)) }
      },
      checks: (v, submitted) => {
        const currency = currencyOfAccount(accountOf(v['accountId']))
        return { amount: amountMessage(v['amount'] ?? '', currency, submitted, fundingLimit(currency)) }
      }
    }
  )
  const account = accountOf(form.values['accountId'])
  const currency = currencyOfAccount(account)
  const text = form.values['amount'] ?? ''
  const check = text.trim() ? checkAmount(text, currency, fundingLimit(currency)) : null
  const owner = account
    ? account.customerId
      ? (props.customerNames.get(account.customerId) ?? 'customer')
      : 'platform'
    : ''

  const fund = async () => {
    const request = form.submit()
    if (!request || !account) return
    const before = account.balance.amount
    setUnanswered(null)
    const result = await funding.run(request)
    setFunded(result.ok ? { before, after: result.value, amount: request.amount } : null)
    if (!result.ok) {
      if (result.error.maybeApplied) setUnanswered({ accountId: account.id, before, amount: request.amount })
      return
    }
    form.reset({ accountId: form.values['accountId'] ?? '', amount: '' })
    props.onFunded()
  }
  const busy = funding.busy

  return (
    <FormFrame className="panel form" labelledBy="fund-title" onSubmit={() => void fund()}>
      <h2 id="fund-title">Fund an internal account</h2>
      {accounts === null ? (
        <SkeletonRows label="internal accounts" />
      ) : accounts.length === 0 ? (
        <p className="muted">No internal accounts to fund yet.</p>
      ) : (
        <>
          <InternalAccountSelect
            id="fund-account"
            label="Internal account"
            accounts={accounts}
            customerNames={props.customerNames}
            value={account?.id ?? ''}
            onChange={(id) => form.set('accountId', id)}
          />
          <MoneyField
            form={form}
            name="amount"
            id="fund-amount"
            label="Amount to add"
            currency={currency}
            limits={fundingLimit(currency)}
          />
          <FailedAction error={funding.error} />
          {unanswered && outcome && (
            <FundingFollowUp asked={unanswered} outcome={outcome} currency={currencyOfAccount(watchedAccount)} />
          )}
          {funded && currency && (
            <ActionResult ok>
              Added {formatMoney(funded.amount, currency)}. Balance {formatMoney(funded.before, currency)} →{' '}
              <strong data-testid="funded-balance">{formatMoney(funded.after.balance.amount, currency)}</strong>
            </ActionResult>
          )}
          <div className="row">
            <button type="submit" className="primary" disabled={busy}>
              {busy
                ? 'Adding…'
                : check?.ok
                  ? `Add ${check.text} to the ${owner} ${account?.balance.currency.code ?? ''} account`
                  : 'Add funds'}
            </button>
          </div>
        </>
      )}
    </FormFrame>
  )
}

/** What became of a funding request whose answer never came, told here once the balance says. */
function FundingFollowUp(props: {
  asked: UnansweredFunding
  outcome: FundingOutcome
  currency: CurrencyLike | undefined
}) {
  const { asked, outcome, currency } = props
  const money = (n: number) => (currency ? formatMoney(n, currency) : `${n} minor units`)
  return (
    <div data-testid="funding-follow-up">
      {outcome.kind === 'applied' ? (
        <ActionResult ok>
          It went through after all: {money(asked.amount)} was added. Balance {money(asked.before)} →{' '}
          <strong>{money(outcome.after)}</strong>
        </ActionResult>
      ) : outcome.kind === 'changed' ? (
        <p className="hint hint-waiting" role="status">
          The balance moved from {money(asked.before)} to {money(outcome.after)} since the unanswered request, by
          something else than its {money(asked.amount)}: look at the account before adding funds again.
        </p>
      ) : (
        <p className="hint hint-waiting" role="status">
          The service did not answer, so {money(asked.amount)} may have been added. Paydesk is watching this account’s
          balance and tells you here: do not add the funds again until it does.
        </p>
      )}
    </div>
  )
}

function ReceivePanel(props: {
  customers:
    | { id: string; fullName?: string | undefined; platformCustomerId: string; currencies?: string[] | undefined }[]
    | null
}) {
  const go = useUi((s) => s.go)
  const receiving = useChannelMutation('sandbox.receive')
  const [received, setReceived] = useState<Transaction | null>(null)
  const customers = props.customers
  const currencyOfCode = (code: string) => {
    const decimals = KNOWN_DECIMALS[code]
    return decimals === undefined ? undefined : { code, decimals }
  }
  const form = useFlatForm(
    SandboxReceiveRequest,
    { senderUmaAddress: SANDBOX_SENDER_ADDRESSES[0], customerId: '', receivingCurrencyCode: 'USD', amount: '' },
    {
      toInput: ({ amount, customerId, ...v }) => ({
        ...v,
        ...(customerId && { customerId }),
        receivingCurrencyAmount: amountOf(amount ?? '', currencyOfCode(v['receivingCurrencyCode'] ?? ''))
      }),
      boxOf: (path) => (path === 'receivingCurrencyAmount' ? 'amount' : path),
      checks: (v, submitted) => ({
        customerId: customers?.some((c) => c.id === v['customerId']) ? undefined : 'Choose who receives the payment',
        amount: amountMessage(v['amount'] ?? '', currencyOfCode(v['receivingCurrencyCode'] ?? ''), submitted)
      })
    }
  )
  const currencyCode = form.values['receivingCurrencyCode'] ?? ''
  const currency = currencyOfCode(currencyCode)
  const customer = customers?.find((c) => c.id === form.values['customerId'])
  const text = form.values['amount'] ?? ''
  const check = text.trim() ? checkAmount(text, currency) : null
  const name = customer ? (customer.fullName ?? customer.platformCustomerId) : ''

  const receive = async () => {
    const request = form.submit()
    if (!request) return
    const result = await receiving.run(request)
    setReceived(result.ok ? result.value : null)
  }
  const busy = receiving.busy

  return (
    <FormFrame className="panel form" labelledBy="receive-title" onSubmit={() => void receive()}>
      <h2 id="receive-title">Simulate an incoming payment</h2>
      <Field id="receive-sender" label="Test sender">
        <select
          id="receive-sender"
          value={form.values['senderUmaAddress']}
          onChange={(e) => form.set('senderUmaAddress', e.target.value)}
        >
          {SANDBOX_SENDER_ADDRESSES.map((s) => (
            <option key={s} value={s}>
              {s} — {SENDER_TEXT[s]}
            </option>
          ))}
        </select>
      </Field>
      <Field id="receive-customer" label="Receiving customer" error={form.error('customerId')}>
        <select
          id="receive-customer"
          value={form.values['customerId']}
          onChange={(e) => {
            form.set('customerId', e.target.value)
            const first = customers?.find((c) => c.id === e.target.value)?.currencies?.[0]
            if (first && KNOWN_DECIMALS[first] !== undefined) form.set('receivingCurrencyCode', first)
          }}
        >
          <option value="">{customers === null ? 'Loading customers…' : 'Choose a customer'}</option>
          {customers?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.fullName ?? c.platformCustomerId} ({c.platformCustomerId})
            </option>
          ))}
        </select>
      </Field>
      <div className="grid-2">
        <Field id="receive-currency" label="Currency received">
          <select
            id="receive-currency"
            value={currencyCode}
            onChange={(e) => form.set('receivingCurrencyCode', e.target.value)}
          >
            {[...new Set([...(customer?.currencies ?? []), ...RECEIVE_CURRENCIES])].map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </Field>
        <MoneyField form={form} name="amount" id="receive-amount" label="Amount received" currency={currency} />
      </div>
      <FailedAction error={receiving.error} />
      {received && (
        <div className="result result-ok" role="status" aria-label="Simulated payment">
          <span>Payment created: </span>
          <Id value={received.id} /> <StatusChip value={received.status} tone={transactionTone(received.status)} />{' '}
          <button type="button" className="link" onClick={() => go('transactions', received.id)}>
            Open in Transactions
          </button>
          {/* The approval gate decides it (a rule, a prompt, its fallback): Approvals shows which. */}
          <button type="button" className="link" onClick={() => go('approvals', received.id)}>
            Open in Approvals
          </button>
        </div>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Sending…' : check?.ok && customer ? `Receive ${check.text} for ${name}` : 'Simulate payment'}
        </button>
      </div>
    </FormFrame>
  )
}
