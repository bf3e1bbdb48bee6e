import { useMemo } from 'react'
import { QuoteCreateRequest, type ExternalAccount, type InternalAccount } from '../../../../shared/api'
import type { IpcError } from '../../../../shared/ipc/define'
import { KNOWN_DECIMALS } from '../../../../shared/format/money'
import { Field } from '../../ui/Field'
import { amountMessage, amountOf, currencyOf, MoneyField } from '../../ui/MoneyField'
import { useFlatForm } from '../../ui/flat-form'
import { FailedAction, FormFrame } from '../../ui/form-submit'
import { useChannelQuery } from '../../data/channel-query'
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
  // Messages show at a submit, as the quote is asked for; the amount's also once its box is left.
  const shown = (box: string) => form.error(box)

  const submit = () => {
    const request = form.submit()
    if (request) props.onSubmit(request)
  }

  return (
    <FormFrame className="form form-in-pane" labelledBy="quote-form-title" onSubmit={submit}>
      <h2 id="quote-form-title">Get a quote</h2>
      <fieldset disabled={props.busy} className="plain">
        <Field id="quote-source" label="From internal account" error={shown('source')}>
          <select id="quote-source" value={source?.id ?? ''} onChange={(e) => form.set('source', e.target.value)}>
            {props.accounts.map((a) => (
              <option key={a.id} value={a.id}>
                {accountLabel(a, props.customerNames)}
              </option>
            ))}
          </select>
        </Field>
        <Field id="quote-to" label="Pay to">
          <select id="quote-to" value={v['to']} onChange={(e) => form.set('to', e.target.value)}>
            <option value="account">An external account</option>
            <option value="uma">An UMA address</option>
          </select>
        </Field>
        {v['to'] === 'account' ? (
          <Field
            id="quote-account"
            label="To external account"
            error={shown('account')}
            hint="Only ACTIVE accounts can receive payments; the quote converts between currencies"
          >
            <select
              id="quote-account"
              value={destination ? destination.id : ''}
              onChange={(e) => form.set('account', e.target.value)}
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
              <input
                id="quote-uma"
                value={v['uma']}
                onChange={(e) => form.set('uma', e.target.value)}
                autoComplete="off"
              />
            </Field>
            <Field
              id="quote-uma-currency"
              label="Receiving currency (optional)"
              error={shown('umaCurrency')}
              hint="Left empty, the service picks the receiver's currency"
            >
              <input
                id="quote-uma-currency"
                value={v['umaCurrency']}
                onChange={(e) => form.set('umaCurrency', e.target.value)}
                autoComplete="off"
              />
            </Field>
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
        <Field id="quote-description" label="Description (optional)" error={shown('description')}>
          <input
            id="quote-description"
            value={v['description']}
            onChange={(e) => form.set('description', e.target.value)}
          />
        </Field>
      </fieldset>
      <FailedAction error={props.error} />
      <div className="row">
        <button type="submit" className="primary" disabled={props.busy}>
          {props.busy ? 'Asking for a quote…' : 'Get a quote'}
        </button>
      </div>
    </FormFrame>
  )
}
