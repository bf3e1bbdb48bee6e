import { describe, expect, it } from 'vitest'
import {
  FundingPaymentInstruction,
  FundInternalAccountRequest,
  InternalAccount,
  InternalAccountQuery,
  MAX_SANDBOX_FUNDING_AMOUNT,
  PlatformInternalAccountQuery
} from '../../../src/shared/api/internal-account'
import { expectIssue, expectValid } from './helpers'

const account = {
  id: 'InternalAccount:12dcbd6',
  type: 'INTERNAL_FIAT',
  customerId: 'Customer:1',
  balance: { amount: 12550, currency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 } },
  fundingPaymentInstructions: [
    {
      accountOrWalletInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '1234567890',
        routingNumber: '021000021',
        paymentRails: ['ACH', 'WIRE'],
        reference: 'UMA-Q12345-REF'
      },
      instructionsNotes: 'Include the reference',
      isPlatformAccount: false
    }
  ],
  createdAt: '2025-10-03T12:30:00Z',
  updatedAt: '2025-10-03T12:30:00Z'
}

describe('InternalAccount (response)', () => {
  it('parses an account with funding instructions', () => {
    expect(InternalAccount.parse(account)).toEqual(account)
  })
  it('keeps unknown fields and accepts unknown types, platform accounts without customerId', () => {
    const a: Record<string, unknown> = { ...account, type: 'NEW_KIND', label: 'Main' }
    delete a.customerId
    expect(InternalAccount.parse(a)).toEqual(a)
  })
  it.each([
    [{ ...account, balance: { amount: 1.5, currency: { code: 'USD' } } }],
    [{ ...account, balance: undefined }],
    [{ ...account, id: 'ExternalAccount:1' }]
  ])('rejects %#', (a) => {
    expect(InternalAccount.safeParse(a).success).toBe(false)
  })
  it('reads a Spark wallet instruction', () => {
    const i = {
      accountOrWalletInfo: { accountType: 'SPARK_WALLET', assetType: 'BTC', address: 'spark1...', invoice: 'lnbc1' }
    }
    expect(FundingPaymentInstruction.parse(i)).toEqual(i)
  })
})

describe('FundInternalAccountRequest', () => {
  it.each([1, 12550, MAX_SANDBOX_FUNDING_AMOUNT])('accepts %d', (amount) => {
    expect(expectValid(FundInternalAccountRequest, { amount })).toEqual({ amount })
  })
  it.each([
    [0, 'greater than zero'],
    [-1, 'greater than zero'],
    [MAX_SANDBOX_FUNDING_AMOUNT + 1, 'at most 100000000000'],
    [100.5, 'no decimals'],
    [2 ** 60, 'safe integer'],
    ['100', 'number of minor units'],
    [undefined, 'Amount is required']
  ])('rejects %j (%s)', (amount, message) => {
    expectIssue(FundInternalAccountRequest, { amount }, 'amount', message)
  })
  it('rejects unknown keys', () => {
    expectIssue(FundInternalAccountRequest, { amount: 1, currency: 'USD' }, '', 'Unrecognized key')
  })
})

describe('internal account queries', () => {
  it('InternalAccountQuery coerces limit and checks ids', () => {
    expect(InternalAccountQuery.parse({ customerId: 'Customer:1', limit: '5' })).toEqual({
      customerId: 'Customer:1',
      limit: 5
    })
    expectIssue(InternalAccountQuery, { customerId: '1' }, 'customerId', 'Customer:')
    expectIssue(InternalAccountQuery, { type: 'SAVINGS' }, 'type', 'INTERNAL_FIAT')
  })
  it('PlatformInternalAccountQuery takes currency and the published type', () => {
    expect(PlatformInternalAccountQuery.parse({ currency: 'USDC' })).toEqual({ currency: 'USDC' })
    expect(PlatformInternalAccountQuery.parse({ type: 'INTERNAL_CRYPTO' })).toEqual({ type: 'INTERNAL_CRYPTO' })
    expectIssue(PlatformInternalAccountQuery, { type: 'SAVINGS' }, 'type', 'INTERNAL_FIAT')
    expectIssue(PlatformInternalAccountQuery, { cursor: 'x' }, '', 'Unrecognized key')
    expectIssue(PlatformInternalAccountQuery, { currency: 'dollars' }, 'currency', 'upper-case')
  })
})
