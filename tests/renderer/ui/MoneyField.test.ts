import { describe, expect, it } from 'vitest'
import { checkAmount, currencyOf } from '../../../src/renderer/src/ui/MoneyField'

describe('checkAmount', () => {
  const usd = currencyOf({ code: 'USD' })
  it('turns what a person typed into exact minor units', () => {
    expect(checkAmount('1,250', usd)).toEqual({ ok: true, amount: 125000, text: '$1,250.00' })
    expect(checkAmount('0.29', usd)).toMatchObject({ ok: true, amount: 29 }) // 0.29 * 100 is 28.999… as a float
    expect(checkAmount('90071992547409.91', usd)).toMatchObject({ ok: true, amount: 9007199254740991 })
  })

  it('refuses rounding, zero, and amounts above the limit with a sentence', () => {
    expect(checkAmount('10.005', usd)).toEqual({ ok: false, error: 'Use at most 2 decimal places' })
    expect(checkAmount('0', usd)).toEqual({ ok: false, error: 'Enter an amount greater than zero' })
    expect(checkAmount('2', usd, { max: 100, maxText: 'Too much' })).toEqual({ ok: false, error: 'Too much' })
    expect(checkAmount('1', undefined)).toMatchObject({ ok: false })
  })

  it('uses the server’s decimals before the table of known codes', () => {
    expect(currencyOf({ code: 'BTC', decimals: 8, symbol: '₿' })).toEqual({ code: 'BTC', decimals: 8, symbol: '₿' })
    expect(currencyOf({ code: 'XYZ' })).toBeUndefined()
  })
})
