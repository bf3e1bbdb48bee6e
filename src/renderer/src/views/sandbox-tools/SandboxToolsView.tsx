import { useMemo, useState } from 'react'
import {
  MAX_SANDBOX_FUNDING_AMOUNT,
  SANDBOX_SENDER_ADDRESSES,
  type InternalAccount,
  type Transaction
} from '../../../../shared/api'
import type { IpcError } from '../../../../shared/ipc/define'
import { formatMoney, KNOWN_DECIMALS } from '../../../../shared/format/money'
import { paydesk } from '../../bridge/paydesk'
import { useDataVersion } from '../../stores/data-version'
import { activeProfile, useProfiles } from '../../stores/profiles'
import { useUi } from '../../stores/ui'
import { ErrorNotice, Id, StatusChip } from '../../ui/atoms'
import { Field } from '../../ui/Field'
import { checkAmount, currencyOf, MoneyField } from '../../ui/MoneyField'
import { useChannel } from '../../ui/query'
import { transactionTone } from '../../ui/status'
import { ActionResult, EmptyState, Freshness, SkeletonRows } from '../../ui/view-states'
import { accountLabel } from '../internal-accounts/SendMoney'
import { SendAgainstQuotePanel } from './SendAgainstQuote'

/** What each test sender of the reference does (shared/reference/README.md). */
const SENDER_TEXT: Record<string, string> = {
  '$success.usd@sandbox.uma.money': 'succeeds (USD)',
  '$success.eur@sandbox.uma.money': 'succeeds (EUR)',
  '$success.mxn@sandbox.uma.money': 'succeeds (MXN)',
  '$pending.long.usd@sandbox.uma.money': 'stays pending a long time',
  '$fail.compliance.usd@sandbox.uma.money': 'fails compliance'
}
const RECEIVE_CURRENCIES = ['USD', 'EUR', 'MXN', 'GBP', 'BRL', 'BTC', 'USDC']

export function SandboxView() {
  const environment = useProfiles((s) => activeProfile(s.list)?.environment)
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
  const versions = useDataVersion((s) => s.versions)
  const accounts = useChannel('internalAccounts.list', { scope: 'all' }, versions.internalAccounts)
  const customers = useChannel(
    'customers.query',
    { limit: 500, sort: { field: 'fullName', direction: 'asc' } },
    versions.customers
  )
  const customerNames = useMemo(
    () => new Map<string, string>((customers.data?.rows ?? []).map((c) => [c.id, c.fullName ?? c.platformCustomerId])),
    [customers.data]
  )
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
  const [accountId, setAccountId] = useState('')
  const [text, setText] = useState('')
  const [left, setLeft] = useState(false)
  const [tried, setTried] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<IpcError | null>(null)
  const [funded, setFunded] = useState<{ before: number; after: InternalAccount; amount: number } | null>(null)
  const accounts = props.accounts
  const account = accounts?.find((a) => a.id === accountId) ?? accounts?.[0]
  const currency = account ? currencyOf(account.balance.currency) : undefined
  const check =
    text.trim() || tried
      ? checkAmount(text, currency, {
          max: MAX_SANDBOX_FUNDING_AMOUNT,
          maxText: `Sandbox funding is at most ${currency ? formatMoney(MAX_SANDBOX_FUNDING_AMOUNT, currency) : MAX_SANDBOX_FUNDING_AMOUNT} (${MAX_SANDBOX_FUNDING_AMOUNT.toLocaleString()} minor units)`
        })
      : null
  const owner = account
    ? account.customerId
      ? (props.customerNames.get(account.customerId) ?? 'customer')
      : 'platform'
    : ''

  const fund = async () => {
    setTried(true)
    if (!account || !check?.ok) return
    setBusy(true)
    const before = account.balance.amount
    const result = await paydesk.invoke('sandbox.fund', {
      accountId: account.id as `InternalAccount:${string}`,
      amount: check.amount
    })
    setBusy(false)
    if (!result.ok) {
      setError(result.error)
      setFunded(null)
      return
    }
    setError(null)
    setFunded({ before, after: result.value, amount: check.amount })
    setText('')
    setTried(false)
    setLeft(false)
    props.onFunded()
  }

  return (
    <form
      className="panel form"
      aria-labelledby="fund-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        void fund()
      }}
    >
      <h2 id="fund-title">Fund an internal account</h2>
      {accounts === null ? (
        <SkeletonRows label="internal accounts" />
      ) : accounts.length === 0 ? (
        <p className="muted">No internal accounts to fund yet.</p>
      ) : (
        <>
          <Field id="fund-account" label="Internal account">
            <select id="fund-account" value={account?.id ?? ''} onChange={(e) => setAccountId(e.target.value)}>
              {accounts.map((a) => (
                <option key={a.id} value={a.id}>
                  {accountLabel(a, props.customerNames)}
                </option>
              ))}
            </select>
          </Field>
          <MoneyField
            id="fund-amount"
            label="Amount to add"
            currency={currency}
            value={text}
            onChange={setText}
            check={check}
            showError={left || tried}
            onBlur={() => setLeft(true)}
          />
          {error && (
            <ActionResult ok={false} code={error.serviceCode ?? error.code}>
              {error.message}
            </ActionResult>
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
    </form>
  )
}

function ReceivePanel(props: {
  customers:
    | { id: string; fullName?: string | undefined; platformCustomerId: string; currencies?: string[] | undefined }[]
    | null
}) {
  const go = useUi((s) => s.go)
  const [sender, setSender] = useState<string>(SANDBOX_SENDER_ADDRESSES[0])
  const [customerId, setCustomerId] = useState('')
  const [currencyCode, setCurrencyCode] = useState('USD')
  const [text, setText] = useState('')
  const [left, setLeft] = useState(false)
  const [tried, setTried] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<IpcError | null>(null)
  const [received, setReceived] = useState<Transaction | null>(null)
  const customers = props.customers
  const customer = customers?.find((c) => c.id === customerId)
  const decimals = KNOWN_DECIMALS[currencyCode]
  const currency = decimals === undefined ? undefined : { code: currencyCode, decimals }
  const check = text.trim() || tried ? checkAmount(text, currency) : null
  const name = customer ? (customer.fullName ?? customer.platformCustomerId) : ''

  const receive = async () => {
    setTried(true)
    if (!customer || !check?.ok) return
    setBusy(true)
    const result = await paydesk.invoke('sandbox.receive', {
      senderUmaAddress: sender,
      receivingCurrencyCode: currencyCode,
      receivingCurrencyAmount: check.amount,
      customerId: customer.id as `Customer:${string}`
    })
    setBusy(false)
    if (!result.ok) {
      setError(result.error)
      setReceived(null)
      return
    }
    setError(null)
    setReceived(result.value)
  }

  return (
    <form
      className="panel form"
      aria-labelledby="receive-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        void receive()
      }}
    >
      <h2 id="receive-title">Simulate an incoming payment</h2>
      <Field id="receive-sender" label="Test sender">
        <select id="receive-sender" value={sender} onChange={(e) => setSender(e.target.value)}>
          {SANDBOX_SENDER_ADDRESSES.map((s) => (
            <option key={s} value={s}>
              {s} — {SENDER_TEXT[s]}
            </option>
          ))}
        </select>
      </Field>
      <Field
        id="receive-customer"
        label="Receiving customer"
        error={tried && !customer ? 'Choose who receives the payment' : undefined}
      >
        <select
          id="receive-customer"
          value={customerId}
          onChange={(e) => {
            setCustomerId(e.target.value)
            const first = customers?.find((c) => c.id === e.target.value)?.currencies?.[0]
            if (first && KNOWN_DECIMALS[first] !== undefined) setCurrencyCode(first)
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
          <select id="receive-currency" value={currencyCode} onChange={(e) => setCurrencyCode(e.target.value)}>
            {[...new Set([...(customer?.currencies ?? []), ...RECEIVE_CURRENCIES])].map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </Field>
        <MoneyField
          id="receive-amount"
          label="Amount received"
          currency={currency}
          value={text}
          onChange={setText}
          check={check}
          showError={left || tried}
          onBlur={() => setLeft(true)}
        />
      </div>
      {error && (
        <ActionResult ok={false} code={error.serviceCode ?? error.code}>
          {error.message}
        </ActionResult>
      )}
      {received && (
        <div className="result result-ok" role="status" aria-label="Simulated payment">
          <span>Payment created: </span>
          <Id value={received.id} />{' '}
          <StatusChip value={received.status} tone={transactionTone(received.status, received.type)} />{' '}
          <button type="button" className="link" onClick={() => go('transactions', received.id)}>
            Open in Transactions
          </button>
          {received.status === 'PENDING' && received.type === 'INCOMING' && (
            <button type="button" className="link" onClick={() => go('approvals', received.id)}>
              Open in Approvals
            </button>
          )}
        </div>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Sending…' : check?.ok && customer ? `Receive ${check.text} for ${name}` : 'Simulate payment'}
        </button>
      </div>
    </form>
  )
}
