import { describe, expect, it } from 'vitest'
import {
  Customer,
  CustomerCreateRequest,
  CustomerListQuery,
  CustomerUpdateRequest,
  KYC_STATUSES,
  KycStatus
} from '../../../src/shared/api/customer'
import { expectIssue, expectValid } from './helpers'

const address = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' }
/** One customer in the members a create request and a customer response share. */
const jane = {
  customerType: 'INDIVIDUAL',
  platformCustomerId: 'user-42',
  umaAddress: '$jane@uma.example.com',
  kycStatus: 'APPROVED',
  fullName: 'Jane Doe',
  birthDate: '1990-01-15',
  nationality: 'US',
  address
}

describe('CustomerCreateRequest', () => {
  it('accepts the minimum: customerType INDIVIDUAL', () => {
    expect(expectValid(CustomerCreateRequest, { customerType: 'INDIVIDUAL' })).toEqual({ customerType: 'INDIVIDUAL' })
  })
  it('accepts every request field of spec 2.4', () => {
    const body = { ...jane, region: 'US', currencies: ['USD', 'USDC'] }
    expect(expectValid(CustomerCreateRequest, body)).toEqual(body)
  })
  it('accepts the published email, as the official clients send it', () => {
    const body = { customerType: 'INDIVIDUAL', email: 'jane.doe@example.com' }
    expect(expectValid(CustomerCreateRequest, body)).toEqual(body)
  })
  it.each([
    [{ customerType: undefined }, 'customerType', 'Customer type is required'],
    [{ customerType: 'BUSINESS' }, 'customerType', 'must be one of INDIVIDUAL'],
    [{ region: 'usa' }, 'region', 'Region must be a two-letter country code'],
    [{ currencies: [] }, 'currencies', 'at least one'],
    [{ currencies: ['USD', 'USD'] }, 'currencies', 'twice'],
    [{ currencies: ['usd'] }, 'currencies.0', 'upper-case'],
    [{ currencies: 'USD' }, 'currencies', 'list of currency codes'],
    [{ umaAddress: 'jane@uma.example.com' }, 'umaAddress', 'UMA address'],
    [{ kycStatus: 'VERIFIED' }, 'kycStatus', 'UNVERIFIED, PENDING, APPROVED, REJECTED'],
    [{ fullName: '' }, 'fullName', 'must not be empty'],
    [{ birthDate: '1990-02-30' }, 'birthDate', 'real calendar date'],
    [{ birthDate: '15/01/1990' }, 'birthDate', 'YYYY-MM-DD'],
    [{ birthDate: '2999-01-01' }, 'birthDate', 'must not be in the future'],
    [{ nationality: 'American' }, 'nationality', 'two-letter country code'],
    [{ address: { line1: 'x', country: 'US' } }, 'address.postalCode', 'Enter the postal code'],
    [{ platformCustomerId: ' ' }, 'platformCustomerId', 'must not be empty'],
    [{ id: 'Customer:1' }, '', 'Unrecognized key'],
    [{ isDeleted: false }, '', 'Unrecognized key'],
    [{ email: 'jane at example.com' }, 'email', 'Email must be an email address']
  ])('%#: %j fails at %s', (patch, path, message) => {
    expectIssue(CustomerCreateRequest, { customerType: 'INDIVIDUAL', ...patch }, path, message)
  })
})

describe('CustomerUpdateRequest', () => {
  it.each([
    [{ fullName: 'New' }],
    [{ umaAddress: '$new@uma.example.com' }],
    [{ customerType: 'INDIVIDUAL', currencies: ['EUR'] }],
    [{ customerType: 'INDIVIDUAL', email: 'new.address@example.com' }]
  ])('accepts %j', (body) => {
    expectValid(CustomerUpdateRequest, body)
  })
  it.each([
    [{}, '', 'at least one'],
    [{ customerType: 'INDIVIDUAL' }, '', 'at least one'],
    [{ region: 'US', fullName: 'x' }, 'region', 'cannot be changed'],
    [{ email: 'not-an-address' }, 'email', 'Email must be an email address'],
    [{ id: 'Customer:1' }, '', 'Unrecognized key']
  ])('%#: rejects %j', (body, path, message) => {
    expectIssue(CustomerUpdateRequest, body, path, message)
  })
})

describe('CustomerListQuery', () => {
  it('coerces query-string values and applies the default limit', () => {
    expect(CustomerListQuery.parse({ isIncludingDeleted: 'true', limit: '50' })).toEqual({
      isIncludingDeleted: true,
      limit: 50
    })
    expect(CustomerListQuery.parse({ isIncludingDeleted: 'false' })).toEqual({ isIncludingDeleted: false, limit: 20 })
    expect(CustomerListQuery.parse({ isIncludingDeleted: true, limit: 1 })).toEqual({
      isIncludingDeleted: true,
      limit: 1
    })
  })
  it('accepts every filter of the reference', () => {
    const q = {
      platformCustomerId: 'user-1',
      customerType: 'INDIVIDUAL',
      createdAfter: '2025-01-01T00:00:00Z',
      createdBefore: '2025-02-01T00:00:00Z',
      updatedAfter: '2025-01-01T00:00:00Z',
      updatedBefore: '2025-02-01T00:00:00Z',
      region: 'US',
      currency: 'USD',
      umaAddress: '$a@b.c',
      isIncludingDeleted: 'true',
      limit: '10',
      cursor: 'c'
    }
    expect(expectValid(CustomerListQuery, q)).toEqual({ ...q, isIncludingDeleted: true, limit: 10 })
  })
  it.each([
    [{ isIncludingDeleted: 'yes' }, 'isIncludingDeleted', 'true or false'],
    [{ isIncludingDeleted: '1' }, 'isIncludingDeleted', 'true or false'],
    [{ createdAfter: 'yesterday' }, 'createdAfter', 'ISO 8601'],
    [{ limit: '200' }, 'limit', 'at most 100'],
    [{ region: 'us' }, 'region', 'two-letter country code'],
    [{ createdAfter: '2025-02-01T00:00:00Z', createdBefore: '2025-01-01T00:00:00Z' }, 'createdBefore', 'not be before'],
    [{ updatedAfter: '2025-02-01T00:00:00Z', updatedBefore: '2025-01-01T00:00:00Z' }, 'updatedBefore', 'not be before'],
    [{ sort: 'asc' }, '', 'Unrecognized key']
  ])('%#: rejects %j', (q, path, message) => {
    expectIssue(CustomerListQuery, q, path, message)
  })
})

describe('Customer (response)', () => {
  const customer = {
    id: 'Customer:019542f5',
    ...jane,
    createdAt: '2025-10-03T12:00:00Z',
    updatedAt: '2025-10-03T12:00:00Z',
    isDeleted: false
  }
  it('parses a full customer', () => {
    expect(Customer.parse(customer)).toEqual(customer)
  })
  it('keeps unknown fields and accepts unknown enum values', () => {
    const c = { ...customer, customerType: 'BUSINESS', kycStatus: 'IN_REVIEW', businessInfo: { legalName: 'Acme' } }
    expect(Customer.parse(c)).toEqual(c)
  })
  it.each(['id', 'platformCustomerId', 'customerType', 'umaAddress'])(
    'requires %s (always present, spec 4.15)',
    (key) => {
      const c: Record<string, unknown> = { ...customer }
      delete c[key]
      expect(Customer.safeParse(c).success).toBe(false)
    }
  )
  it('reads an id without the Customer: prefix as it came (the published API types ids as plain strings)', () => {
    expect(Customer.parse({ ...customer, id: '6f1c2d3e-bare' }).id).toBe('6f1c2d3e-bare')
  })
  it.each(['', 'Quote:1', 'ExternalAccount:1'])('rejects the id %j (empty, or naming another kind)', (id) => {
    expect(Customer.safeParse({ ...customer, id }).success).toBe(false)
  })
  it('exposes the KYC statuses', () => {
    expect([...KYC_STATUSES]).toEqual(['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED'])
    expect(KycStatus.parse('NEW_STATUS')).toBe('NEW_STATUS')
  })
})
