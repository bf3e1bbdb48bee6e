/**
 * Money is carried as integer minor units; it becomes text only here, with the currency's own `decimals`.
 * The conversion is done on digits (never by dividing a float), so no amount is ever rounded.
 */
export interface CurrencyLike {
  code: string
  decimals: number
  symbol?: string
}

/** "123456" with 2 decimals → "1234.56"; exact for any safe integer. */
export function minorUnitsToDecimalString(amount: number, decimals: number): string {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`Amount ${amount} is not a whole number of minor units`)
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 18) throw new RangeError(`Invalid decimals ${decimals}`)
  const negative = amount < 0
  const digits = String(Math.abs(amount)).padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = decimals > 0 ? `.${digits.slice(digits.length - decimals)}` : ''
  return `${negative ? '-' : ''}${whole}${fraction}`
}

/**
 * "1,234.56 USD": an amount for sentences (notifications, decision records, logs), where no locale applies. Exact on
 * digits like the rest of this module; a value that is not whole minor units is shown as it is, never rounded.
 */
export function formatAmountInSentence(amount: number, currency: string, decimals = 2): string {
  if (!Number.isSafeInteger(amount)) return `${amount} (minor units) ${currency}`
  const [whole, fraction] = minorUnitsToDecimalString(amount, decimals).split('.')
  return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction !== undefined ? `.${fraction}` : ''} ${currency}`
}

type SignDisplay = 'auto' | 'always' | 'exceptZero'

/**
 * Building an Intl.NumberFormat costs far more than formatting with one (a scrolled list formats thousands of cells),
 * so each locale + currency + decimals + sign combination is built once and reused. A currency Intl rejects is
 * remembered too, so the fallback is not paid for with a throw on every call.
 */
const numberFormats = new Map<string, Intl.NumberFormat | RangeError>()

function numberFormat(
  locale: string | undefined,
  code: string,
  decimals: number,
  signDisplay: SignDisplay,
  asCurrency: boolean
): Intl.NumberFormat {
  const key = `${locale ?? ''}|${code}|${decimals}|${signDisplay}|${asCurrency ? 'currency' : 'number'}`
  let format = numberFormats.get(key)
  if (!format) {
    try {
      format = new Intl.NumberFormat(locale, {
        minimumFractionDigits: decimals,
        maximumFractionDigits: decimals,
        signDisplay,
        ...(asCurrency ? { style: 'currency', currency: code } : {})
      })
    } catch (error) {
      format = error instanceof RangeError ? error : new RangeError(String(error))
    }
    numberFormats.set(key, format)
  }
  if (format instanceof RangeError) throw format
  return format
}

/**
 * "$1,234.56" for USD, "₿0.00010000"-style for crypto tickers Intl does not know (falls back to "0.00010000 BTC").
 * `showCode` adds the ISO code when currencies are mixed on one screen.
 */
export function formatMoney(
  amount: number,
  currency: CurrencyLike,
  options: { locale?: string; showCode?: boolean; signDisplay?: SignDisplay } = {}
): string {
  const decimal = minorUnitsToDecimalString(amount, currency.decimals)
  const signDisplay = options.signDisplay ?? 'auto'
  let text: string
  try {
    text = numberFormat(options.locale, currency.code, currency.decimals, signDisplay, true).format(
      decimal as unknown as number
    )
  } catch {
    const number = numberFormat(options.locale, currency.code, currency.decimals, signDisplay, false).format(
      decimal as unknown as number
    )
    return `${number} ${currency.code}`
  }
  return options.showCode && !text.includes(currency.code) ? `${text} ${currency.code}` : text
}

/**
 * Parses what a person typed ("1,250.5") into minor units with the currency's decimals, refusing anything that would
 * need rounding. Returns an error sentence instead of guessing.
 */
export function parseMoneyInput(
  text: string,
  decimals: number
): { ok: true; amount: number } | { ok: false; error: string } {
  const cleaned = text.trim().replace(/[,\s_]/g, '')
  if (cleaned === '') return { ok: false, error: 'Enter an amount' }
  const match = /^(\d+)(?:\.(\d*))?$/.exec(cleaned)
  if (!match) return { ok: false, error: 'Use digits and at most one decimal point, e.g. 1250.00' }
  const whole = match[1] ?? '0'
  const fraction = match[2] ?? ''
  if (fraction.length > decimals) {
    return {
      ok: false,
      error: decimals === 0 ? 'This currency has no decimal places' : `Use at most ${decimals} decimal places`
    }
  }
  const minor = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0')
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return { ok: false, error: 'That amount is too large' }
  return { ok: true, amount: Number(minor) }
}

/** Decimal places of common currencies, for forms that know only a code. The server's Currency object wins. */
export const KNOWN_DECIMALS: Record<string, number> = {
  USD: 2,
  EUR: 2,
  GBP: 2,
  MXN: 2,
  BRL: 2,
  CAD: 2,
  PHP: 2,
  NGN: 2,
  ZAR: 2,
  KES: 2,
  INR: 2,
  AED: 2,
  DKK: 2,
  HKD: 2,
  SGD: 2,
  THB: 2,
  MYR: 2,
  TZS: 2,
  ZMW: 2,
  MWK: 2,
  UGX: 0,
  RWF: 0,
  XOF: 0,
  JPY: 0,
  IDR: 2,
  VND: 0,
  BTC: 8,
  SAT: 0,
  USDC: 6,
  USDT: 6
}
