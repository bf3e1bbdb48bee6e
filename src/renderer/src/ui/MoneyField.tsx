import { formatMoney, KNOWN_DECIMALS, parseMoneyInput, type CurrencyLike } from '../../../shared/format/money'
import { Field } from './Field'

/** The currency's decimals: the server's Currency object first, then the table of known codes; undefined if neither. */
export function currencyOf(currency: {
  code: string
  decimals?: number | undefined
  symbol?: string | undefined
}): CurrencyLike | undefined {
  const decimals = currency.decimals ?? KNOWN_DECIMALS[currency.code]
  if (decimals === undefined) return undefined
  return { code: currency.code, decimals, ...(currency.symbol ? { symbol: currency.symbol } : {}) }
}

export type AmountCheck = { ok: true; amount: number; text: string } | { ok: false; error: string }

/**
 * What a person typed → integer minor units, exactly (parseMoneyInput works on digits, never floats), within
 * (0, max]. The error is a sentence for under the field.
 */
export function checkAmount(
  text: string,
  currency: CurrencyLike | undefined,
  limits: { max?: number; maxText?: string } = {}
): AmountCheck {
  if (!currency) return { ok: false, error: 'Paydesk does not know how many decimals this currency has' }
  const parsed = parseMoneyInput(text, currency.decimals)
  if (!parsed.ok) return parsed
  if (parsed.amount <= 0) return { ok: false, error: 'Enter an amount greater than zero' }
  if (limits.max !== undefined && parsed.amount > limits.max) {
    return { ok: false, error: limits.maxText ?? `At most ${formatMoney(limits.max, currency)}` }
  }
  return { ok: true, amount: parsed.amount, text: formatMoney(parsed.amount, currency) }
}

/**
 * A money box: the currency code beside it, and under it either the error or the exact amount it means
 * ("= $1,250.00"), so the person sees what will be sent before any review.
 */
export function MoneyField(props: {
  id: string
  label: string
  currency: CurrencyLike | undefined
  value: string
  onChange(value: string): void
  check: AmountCheck | null
  /** Show the error (after the box was left, or after a submit). */
  showError: boolean
  onBlur?(): void
}) {
  const error = props.showError && props.check && !props.check.ok ? props.check.error : undefined
  const hint = props.check?.ok
    ? `= ${props.check.text}`
    : props.currency
      ? `In ${props.currency.code}, e.g. 1250.00`
      : ''
  return (
    <Field id={props.id} label={props.label} error={error} hint={hint}>
      <div className="money-input">
        <input
          id={props.id}
          inputMode="decimal"
          autoComplete="off"
          value={props.value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${props.id}-error` : undefined}
          onChange={(e) => props.onChange(e.target.value)}
          onBlur={props.onBlur}
        />
        <span className="money-code" aria-hidden>
          {props.currency?.code ?? ''}
        </span>
      </div>
    </Field>
  )
}
