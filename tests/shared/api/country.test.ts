import { describe, expect, it } from 'vitest'
import { CountryCode, IsoDate, IsoDateOrDateTime, IsoDateTime, isRealIsoDate } from '../../../src/shared/api/country'
import { issuesOf } from './helpers'

describe('CountryCode', () => {
  it.each(['US', 'GB', 'MX', 'PH'])('accepts %s', (c) => expect(CountryCode.parse(c)).toBe(c))
  it.each(['us', 'USA', 'U', '', 'U1', 'Us'])('rejects %j', (c) => {
    expect(issuesOf(CountryCode, c)[0]?.message).toContain('two-letter country code')
  })
})

describe('IsoDate', () => {
  it.each(['1990-01-15', '2024-02-29', '2000-02-29', '1999-12-31', '2025-04-30'])('accepts %s', (d) => {
    expect(IsoDate.parse(d)).toBe(d)
  })
  it.each([
    ['2023-02-29', 'real calendar date'],
    ['1900-02-29', 'real calendar date'],
    ['2025-04-31', 'real calendar date'],
    ['2025-13-01', 'real calendar date'],
    ['2025-00-10', 'real calendar date'],
    ['2025-01-00', 'real calendar date'],
    ['2025-1-15', 'YYYY-MM-DD'],
    ['15/01/1990', 'YYYY-MM-DD'],
    ['1990-01-15T00:00:00Z', 'YYYY-MM-DD'],
    ['', 'YYYY-MM-DD']
  ])('rejects %s (%s)', (d, message) => {
    const issues = issuesOf(IsoDate, d)
    expect(issues).toHaveLength(1)
    expect(issues[0]?.message).toContain(message)
  })
  it('isRealIsoDate handles leap years', () => {
    expect(isRealIsoDate('2400-02-29')).toBe(true)
    expect(isRealIsoDate('2100-02-29')).toBe(false)
  })
})

describe('IsoDateTime', () => {
  it.each(['2025-10-03T12:30:00Z', '2025-10-03T12:30:00.123Z', '2025-10-03T12:30:00+02:00'])('accepts %s', (d) => {
    expect(IsoDateTime.parse(d)).toBe(d)
  })
  it.each(['2025-10-03', '2025-10-03T12:30:00', 'yesterday', '2025-10-03 12:30:00Z', '2025-13-03T12:30:00Z'])(
    'rejects %s',
    (d) => {
      expect(issuesOf(IsoDateTime, d)[0]?.message).toContain('ISO 8601 date-time')
    }
  )
})

describe('IsoDateOrDateTime', () => {
  it.each(['2025-10-03', '2025-10-03T12:30:00Z'])('accepts %s', (d) => expect(IsoDateOrDateTime.parse(d)).toBe(d))
  it.each(['2025-02-30', 'soon', '2025-10-03T12:30:00'])('rejects %s', (d) => {
    expect(IsoDateOrDateTime.safeParse(d).success).toBe(false)
  })
})
