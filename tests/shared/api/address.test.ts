import { describe, expect, it } from 'vitest'
import { Address, AddressInput } from '../../../src/shared/api/address'
import { expectIssue, expectValid } from './helpers'

const full = {
  line1: '123 Main St',
  line2: 'Apt 4',
  city: 'San Francisco',
  state: 'CA',
  postalCode: '94105',
  country: 'US'
}

describe('AddressInput (request)', () => {
  it('accepts a full address', () => {
    expect(expectValid(AddressInput, full)).toEqual(full)
  })
  it('accepts the minimum of the reference: line1, postalCode, country', () => {
    expectValid(AddressInput, { line1: '1 High St', postalCode: 'SW1A 1AA', country: 'GB' })
  })
  it.each([
    [{ ...full, line1: undefined }, 'line1', 'Enter address line 1'],
    [{ ...full, line1: '   ' }, 'line1', 'Address line 1 must not be empty'],
    [{ ...full, postalCode: undefined }, 'postalCode', 'Enter the postal code'],
    [{ ...full, country: undefined }, 'country', 'Enter the country'],
    [{ ...full, country: 'USA' }, 'country', 'two-letter country code'],
    [{ ...full, city: '' }, 'city', 'City must not be empty'],
    [{ ...full, zip: '94105' }, '', 'Unrecognized key']
  ])('%#: rejects at %s', (value, path, message) => {
    expectIssue(AddressInput, value, path, message)
  })
})

describe('Address (response)', () => {
  it('keeps unknown fields and accepts partial addresses', () => {
    const a = { line1: '1 Rue', country: 'FR', district: '8e' }
    expect(Address.parse(a)).toEqual(a)
    expect(Address.parse({})).toEqual({})
  })
})
