import { describe, expect, it } from 'vitest'
import { dayText, moneyText, sum, WHOLE_STEPS } from '../../../../src/renderer/src/views/home/home-series'

describe('Home chart words', () => {
  it('formats minor units at the edge with the currency’s decimals, and never guesses unknown ones', () => {
    expect(moneyText(845_000, 'USD')).toBe('$8,450.00')
    expect(moneyText(0, 'USD')).toBe('$0.00')
    expect(moneyText(1234, 'XYZ')).toBe('1234 minor units XYZ')
  })

  it('names a day as written, whatever the zone this runs in', () => {
    expect(dayText('2026-11-28')).toMatch(/28/)
    expect(dayText('2026-11-28')).toMatch(/Nov/)
    expect(dayText('not a day')).toBe('not a day')
  })

  it('sums a series and steps an axis in whole minor units only', () => {
    expect(sum([1, 2, 3])).toBe(6)
    expect(WHOLE_STEPS.every((step) => Number.isInteger(step) && step >= 1)).toBe(true)
    expect(WHOLE_STEPS.slice(0, 4)).toEqual([1, 2, 5, 10])
  })
})
