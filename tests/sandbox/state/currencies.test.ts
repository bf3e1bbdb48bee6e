import { describe, expect, it } from 'vitest'
import { convertMinor, minorNeededFor } from '../../../src/sandbox/state/currencies'

describe('sandbox currency conversion', () => {
  it('converts with exact integer arithmetic where a float would round a cent away', () => {
    // 2,844.49 GBP at 1.27 / 0.055 is exactly 65,681.8636… MXN; the float path gave 65,681.85 (a cent short).
    expect(convertMinor(284_449, 'GBP', 'MXN')).toBe(6_568_186)
    expect(convertMinor(10_000, 'EUR', 'USD')).toBe(10_800)
    expect(convertMinor(10_800, 'USD', 'EUR')).toBe(10_000)
  })

  it('stays exact for amounts far beyond float precision of the intermediate product', () => {
    const big = 9_007_199_254_740_991 // Number.MAX_SAFE_INTEGER
    expect(convertMinor(big, 'USDC', 'USDB')).toBe(big)
    // 1 BTC (1e8 sats) = 65,000 USD = 6,500,000 cents.
    expect(convertMinor(100_000_000, 'BTC', 'USD')).toBe(6_500_000)
    expect(Number.isInteger(convertMinor(123_456_789, 'NGN', 'UGX'))).toBe(true)
  })

  it('finds the fewest sending units that deliver a locked receiving amount', () => {
    for (const [received, from, to] of [
      [31, 'EUR', 'USD'],
      [1_000_000, 'USD', 'NGN'],
      [777, 'MXN', 'BTC'],
      [5, 'UGX', 'KES']
    ] as const) {
      const needed = minorNeededFor(received, from, to)
      expect(Number.isInteger(needed)).toBe(true)
      expect(convertMinor(needed, from, to)).toBeGreaterThanOrEqual(received)
      expect(convertMinor(needed - 1, from, to)).toBeLessThan(received)
    }
  })
})
