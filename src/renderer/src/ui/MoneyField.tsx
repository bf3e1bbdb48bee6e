import { formatMoney, KNOWN_DECIMALS, parseMoneyInput, type CurrencyLike } from '../../../shared/format/money'
import type { z } from 'zod'
import { Field } from './Field'
import type { FlatForm } from './flat-form'

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
 * A flat form's check of an amount box: nothing while it is empty (until a submit), else checkAmount's sentence, or
 * undefined when the amount is fine (the shared schema has the last word).
 */
export function amountMessage(
  text: string,
  currency: CurrencyLike | undefined,
  submitted: boolean,
  limits: { max?: number; maxText?: string } = {}
): string | null | undefined {
  if (!text.trim() && !submitted) return null
  const check = checkAmount(text, currency, limits)
  return check.ok ? undefined : check.error
}

/** The minor units an amount box means, or undefined (the schema then says why none). */
export function amountOf(text: string, currency: CurrencyLike | undefined): number | undefined {
  const check = checkAmount(text, currency)
  return check.ok ? check.amount : undefined
}

/**
 * A money box of a flat form: the currency code beside it, and under it either the error or the exact amount it means
 * ("= $1,250.00"), so the person sees what will be sent before any review.
 */
export function MoneyField<S extends z.ZodType>(props: {
  form: FlatForm<S>
  name: string
  id: string
  label: string
  currency: CurrencyLike | undefined
  limits?: { max?: number; maxText?: string }
}) {
  const { form, name, currency } = props
  const text = form.values[name] ?? ''
  const check = text.trim() ? checkAmount(text, currency, props.limits) : null
  const error = form.error(name)
  const hint = check?.ok ? `= ${check.text}` : currency ? `In ${currency.code}, e.g. 1250.00` : ''
  return (
    <Field id={props.id} label={props.label} error={error} hint={hint}>
      <div className="money-input">
        <input
          id={props.id}
          inputMode="decimal"
          autoComplete="off"
          value={text}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${props.id}-error` : undefined}
          onChange={(e) => form.set(name, e.target.value)}
          onBlur={() => form.blur(name)}
        />
        <span className="money-code" aria-hidden>
          {currency?.code ?? ''}
        </span>
      </div>
    </Field>
  )
}
