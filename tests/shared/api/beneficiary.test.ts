import { describe, expect, it } from 'vitest'
import {
  Beneficiary,
  BENEFICIARY_MINIMUMS,
  BENEFICIARY_TYPES,
  BeneficiaryInput,
  beneficiaryMinimumIssues
} from '../../../src/shared/api/beneficiary'
import { expectIssue, expectValid } from './helpers'

const address = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' }
const individual = { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' }

describe('BENEFICIARY_MINIMUMS matches the table of spec 2.6', () => {
  it.each([
    ['USD', ['beneficiaryType', 'fullName'], ['line1', 'city', 'postalCode', 'country']],
    ['MXN', ['beneficiaryType', 'fullName'], []],
    ['BRL', ['beneficiaryType', 'fullName'], []],
    ['PHP', ['beneficiaryType', 'fullName'], []],
    ['GBP', ['beneficiaryType', 'fullName', 'address'], ['line1', 'city', 'postalCode', 'country']],
    ['EUR', ['beneficiaryType', 'fullName', 'address'], ['line1', 'city', 'postalCode', 'country']]
  ])('%s', (currency, fields, addressFields) => {
    const row = BENEFICIARY_MINIMUMS[currency as keyof typeof BENEFICIARY_MINIMUMS]
    expect([...row.requiredFields]).toEqual(fields)
    expect([...row.requiredAddressFields]).toEqual(addressFields)
  })
  it('has exactly the six rows', () => {
    expect(Object.keys(BENEFICIARY_MINIMUMS).sort()).toEqual(['BRL', 'EUR', 'GBP', 'MXN', 'PHP', 'USD'])
  })
})

type Case = [currency: string, beneficiary: unknown, paths: string[]]

const withAddress = (a: Record<string, unknown>) => ({ ...individual, address: a })
const without = (key: string) => {
  const copy: Record<string, unknown> = { ...address }
  delete copy[key]
  return copy
}

describe('beneficiaryMinimumIssues', () => {
  const valid: Case[] = [
    ['USD', withAddress(address), []],
    ['MXN', individual, []],
    ['MXN', withAddress(address), []],
    ['BRL', individual, []],
    ['PHP', individual, []],
    ['GBP', withAddress({ ...address, country: 'GB' }), []],
    ['EUR', withAddress({ ...address, country: 'DE' }), []],
    ['NGN', individual, []],
    ['USD', { beneficiaryType: 'BUSINESS', businessInfo: { legalName: 'Acme Inc' } }, []]
  ]
  const invalid: Case[] = [
    // every row: missing beneficiaryType, missing fullName
    ...(['USD', 'MXN', 'BRL', 'PHP', 'GBP', 'EUR'] as const).flatMap((c): Case[] => [
      [c, { fullName: 'Jane', address }, ['beneficiaryType']],
      [c, { beneficiaryType: 'INDIVIDUAL', address }, ['fullName']],
      [c, { beneficiaryType: 'INDIVIDUAL', fullName: '  ', address }, ['fullName']],
      [c, undefined, ['']],
      [c, 'Jane', ['']]
    ]),
    // rows with an address requirement: the address and each required member
    ...(['USD', 'GBP', 'EUR'] as const).flatMap((c): Case[] => [
      [c, individual, ['address']],
      [c, withAddress(without('line1')), ['address.line1']],
      [c, withAddress(without('city')), ['address.city']],
      [c, withAddress(without('postalCode')), ['address.postalCode']],
      [c, withAddress(without('country')), ['address.country']],
      [c, withAddress({ ...address, city: '' }), ['address.city']],
      [c, withAddress({}), ['address.line1', 'address.city', 'address.postalCode', 'address.country']]
    ]),
    ['USD', { beneficiaryType: 'BUSINESS' }, ['legalName']],
    ['NGN', { beneficiaryType: 'INDIVIDUAL' }, ['fullName']]
  ]

  it.each(valid)('%s: %j meets the minimum', (currency, b) => {
    expect(beneficiaryMinimumIssues(currency, b)).toEqual([])
  })
  it.each(invalid)('%s: %j lacks %j', (currency, b, paths) => {
    const issues = beneficiaryMinimumIssues(currency, b)
    expect(issues.map((i) => i.path.join('.'))).toEqual(paths)
    for (const issue of issues) expect(issue.message).toMatch(/^(Enter|Choose) the /)
  })
  it('names the currency in the message', () => {
    expect(beneficiaryMinimumIssues('GBP', individual)[0]?.message).toBe(
      'Enter the beneficiary’s address: address line 1, city, postal code and country (required for a GBP account)'
    )
    expect(beneficiaryMinimumIssues('USD', withAddress(without('city')))[0]?.message).toBe(
      'Enter the beneficiary’s city (required for a USD account)'
    )
  })
  it('does not require an address for MXN, BRL, PHP', () => {
    for (const c of ['MXN', 'BRL', 'PHP']) expect(beneficiaryMinimumIssues(c, individual)).toEqual([])
  })
})

describe('BeneficiaryInput (request)', () => {
  it('accepts every optional field', () => {
    const b = {
      beneficiaryType: 'INDIVIDUAL',
      fullName: 'Jane Doe',
      birthDate: '1990-01-15',
      nationality: 'US',
      email: 'jane@example.com',
      phoneNumber: '+14155550123',
      countryOfResidence: 'US',
      address
    }
    expect(expectValid(BeneficiaryInput, b)).toEqual(b)
  })
  it('accepts a business in the published shape: legalName, taxId and registrationNumber at the top level', () => {
    const b = { beneficiaryType: 'BUSINESS', legalName: 'Acme Ltd', taxId: '12-3', registrationNumber: 'HRB 1' }
    expect(expectValid(BeneficiaryInput, b)).toEqual(b)
  })
  it('accepts a business with businessInfo (spec shape)', () => {
    expectValid(BeneficiaryInput, { beneficiaryType: 'BUSINESS', businessInfo: { legalName: 'Acme', taxId: '12-3' } })
  })
  it.each([
    [{ fullName: 'Jane' }, 'beneficiaryType', 'Beneficiary type is required'],
    [{ beneficiaryType: 'PERSON', fullName: 'J' }, 'beneficiaryType', 'must be one of INDIVIDUAL, BUSINESS'],
    [{ beneficiaryType: 'INDIVIDUAL' }, 'fullName', 'Enter the beneficiary’s full name'],
    [{ ...individual, birthDate: '1990-02-30' }, 'birthDate', 'real calendar date'],
    [{ ...individual, nationality: 'usa' }, 'nationality', 'Nationality must be a two-letter country code'],
    [{ ...individual, countryOfResidence: 'U' }, 'countryOfResidence', 'two-letter country code'],
    [{ ...individual, email: 'not-an-email' }, 'email', 'Email must be an email address'],
    [{ ...individual, phoneNumber: '4155550123' }, 'phoneNumber', 'Phone must be "+", the country code'],
    [{ ...individual, address: { line1: 'x' } }, 'address.postalCode', 'Enter the postal code'],
    [{ ...individual, businessInfo: { legalName: 'A' } }, 'businessInfo', 'only for a business beneficiary'],
    [{ beneficiaryType: 'BUSINESS' }, 'legalName', 'Enter the business’s legal name'],
    [{ beneficiaryType: 'BUSINESS', legalName: ' ' }, 'legalName', 'Legal name must not be empty'],
    [{ ...individual, legalName: 'A' }, 'legalName', 'A legal name is only for a business beneficiary'],
    [
      { beneficiaryType: 'BUSINESS', legalName: 'A', businessInfo: { legalName: 'B' } },
      'businessInfo.legalName',
      'disagree'
    ],
    [{ beneficiaryType: 'BUSINESS', businessInfo: {} }, 'businessInfo.legalName', 'Enter the business’s legal name'],
    [{ ...individual, middleName: 'Q' }, '', 'Unrecognized key']
  ])('%#: %j fails at %s', (b, path, message) => {
    expectIssue(BeneficiaryInput, b, path, message)
  })
})

describe('Beneficiary (response)', () => {
  it('keeps unknown fields and accepts an unknown beneficiaryType', () => {
    const b = { beneficiaryType: 'TRUST', fullName: 'X', registrationNumber: '42', legalName: 'Y' }
    expect(Beneficiary.parse(b)).toEqual(b)
  })
  it('knows INDIVIDUAL and BUSINESS', () => {
    expect([...BENEFICIARY_TYPES]).toEqual(['INDIVIDUAL', 'BUSINESS'])
  })
})
