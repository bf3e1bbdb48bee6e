import { KNOWN_DECIMALS } from './format/money'

/**
 * Amount search: what the operator types in the transactions search box when it reads as an amount ("1250",
 * "1,250.00", "$1,250.5") finds the transactions of that amount, in whatever currency, instead of text. An amount is
 * kept as typed, exactly: `units` × 10^-`scale`, trailing zeros of the fraction dropped ("1,250.00" is 1250 at scale
 * 0), so each currency's rows are matched in their own minor units (1250 is 125000 cents and 1250 yen). Free of zod:
 * the cache's threads read it.
 */

/** Decimal places an amount search may carry (no currency has more). */
export const MAX_AMOUNT_SCALE = 8

export interface AmountIs {
  units: number
  scale: number
}

/** A currency symbol before the amount, as the list shows them; the amount means the same with or without it. */
const AMOUNT = /^[$€£¥₦₱₹]?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,8}))?$/

/** The amount a search reads as, or null when it is text (letters, a dash, an id fragment with a letter). */
export function amountSearchOf(text: string | undefined): AmountIs | null {
  const match = AMOUNT.exec((text ?? '').trim())
  if (!match) return null
  const fraction = (match[2] ?? '').replace(/0+$/, '')
  const units = Number(`${match[1]!.replace(/,/g, '')}${fraction}`)
  if (!Number.isSafeInteger(units)) return null
  return { units, scale: fraction.length }
}

/**
 * Which minor units each group of currencies holds an amount in: for each number of decimals, the amount in minor
 * units, and the currencies with those decimals (`other`: every currency not known here, which the service gives 2
 * decimals, as the list formats them). Decimals too few to hold the amount ($12.345) match nothing.
 */
export function amountInMinorUnits(amount: AmountIs): { minor: number; currencies: string[]; other: boolean }[] {
  const byDecimals = new Map<number, string[]>()
  for (const [code, decimals] of Object.entries(KNOWN_DECIMALS)) {
    byDecimals.set(decimals, [...(byDecimals.get(decimals) ?? []), code])
  }
  if (!byDecimals.has(2)) byDecimals.set(2, [])
  const out: { minor: number; currencies: string[]; other: boolean }[] = []
  for (const [decimals, currencies] of [...byDecimals.entries()].sort((a, b) => a[0] - b[0])) {
    if (decimals < amount.scale) continue
    const minor = amount.units * 10 ** (decimals - amount.scale)
    if (!Number.isSafeInteger(minor)) continue
    out.push({ minor, currencies, other: decimals === 2 })
  }
  return out
}

/** Every currency of known decimals other than 2: the ones `other` leaves out. */
export const CURRENCIES_NOT_OF_2_DECIMALS = Object.entries(KNOWN_DECIMALS)
  .filter(([, decimals]) => decimals !== 2)
  .map(([code]) => code)
