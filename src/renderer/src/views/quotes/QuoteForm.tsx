import { useMemo, useState } from 'react'
import { QuoteCreateRequest, type ExternalAccount, type InternalAccount } from '../../../../shared/api'
import type { IpcError } from '../../../../shared/ipc/define'
import { KNOWN_DECIMALS } from '../../../../shared/format/money'
import { useDataVersion } from '../../stores/data-version'
import { Field } from '../../ui/Field'
import { checkAmount, currencyOf, MoneyField } from '../../ui/MoneyField'
import { useChannel } from '../../ui/query'
import { ActionResult } from '../../ui/view-states'
import { describeAccount } from '../external-accounts/describe'
import { accountLabel } from '../internal-accounts/SendMoney'

/** Which form box a path of QuoteCreateRequest belongs to, so the shared schema's message shows at that box. */
const FIELD_OF: Record<string, string> = {
  'source.accountId': 'source',
  'destination.accountId': 'account',
  'destination.umaAddress': 'uma',
  'destination.currency': 'umaCurrency',
  destination: 'account',
  lockedCurrencyAmount: 'amount',
  description: 'description'
}

/**
 * The quote request: from an internal account, to an ACTIVE external account or an UMA address, with the amount fixed
 * on the sending or the receiving side. What is typed becomes a QuoteCreateRequest and is checked by that shared
 * schema before anything is sent; its messages show at their boxes.
 */
export function QuoteForm(props: {
  accounts: InternalAccount[]
  /** The account the operator came from ("Get a quote" on an internal account), preselected. */
  initialSourceId?: string | null
  customerNames: Map<string, string>
  busy: boolean
  error: IpcError | null
  onSubmit(request: QuoteCreateRequest): void
}) {
  const versions = useDataVersion((s) => s.versions)
  const [sourceId, setSourceId] = useState(props.initialSourceId ?? props.accounts[0]?.id ?? '')
  const [to, setTo] = useState<'account' | 'uma'>('account')
  const [accountId, setAccountId] = useState('')
  const [uma, setUma] = useState('')
  const [umaCurrency, setUmaCurrency] = useState('')
  const [side, setSide] = useState<'SENDING' | 'RECEIVING'>('SENDING')
  const [amountText, setAmountText] = useState('')
  const [description, setDescription] = useState('')
  const [tried, setTried] = useState(false)
  const [amountLeft, setAmountLeft] = useState(false)

  const source = props.accounts.find((a) => a.id === sourceId) ?? props.accounts[0]
  const destinations = useChannel('externalAccounts.query', { status: 'ACTIVE', limit: 500 }, versions.externalAccounts)
  const options: ExternalAccount[] = useMemo(() => destinations.data?.rows ?? [], [destinations.data])
  const destination = options.find((a) => a.id === accountId)

  const sendingCode = source?.balance.currency.code
  const receivingCode = to === 'account' ? destination?.currency : umaCurrency.trim().toUpperCase() || sendingCode
  const lockedCode = side === 'SENDING' ? sendingCode : receivingCode
  const lockedCurrency = lockedCode
    ? side === 'SENDING' && source
      ? currencyOf(source.balance.currency)
      : KNOWN_DECIMALS[lockedCode] !== undefined
        ? { code: lockedCode, decimals: KNOWN_DECIMALS[lockedCode] as number }
        : undefined
    : undefined
  const check = amountText.trim() || tried ? checkAmount(amountText, lockedCurrency) : null

  const request = {
    source: { sourceType: 'ACCOUNT', accountId: source?.id ?? '' },
    destination:
      to === 'account'
        ? { destinationType: 'ACCOUNT', accountId }
        : {
            destinationType: 'UMA_ADDRESS',
            umaAddress: uma.trim(),
            ...(umaCurrency.trim() && { currency: umaCurrency.trim().toUpperCase() })
          },
    lockedCurrencySide: side,
    lockedCurrencyAmount: check?.ok ? check.amount : 0,
    ...(description.trim() && { description: description.trim() })
  }
  const parsed = QuoteCreateRequest.safeParse(request)
  const errors = new Map<string, string>()
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = FIELD_OF[issue.path.join('.')] ?? FIELD_OF[String(issue.path[0])] ?? 'form'
      if (!errors.has(field)) errors.set(field, issue.message)
    }
  }
  const shown = (field: string) => (tried ? errors.get(field) : undefined)
  // The account boxes say it in words a person uses rather than the schema's id format.
  const accountError = tried && to === 'account' && !destination ? 'Choose an ACTIVE account to pay' : undefined

  const submit = () => {
    setTried(true)
    if (!parsed.success || !check?.ok) return
    props.onSubmit(parsed.data)
  }

  return (
    <form
      className="form form-in-pane"
      aria-labelledby="quote-form-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        submit()
      }}
    >
      <h2 id="quote-form-title">Get a quote</h2>
      <fieldset disabled={props.busy} className="plain">
        <Field id="quote-source" label="From internal account" error={shown('source')}>
          <select id="quote-source" value={source?.id ?? ''} onChange={(e) => setSourceId(e.target.value)}>
            {props.accounts.map((a) => (
              <option key={a.id} value={a.id}>
                {accountLabel(a, props.customerNames)}
              </option>
            ))}
          </select>
        </Field>
        <Field id="quote-to" label="Pay to">
          <select id="quote-to" value={to} onChange={(e) => setTo(e.target.value as 'account' | 'uma')}>
            <option value="account">An external account</option>
            <option value="uma">An UMA address</option>
          </select>
        </Field>
        {to === 'account' ? (
          <Field
            id="quote-account"
            label="To external account"
            error={accountError}
            hint="Only ACTIVE accounts can receive payments; the quote converts between currencies"
          >
            <select
              id="quote-account"
              value={destination ? accountId : ''}
              onChange={(e) => setAccountId(e.target.value)}
            >
              <option value="">
                {destinations.loading
                  ? 'Loading accounts…'
                  : options.length
                    ? 'Choose an account'
                    : 'No ACTIVE account'}
              </option>
              {options.map((a) => (
                <option key={a.id} value={a.id}>
                  {describeAccount(a)} · {a.currency}
                </option>
              ))}
            </select>
          </Field>
        ) : (
          <>
            <Field id="quote-uma" label="To UMA address" error={shown('uma')} hint="For example $alice@uma.example.com">
              <input id="quote-uma" value={uma} onChange={(e) => setUma(e.target.value)} autoComplete="off" />
            </Field>
            <Field
              id="quote-uma-currency"
              label="Receiving currency (optional)"
              error={shown('umaCurrency')}
              hint="Left empty, the service picks the receiver's currency"
            >
              <input
                id="quote-uma-currency"
                value={umaCurrency}
                onChange={(e) => setUmaCurrency(e.target.value)}
                autoComplete="off"
              />
            </Field>
          </>
        )}
        <Field id="quote-side" label="Fix the amount on">
          <select id="quote-side" value={side} onChange={(e) => setSide(e.target.value as 'SENDING' | 'RECEIVING')}>
            <option value="SENDING">The sending side: what leaves the account ({sendingCode ?? '…'})</option>
            <option value="RECEIVING">The receiving side: what arrives ({receivingCode ?? '…'})</option>
          </select>
        </Field>
        <MoneyField
          id="quote-amount"
          label={side === 'SENDING' ? 'Amount to send' : 'Amount to receive'}
          currency={lockedCurrency}
          value={amountText}
          onChange={setAmountText}
          check={check}
          showError={amountLeft || tried}
          onBlur={() => setAmountLeft(true)}
        />
        <Field id="quote-description" label="Description (optional)" error={shown('description')}>
          <input id="quote-description" value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
      </fieldset>
      {props.error && (
        <ActionResult ok={false} code={props.error.serviceCode ?? props.error.code}>
          {props.error.message}
        </ActionResult>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={props.busy}>
          {props.busy ? 'Asking for a quote…' : 'Get a quote'}
        </button>
      </div>
    </form>
  )
}
