import { describe, expect, it } from 'vitest'
import {
  formatAmountInSentence,
  formatMoney,
  minorUnitsToDecimalString,
  parseMoneyInput
} from '../../../src/shared/format/money'

const USD = { code: 'USD', decimals: 2, symbol: '$' }

describe('minorUnitsToDecimalString', () => {
  it.each([
    [0, 2, '0.00'],
    [5, 2, '0.05'],
    [123456, 2, '1234.56'],
    [-1999, 2, '-19.99'],
    [100, 0, '100'],
    [1, 8, '0.00000001'],
    [Number.MAX_SAFE_INTEGER, 2, '90071992547409.91']
  ])('%i with %i decimals is %s', (amount, decimals, expected) => {
    expect(minorUnitsToDecimalString(amount, decimals)).toBe(expected)
  })

  it('refuses fractional or unsafe amounts instead of rounding them', () => {
    expect(() => minorUnitsToDecimalString(1.5, 2)).toThrow(RangeError)
    expect(() => minorUnitsToDecimalString(2 ** 60, 2)).toThrow(RangeError)
  })
})

describe('formatMoney', () => {
  it('formats with the currency decimals and symbol', () => {
    expect(formatMoney(125000, USD, { locale: 'en-US' })).toBe('$1,250.00')
    expect(formatMoney(1000, { code: 'JPY', decimals: 0 }, { locale: 'en-US' })).toBe('¥1,000')
  })

  it('keeps every digit of a large amount', () => {
    expect(formatMoney(Number.MAX_SAFE_INTEGER, USD, { locale: 'en-US' })).toBe('$90,071,992,547,409.91')
  })

  it('falls back to the code for tickers Intl does not know', () => {
    expect(formatMoney(12345678, { code: 'USDC', decimals: 6 }, { locale: 'en-US' })).toBe('12.345678 USDC')
  })

  it('adds the code when asked, for screens that mix currencies', () => {
    expect(formatMoney(100, USD, { locale: 'en-US', showCode: true })).toBe('$1.00 USD')
  })

  it('gives the same text when formatters are reused across interleaved currencies, locales and signs', () => {
    const cases = [
      () => formatMoney(125000, USD, { locale: 'en-US' }),
      () => formatMoney(125000, { code: 'EUR', decimals: 2 }, { locale: 'de-DE' }),
      () => formatMoney(-1999, USD, { locale: 'en-US', signDisplay: 'always' }),
      () => formatMoney(1000, { code: 'JPY', decimals: 0 }, { locale: 'en-US' }),
      () => formatMoney(12345678, { code: 'USDC', decimals: 6 }, { locale: 'en-US' }),
      () => formatMoney(5, USD, { locale: 'en-US', signDisplay: 'exceptZero' })
    ]
    const first = cases.map((c) => c())
    expect(first).toEqual(['$1,250.00', '1.250,00\u00a0€', '-$19.99', '¥1,000', '12.345678 USDC', '+$0.05'])
    // Second and third rounds come from the reused formatters, in another order: nothing may leak between them.
    expect([...cases].reverse().map((c) => c())).toEqual([...first].reverse())
    expect(cases.map((c) => c())).toEqual(first)
  })

  it('builds one number formatter per locale and currency, not one per amount', () => {
    const original = Intl.NumberFormat
    let built = 0
    const counting = new Proxy(original, {
      construct: (target, args: ConstructorParameters<typeof Intl.NumberFormat>) => {
        built += 1
        return new target(...args)
      }
    })
    Object.defineProperty(Intl, 'NumberFormat', { value: counting, configurable: true, writable: true })
    try {
      for (let i = 0; i < 500; i++) formatMoney(i, { code: 'GBP', decimals: 2 }, { locale: 'en-GB' })
      expect(built).toBe(1)
      expect(formatMoney(499, { code: 'GBP', decimals: 2 }, { locale: 'en-GB' })).toBe('£4.99')
    } finally {
      Object.defineProperty(Intl, 'NumberFormat', { value: original, configurable: true, writable: true })
    }
  })
})

describe('parseMoneyInput', () => {
  it.each([
    ['1,250.5', 2, 125050],
    ['0.01', 2, 1],
    ['7', 0, 7],
    ['0.00000001', 8, 1]
  ])('"%s" with %i decimals is %i minor units', (text, decimals, expected) => {
    expect(parseMoneyInput(text, decimals)).toEqual({ ok: true, amount: expected })
  })

  it.each([
    ['', 2, 'Enter an amount'],
    ['1.234', 2, 'Use at most 2 decimal places'],
    ['1.5', 0, 'This currency has no decimal places'],
    ['-5', 2, 'Use digits and at most one decimal point, e.g. 1250.00'],
    ['1e3', 2, 'Use digits and at most one decimal point, e.g. 1250.00'],
    ['99999999999999999', 2, 'That amount is too large']
  ])('"%s" is refused: %s', (text, decimals, error) => {
    expect(parseMoneyInput(text, decimals)).toEqual({ ok: false, error })
  })
})

describe('formatAmountInSentence (integer minor units, no floating point)', () => {
  it.each([
    [0, 'USD', 2, '0.00 USD'],
    [5, 'USD', 2, '0.05 USD'],
    [123456, 'USD', 2, '1,234.56 USD'],
    [-1999, 'EUR', 2, '-19.99 EUR'],
    [1500, 'JPY', 0, '1,500 JPY'],
    [100000000, 'BTC', 8, '1.00000000 BTC'],
    [9007199254740991, 'USD', 2, '90,071,992,547,409.91 USD']
  ])('%i %s/%i → %s', (amount, currency, decimals, expected) => {
    expect(formatAmountInSentence(amount, currency, decimals)).toBe(expected)
  })
  it('does not pretend a non-integer is money', () => {
    expect(formatAmountInSentence(1.5, 'USD')).toBe('1.5 (minor units) USD')
  })
})
