import { useMemo } from 'react'
import { QuoteCreateRequest, type ExternalAccount, type InternalAccount } from '../../../../shared/api'
import { quoteRequestKey } from '../../../../shared/ipc/channels/data'
import type { IpcError } from '../../../../shared/ipc/define'
import { KNOWN_DECIMALS } from '../../../../shared/format/money'
import { Field } from '../../ui/Field'
import { TextField } from '../../ui/FormFields'
import { amountMessage, amountOf, currencyOf, MoneyField } from '../../ui/MoneyField'
import { useFlatForm } from '../../ui/flat-form'
import { FailedAction, FormFrame } from '../../ui/form-submit'
import { useChannelQuery } from '../../data/channel-query'
import { describeAccount } from '../external-accounts/describe'
import { ExternalAccountSelect, InternalAccountSelect } from '../internal-accounts/account-selects'

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
  /** Keys (quoteRequestKey) of the requests whose execution has no known outcome: no new quote for those. */
  heldRequests: Set<string>
  error: IpcError | null
  onSubmit(request: QuoteCreateRequest): void
}) {
  const destinations = useChannelQuery('externalAccounts.query', { status: 'ACTIVE', limit: 500 })
  const options: ExternalAccount[] = useMemo(() => destinations.data?.rows ?? [], [destinations.data])
  const sourceOf = (v: Record<string, string>) => props.accounts.find((a) => a.id === v['source']) ?? props.accounts[0]
  /** The currency the amount is typed in: the source's when fixed on the sending side, else the receiver's. */
  const lockedCurrencyOf = (v: Record<string, string>) => {
    const source = sourceOf(v)
    const sendingCode = source?.balance.currency.code
    const destination = options.find((a) => a.id === v['account'])
    const receivingCode =
      v['to'] === 'account' ? destination?.currency : (v['umaCurrency'] ?? '').trim().toUpperCase() || sendingCode
    if (v['side'] === 'SENDING') return source ? currencyOf(source.balance.currency) : undefined
    const decimals = receivingCode ? KNOWN_DECIMALS[receivingCode] : undefined
    return receivingCode && decimals !== undefined ? { code: receivingCode, decimals } : undefined
  }
  const form = useFlatForm(
    QuoteCreateRequest,
    {
      source: props.initialSourceId ?? props.accounts[0]?.id ?? '',
      to: 'account',
      account: '',
      uma: '',
      umaCurrency: '',
      side: 'SENDING',
      amount: '',
      description: ''
    },
    {
      toInput: (v) => ({
        source: { sourceType: 'ACCOUNT', accountId: sourceOf(v)?.id ?? '' },
        destination:
          v['to'] === 'account'
            ? { destinationType: 'ACCOUNT', accountId: v['account'] }
            : {
                destinationType: 'UMA_ADDRESS',
                umaAddress: (v['uma'] ?? '').trim(),
                ...(v['umaCurrency']?.trim() && { currency: v['umaCurrency'].trim().toUpperCase() })
              },
        lockedCurrencySide: v['side'],
        lockedCurrencyAmount: amountOf(v['amount'] ?? '', lockedCurrencyOf(v)) ?? 0,
        ...(v['description']?.trim() && { description: v['description'].trim() })
      }),
      boxOf: (path) => FIELD_OF[path] ?? FIELD_OF[path.split('.')[0] ?? ''] ?? 'form',
      checks: (v, submitted) => ({
        // The account box says it in words a person uses rather than the schema's id format.
        account:
          v['to'] === 'account' && !options.some((a) => a.id === v['account'])
            ? 'Choose an ACTIVE account to pay'
            : undefined,
        amount: amountMessage(v['amount'] ?? '', lockedCurrencyOf(v), submitted)
      })
    }
  )
  const v = form.values
  const source = sourceOf(v)
  const destination = options.find((a) => a.id === v['account'])
  const sendingCode = source?.balance.currency.code
  const receivingCode =
    v['to'] === 'account' ? destination?.currency : (v['umaCurrency'] ?? '').trim().toUpperCase() || sendingCode
  const lockedCurrency = lockedCurrencyOf(v)
  const typedAmount = amountOf(v['amount'] ?? '', lockedCurrency)
  const held =
    typedAmount !== undefined &&
    props.heldRequests.has(
      quoteRequestKey({
        source: { accountId: source?.id ?? '' },
        destination:
          v['to'] === 'account'
            ? { accountId: v['account'] ?? '' }
            : {
                umaAddress: (v['uma'] ?? '').trim(),
                ...(v['umaCurrency']?.trim() && { currency: v['umaCurrency'].trim().toUpperCase() })
              },
        lockedCurrencySide: v['side'] ?? '',
        lockedCurrencyAmount: typedAmount
      })
    )

  const submit = () => {
    const request = form.submit()
    if (request) props.onSubmit(request)
  }

  return (
    <FormFrame className="form form-in-pane" labelledBy="quote-form-title" onSubmit={submit}>
      <h2 id="quote-form-title">Get a quote</h2>
      <fieldset disabled={props.busy} className="plain">
        <InternalAccountSelect
          id="quote-source"
          label="From internal account"
          error={form.error('source')}
          accounts={props.accounts}
          customerNames={props.customerNames}
          value={source?.id ?? ''}
          onChange={(id) => form.set('source', id)}
        />
        <Field id="quote-to" label="Pay to">
          <select id="quote-to" value={v['to']} onChange={(e) => form.set('to', e.target.value)}>
            <option value="account">An external account</option>
            <option value="uma">An UMA address</option>
          </select>
        </Field>
        {v['to'] === 'account' ? (
          <ExternalAccountSelect
            id="quote-account"
            error={form.error('account')}
            hint="Only ACTIVE accounts can receive payments; the quote converts between currencies"
            loading={destinations.loading}
            options={options}
            value={destination ? destination.id : ''}
            onChange={(id) => form.set('account', id)}
            none="No ACTIVE account"
            optionLabel={(a) => `${describeAccount(a)} · ${a.currency}`}
          />
        ) : (
          <>
            <TextField
              form={form}
              prefix="quote"
              name="uma"
              label="To UMA address"
              hint="For example $alice@uma.example.com"
            />
            <TextField
              form={form}
              prefix="quote"
              name="umaCurrency"
              label="Receiving currency (optional)"
              hint="Left empty, the service picks the receiver's currency"
            />
          </>
        )}
        <Field id="quote-side" label="Fix the amount on">
          <select id="quote-side" value={v['side']} onChange={(e) => form.set('side', e.target.value)}>
            <option value="SENDING">The sending side: what leaves the account ({sendingCode ?? '…'})</option>
            <option value="RECEIVING">The receiving side: what arrives ({receivingCode ?? '…'})</option>
          </select>
        </Field>
        <MoneyField
          form={form}
          name="amount"
          id="quote-amount"
          label={v['side'] === 'SENDING' ? 'Amount to send' : 'Amount to receive'}
          currency={lockedCurrency}
        />
        <TextField form={form} prefix="quote" name="description" label="Description (optional)" />
      </fieldset>
      <FailedAction error={props.error} />
      {held && (
        <p className="result result-warn" role="note">
          An execution of a quote for this same payment has no known outcome yet, so a new quote for it could pay twice.
          Open it under “Quotes executed from this Paydesk” with “Review and retry”: Paydesk asks the service what
          became of it first.
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={props.busy || held}>
          {props.busy ? 'Asking for a quote…' : 'Get a quote'}
        </button>
      </div>
    </FormFrame>
  )
}
