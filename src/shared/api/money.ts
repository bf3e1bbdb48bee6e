import { z } from 'zod'

/** An integer number of minor units (cents, satoshis...). Never a float; always a safe integer. */
export const MinorUnits = z
  .number({
    error: (issue) =>
      issue.input === undefined ? 'Amount is required' : 'Amount must be a number of minor units (an integer)'
  })
  .check(
    z.refine((n) => Number.isSafeInteger(n), {
      error: (issue) =>
        Number.isInteger(issue.input)
          ? 'Amount is too large: it must be a safe integer (at most 9007199254740991 minor units)'
          : 'Amount must be a whole number of minor units (no decimals)',
      abort: true
    })
  )
export type MinorUnits = z.infer<typeof MinorUnits>

/** Minor units >= 0 (fees). */
export const NonNegativeMinorUnits = MinorUnits.check(z.refine((n) => n >= 0, { error: 'Amount must not be negative' }))
export type NonNegativeMinorUnits = z.infer<typeof NonNegativeMinorUnits>

/** Minor units > 0 (amounts to move). */
export const PositiveMinorUnits = MinorUnits.check(
  z.refine((n) => n > 0, { error: 'Amount must be greater than zero' })
)
export type PositiveMinorUnits = z.infer<typeof PositiveMinorUnits>

/** A currency code in a request: ISO 4217 (USD) or a crypto ticker (BTC, USDC): 3 to 5 upper-case letters or digits. */
export function currencyCode(what = 'Currency code') {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined ? `${what} is required` : `${what} must be a string such as "USD" or "BTC"`
    })
    .regex(/^[A-Z0-9]{3,5}$/, {
      error: `${what} must be 3 to 5 upper-case letters or digits (ISO 4217 such as "USD", or a ticker such as "USDC")`
    })
}
export const CurrencyCode = currencyCode()
export type CurrencyCode = z.infer<typeof CurrencyCode>

/**
 * Currency object of responses (spec 2.2). A `decimals` Paydesk cannot format with (negative, fractional, over 18, not a
 * number) is read as not given, so the table of known codes applies and an unknown code is shown without guessing,
 * instead of one odd member rejecting the balance or payment that carries it.
 */
export const Currency = z.looseObject({
  code: z.string(),
  name: z.string().optional(),
  symbol: z.string().optional(),
  decimals: z.number().int().min(0).max(18).optional().catch(undefined)
})
export type Currency = z.infer<typeof Currency>

/** Amount object of responses: integer minor units plus the Currency object. */
export const CurrencyAmount = z.looseObject({
  amount: MinorUnits,
  currency: Currency
})
export type CurrencyAmount = z.infer<typeof CurrencyAmount>
