import { describe, expect, it } from 'vitest'
import {
  Currency,
  CurrencyAmount,
  CurrencyCode,
  MinorUnits,
  NonNegativeMinorUnits,
  PositiveMinorUnits
} from '../../../src/shared/api/money'
import { issuesOf } from './helpers'

const MAX = Number.MAX_SAFE_INTEGER

describe('MinorUnits', () => {
  it.each([0, 1, -1, 12550, MAX, -MAX])('accepts %d', (n) => {
    expect(MinorUnits.parse(n)).toBe(n)
  })
  it.each([
    [1.5, 'no decimals'],
    [0.1, 'no decimals'],
    [MAX + 1, 'safe integer'],
    [2 ** 60, 'safe integer'],
    [-(2 ** 60), 'safe integer'],
    [Number.NaN, 'number of minor units'],
    [Number.POSITIVE_INFINITY, 'number of minor units'],
    ['100', 'number of minor units'],
    [undefined, 'Amount is required'],
    [null, 'number of minor units']
  ])('rejects %j (%s)', (v, message) => {
    const issues = issuesOf(MinorUnits, v)
    expect(issues.length).toBeGreaterThan(0)
    expect(issues[0]?.message).toContain(message)
  })
})

describe('PositiveMinorUnits and NonNegativeMinorUnits', () => {
  it.each([
    [PositiveMinorUnits, 1, true],
    [PositiveMinorUnits, 0, false],
    [PositiveMinorUnits, -5, false],
    [PositiveMinorUnits, 2.5, false],
    [PositiveMinorUnits, MAX, true],
    [PositiveMinorUnits, MAX + 2, false],
    [NonNegativeMinorUnits, 0, true],
    [NonNegativeMinorUnits, -1, false],
    [NonNegativeMinorUnits, 0.5, false]
  ])('%#: %d -> %s', (schema, n, ok) => {
    expect(schema.safeParse(n).success).toBe(ok)
  })
  it('says why a non-positive amount is rejected', () => {
    expect(issuesOf(PositiveMinorUnits, 0)[0]?.message).toBe('Amount must be greater than zero')
    expect(issuesOf(NonNegativeMinorUnits, -1)[0]?.message).toBe('Amount must not be negative')
  })
})

describe('CurrencyCode', () => {
  it.each(['USD', 'EUR', 'BTC', 'USDC', 'USDT', 'ABCDE', 'A1B'])('accepts %s', (c) => {
    expect(CurrencyCode.parse(c)).toBe(c)
  })
  it.each(['usd', 'US', 'ABCDEF', 'U$D', '', ' USD', 'Usd'])('rejects %j', (c) => {
    expect(issuesOf(CurrencyCode, c)[0]?.message).toContain('3 to 5 upper-case letters or digits')
  })
  it('says a missing code is required', () => {
    expect(issuesOf(CurrencyCode, undefined)[0]?.message).toBe('Currency code is required')
  })
})

describe('Currency (response)', () => {
  it('keeps unknown fields', () => {
    const c = { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2, flag: 'us' }
    expect(Currency.parse(c)).toEqual(c)
  })
  it('accepts a currency object with only a code', () => {
    expect(Currency.parse({ code: 'XYZ' })).toEqual({ code: 'XYZ' })
  })
  it.each([[-1], [19], [1.5], ['2'], [87364]])('reads decimals %j it cannot format with as not given', (decimals) => {
    expect(Currency.parse({ code: 'USD', decimals }).decimals).toBeUndefined()
  })
  it.each([[0], [8], [18]])('accepts decimals %j', (decimals) => {
    expect(Currency.safeParse({ code: 'BTC', decimals }).success).toBe(true)
  })
})

describe('CurrencyAmount (response)', () => {
  const currency = { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 }
  it('parses an amount in minor units', () => {
    expect(CurrencyAmount.parse({ amount: 12550, currency })).toEqual({ amount: 12550, currency })
  })
  it.each([[125.5], [2 ** 60], ['12550']])('rejects amount %j', (amount) => {
    expect(CurrencyAmount.safeParse({ amount, currency }).success).toBe(false)
  })
  it('allows a negative amount (balances can be negative in a response)', () => {
    expect(CurrencyAmount.safeParse({ amount: -5, currency }).success).toBe(true)
  })
})
