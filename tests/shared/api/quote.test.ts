import { describe, expect, it } from 'vitest'
import { MAX_QUOTE_AMOUNT, Quote, QuoteCreateRequest } from '../../../src/shared/api/quote'
import { expectIssue, expectValid } from './helpers'

const usd = { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 }
const quote = {
  id: 'Quote:019542f5-0006',
  status: 'PENDING',
  createdAt: '2025-10-03T12:00:00Z',
  expiresAt: '2025-10-03T12:05:00Z',
  source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:1' },
  destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:1' },
  sendingCurrency: usd,
  receivingCurrency: { code: 'EUR', name: 'Euro', symbol: '€', decimals: 2 },
  totalSendingAmount: 123010,
  totalReceivingAmount: 1000,
  exchangeRate: 1.08,
  feesIncluded: 10,
  transactionId: 'Transaction:1',
  rateDetails: { counterpartyMultiplier: 1.08, gridApiMultiplier: 0.925 }
}

describe('Quote (response)', () => {
  it('parses a quote and keeps unknown fields and statuses', () => {
    expect(Quote.parse(quote)).toEqual(quote)
    const q = { ...quote, status: 'LOCKED', paymentInstructions: [], purposeOfPayment: 'GIFT' }
    expect(Quote.parse(q)).toEqual(q)
  })
  it.each([
    [{ ...quote, id: 'Transaction:1' }],
    [{ ...quote, totalSendingAmount: 1.5 }],
    [{ ...quote, status: undefined }]
  ])('rejects %#', (q) => {
    expect(Quote.safeParse(q).success).toBe(false)
  })
})

describe('QuoteCreateRequest', () => {
  const body = {
    source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:1' },
    destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:2' },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 1000
  }
  it('accepts a minimal request and the optional members', () => {
    expectValid(QuoteCreateRequest, body)
    expectValid(QuoteCreateRequest, {
      ...body,
      source: { ...body.source, customerId: 'Customer:1' },
      destination: { ...body.destination, paymentRail: 'ACH' },
      lockedCurrencySide: 'RECEIVING',
      immediatelyExecute: true,
      description: 'Invoice 1'
    })
    // The published members the official clients send.
    expectValid(QuoteCreateRequest, {
      ...body,
      lookupId: 'Lookup:019542f5-b3e7-1d02-0000-000000000009',
      purposeOfPayment: 'GOODS_OR_SERVICES',
      senderCustomerInfo: { FULL_NAME: 'Jane Sender', NATIONALITY: 'FR' }
    })
    expectValid(QuoteCreateRequest, {
      ...body,
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$alice@uma.example.com', currency: 'EUR' }
    })
  })
  it.each([
    [{ ...body, lockedCurrencySide: 'sending' }, 'lockedCurrencySide', 'SENDING, RECEIVING'],
    [{ ...body, lockedCurrencyAmount: 0 }, 'lockedCurrencyAmount', 'greater than zero'],
    [{ ...body, lockedCurrencyAmount: 10.5 }, 'lockedCurrencyAmount', 'no decimals'],
    [{ ...body, lockedCurrencyAmount: MAX_QUOTE_AMOUNT + 8 }, 'lockedCurrencyAmount', 'at most'],
    [{ ...body, source: { ...body.source, accountId: 'ExternalAccount:1' } }, 'source.accountId', 'InternalAccount:'],
    [{ ...body, source: { accountId: 'InternalAccount:1' } }, 'source.sourceType', 'ACCOUNT'],
    [
      { ...body, destination: { ...body.destination, accountId: 'InternalAccount:1' } },
      'destination.accountId',
      'ExternalAccount:'
    ],
    [
      { ...body, destination: { ...body.destination, destinationType: 'WIRE' } },
      'destination.destinationType',
      'ACCOUNT or UMA_ADDRESS'
    ],
    [
      { ...body, destination: { destinationType: 'UMA_ADDRESS', umaAddress: 'alice at example' } },
      'destination.umaAddress',
      ''
    ],
    [
      {
        ...body,
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$alice@uma.example.com', currency: 'usd' }
      },
      'destination.currency',
      ''
    ],
    [{ ...body, lookupId: ' ' }, 'lookupId', 'must not be empty'],
    [{ ...body, purposeOfPayment: 'BRIBE' }, 'purposeOfPayment', 'GIFT, SELF'],
    [{ ...body, senderCustomerInfo: 'Jane' }, 'senderCustomerInfo', 'key-value pairs'],
    [{ ...body, quoteId: 'Quote:1' }, '', 'Unrecognized key']
  ])('%#: rejects at %s', (b, path, message) => {
    expectIssue(QuoteCreateRequest, b, path, message)
  })
})
