import { describe, expect, it } from 'vitest'
import { DiscoveryEntry, DiscoveryQuery } from '../../../src/shared/api/discovery'
import { expectIssue } from './helpers'

describe('DiscoveryEntry (response)', () => {
  const entry = { bankName: 'BDO Unibank', displayName: 'BDO Unibank', country: 'PH', currency: 'PHP' }
  it('parses and keeps unknown members', () => {
    expect(DiscoveryEntry.parse({ ...entry, logoUrl: 'x' })).toEqual({ ...entry, logoUrl: 'x' })
  })
  it.each(['bankName', 'displayName', 'country', 'currency'])('requires %s', (key) => {
    const e: Record<string, unknown> = { ...entry }
    delete e[key]
    expect(DiscoveryEntry.safeParse(e).success).toBe(false)
  })
})

describe('DiscoveryQuery', () => {
  it('accepts country and currency, both optional', () => {
    expect(DiscoveryQuery.parse({})).toEqual({})
    expect(DiscoveryQuery.parse({ country: 'PH', currency: 'PHP' })).toEqual({ country: 'PH', currency: 'PHP' })
  })
  it.each([
    [{ country: 'ph' }, 'country', 'two-letter country code'],
    [{ currency: 'peso' }, 'currency', 'upper-case'],
    [{ q: 'BDO' }, '', 'Unrecognized key']
  ])('rejects %j', (q, path, message) => {
    expectIssue(DiscoveryQuery, q, path, message)
  })
})
