import { describe, expect, it } from 'vitest'
import { amountInMinorUnits, amountSearchOf } from '../../src/shared/amount-search'

describe('amountSearchOf', () => {
  it('reads what an operator types for an amount, exactly', () => {
    expect(amountSearchOf('1250')).toEqual({ units: 1250, scale: 0 })
    expect(amountSearchOf('1,250.00')).toEqual({ units: 1250, scale: 0 })
    expect(amountSearchOf('$1,250.5')).toEqual({ units: 12505, scale: 1 })
    expect(amountSearchOf(' €0.05 ')).toEqual({ units: 5, scale: 2 })
  })

  it('leaves text to the text search', () => {
    for (const text of ['', 'ee4c', '12-34', '1,25', 'jane 1250', '1.2.3', 'Transaction:0195']) {
      expect(amountSearchOf(text)).toBeNull()
    }
  })
})

describe('amountInMinorUnits', () => {
  it('is the amount in each decimals’ minor units, skipping currencies that cannot hold it', () => {
    const groups = amountInMinorUnits({ units: 1250, scale: 0 })
    expect(groups.find((g) => g.currencies.includes('JPY'))?.minor).toBe(1250)
    expect(groups.find((g) => g.other)?.minor).toBe(125_000)
    expect(groups.find((g) => g.currencies.includes('BTC'))?.minor).toBe(125_000_000_000)
    const cents = amountInMinorUnits({ units: 12505, scale: 1 })
    expect(cents.some((g) => g.currencies.includes('JPY'))).toBe(false)
    expect(cents.find((g) => g.other)?.minor).toBe(125_050)
  })
})
