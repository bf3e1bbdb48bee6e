import type { ExternalAccount, InternalAccount } from '../../../../shared/api'
import { formatMoney } from '../../../../shared/format/money'
import { Field } from '../../ui/Field'
import { currencyOf } from '../../ui/MoneyField'

/** An internal account as a person picks it: owner, currency and balance. */
export function accountLabel(a: InternalAccount, customerNames: Map<string, string>): string {
  const owner = a.customerId ? (customerNames.get(a.customerId) ?? 'Customer') : 'Platform'
  const currency = currencyOf(a.balance.currency)
  const balance = currency
    ? formatMoney(a.balance.amount, currency, { showCode: true })
    : `${a.balance.amount} minor units`
  return `${owner} · ${a.balance.currency.code} · ${balance}`
}

/** The internal account money leaves from (or, in the sandbox, is added to). */
export function InternalAccountSelect(props: {
  id: string
  label: string
  accounts: InternalAccount[]
  customerNames: Map<string, string>
  value: string
  onChange(id: string): void
  error?: string | undefined
}) {
  return (
    <Field id={props.id} label={props.label} error={props.error}>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.accounts.map((a) => (
          <option key={a.id} value={a.id}>
            {accountLabel(a, props.customerNames)}
          </option>
        ))}
      </select>
    </Field>
  )
}

/** The external account a payment goes to: only those that can receive it are offered, and the first line says why. */
export function ExternalAccountSelect(props: {
  id: string
  hint: string
  error?: string | undefined
  loading: boolean
  options: ExternalAccount[]
  value: string
  onChange(id: string): void
  /** The first line when no account can receive this payment. */
  none: string
  optionLabel(a: ExternalAccount): string
}) {
  return (
    <Field id={props.id} label="To external account" error={props.error} hint={props.hint}>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">
          {props.loading ? 'Loading accounts…' : props.options.length ? 'Choose an account' : props.none}
        </option>
        {props.options.map((a) => (
          <option key={a.id} value={a.id}>
            {props.optionLabel(a)}
          </option>
        ))}
      </select>
    </Field>
  )
}
