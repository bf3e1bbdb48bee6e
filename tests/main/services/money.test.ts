import { describe, expect, it } from 'vitest'
import { formatMinor } from '../../../src/main/services/money'

describe('formatMinor (integer minor units, no floating point)', () => {
  it.each([
    [0, 'USD', 2, '0.00 USD'],
    [5, 'USD', 2, '0.05 USD'],
    [123456, 'USD', 2, '1,234.56 USD'],
    [-1999, 'EUR', 2, '-19.99 EUR'],
    [1500, 'JPY', 0, '1,500 JPY'],
    [100000000, 'BTC', 8, '1.00000000 BTC'],
    [9007199254740991, 'USD', 2, '90,071,992,547,409.91 USD']
  ])('%i %s/%i → %s', (amount, currency, decimals, expected) => {
    expect(formatMinor(amount, currency, decimals)).toBe(expected)
  })
  it('does not pretend a non-integer is money', () => {
    expect(formatMinor(1.5, 'USD')).toBe('1.5 (minor units) USD')
  })
})
