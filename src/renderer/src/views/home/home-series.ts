import { formatMoney, KNOWN_DECIMALS } from '../../../../shared/format/money'

/**
 * Words and numbers of Home's charts, formatted only here at the edge: a chart's data stay integer minor units of one
 * currency, and a day is named as the service's calendar day in the zone the figures were cut in.
 */

/** "$1,250.00"; a currency whose decimals Paydesk does not know is shown in exact minor units, never guessed. */
export function moneyText(amount: number, currency: string): string {
  const decimals = KNOWN_DECIMALS[currency]
  return decimals === undefined
    ? `${amount} minor units ${currency}`
    : formatMoney(amount, { code: currency, decimals })
}

const dayFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' })

/** "28 Nov" for "2026-11-28" (the day is already the zone's; UTC only reads it back as written). */
export function dayText(day: string): string {
  const ms = Date.parse(`${day}T00:00:00Z`)
  return Number.isNaN(ms) ? day : dayFormat.format(ms)
}

export const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0)

/** Tick steps in whole minor units (1, 2, 5 × 10ⁿ): an axis never shows a fraction of a cent. */
export const WHOLE_STEPS: number[] = Array.from({ length: 16 }, (_, e) => [1, 2, 5].map((m) => m * 10 ** e)).flat()
