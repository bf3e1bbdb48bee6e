import { describe, expect, it } from 'vitest'
import { pagedList } from '../../../src/shared/api/list'
import {
  ApprovePaymentRequest,
  INCOMING_FAILURE_REASONS,
  IncomingTransaction,
  isIncomingTransaction,
  isOutgoingTransaction,
  OUTGOING_FAILURE_REASONS,
  OUTGOING_TRANSACTION_STATUSES,
  OutgoingTransaction,
  RateDetails,
  rateDetailsFees,
  Refund,
  RejectPaymentRequest,
  Transaction,
  TRANSACTION_STATUSES,
  transactionDateRange,
  TransactionListQuery,
  TransferOutRequest
} from '../../../src/shared/api/transaction'
import { expectIssue, expectValid, issuesOf } from './helpers'

const usd = { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 }
const eur = { code: 'EUR', name: 'Euro', symbol: '€', decimals: 2 }

const incoming = {
  id: 'Transaction:019542f5-0004',
  status: 'COMPLETED',
  type: 'INCOMING',
  destination: { destinationType: 'ACCOUNT', accountId: 'InternalAccount:1', currency: 'USD' },
  customerId: 'Customer:1',
  platformCustomerId: 'user-1',
  settledAt: '2025-08-15T14:30:00Z',
  createdAt: '2025-08-15T14:25:18Z',
  updatedAt: '2025-08-15T14:30:00Z',
  description: 'Payment for invoice #1234',
  counterpartyInformation: { FULL_NAME: 'John Sender', BIRTH_DATE: '1985-06-15', NATIONALITY: 'DE' },
  receivedAmount: { amount: 1000, currency: usd },
  source: { sourceType: 'UMA_ADDRESS', umaAddress: '$sender@uma.example.com', currency: 'EUR' },
  reconciliationInstructions: { reference: 'UMA-Q12345-REF' },
  rateDetails: {
    gridApiMultiplier: 0.925,
    gridApiFixedFee: 10,
    gridApiVariableFeeRate: 0.003,
    gridApiVariableFeeAmount: 30
  }
}

const outgoing = {
  id: 'Transaction:019542f5-0005',
  status: 'PROCESSING',
  type: 'OUTGOING',
  destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:1', currency: 'EUR' },
  customerId: 'Customer:1',
  platformCustomerId: 'user-1',
  source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:1', currency: 'USD' },
  sentAmount: { amount: 10000, currency: usd },
  receivedAmount: { amount: 9200, currency: eur },
  exchangeRate: 1.08,
  fees: 10,
  quoteId: 'Quote:1',
  paymentInstructions: [
    {
      accountOrWalletInfo: { accountType: 'USD_ACCOUNT', paymentRails: ['ACH'], accountNumber: '1', reference: 'R' },
      instructionsNotes: 'Include reference R'
    }
  ],
  refund: {
    reference: 'UMA-REFUND',
    initiatedAt: '2025-08-15T14:30:00Z',
    status: 'COMPLETED',
    reason: 'TRANSACTION_FAILED'
  },
  rateDetails: {
    counterpartyMultiplier: 1.08,
    counterpartyFixedFee: 10,
    serviceApiMultiplier: 0.925,
    serviceApiFixedFee: 10,
    serviceApiVariableFeeRate: 0.003,
    serviceApiVariableFeeAmount: 30
  }
}

describe('Transaction union', () => {
  it('parses an incoming transaction as IncomingTransaction', () => {
    const t = Transaction.parse(incoming)
    expect(t).toEqual(incoming)
    expect(isIncomingTransaction(t)).toBe(true)
    expect(isOutgoingTransaction(t)).toBe(false)
  })
  it('parses an outgoing transaction as OutgoingTransaction', () => {
    const t = Transaction.parse(outgoing)
    expect(t).toEqual(outgoing)
    expect(isOutgoingTransaction(t)).toBe(true)
  })
  it.each([
    [{ id: 'Transaction:9', type: 'INTERNAL_TRANSFER', status: 'COMPLETED', whatever: { a: 1 } }],
    [{ id: 'Transaction:9', type: 'REFUND' }],
    [{ ...incoming, type: 'SWAP' }]
  ])('tolerates an unknown type %#, keeping every field', (t) => {
    const parsed = Transaction.parse(t)
    expect(parsed).toEqual(t)
    expect(isIncomingTransaction(parsed)).toBe(false)
    expect(isOutgoingTransaction(parsed)).toBe(false)
  })
  it('keeps unknown fields and accepts unknown status and failureReason values', () => {
    const t = { ...incoming, status: 'ON_HOLD', failureReason: 'NEW_REASON', newField: 1 }
    expect(Transaction.parse(t)).toEqual(t)
  })
  it.each([
    ['INCOMING', 'receivedAmount', { ...incoming, receivedAmount: undefined }],
    ['INCOMING', 'destination', { ...incoming, destination: undefined }],
    ['INCOMING', 'id', { ...incoming, id: 'Quote:1' }],
    ['INCOMING', 'receivedAmount.amount', { ...incoming, receivedAmount: { amount: 10.5, currency: usd } }],
    ['OUTGOING', 'sentAmount', { ...outgoing, sentAmount: undefined }],
    ['OUTGOING', 'source', { ...outgoing, source: undefined }],
    ['OUTGOING', 'fees', { ...outgoing, fees: -1 }],
    ['OUTGOING', 'fees', { ...outgoing, fees: 1.5 }],
    ['OUTGOING', 'sentAmount.amount', { ...outgoing, sentAmount: { amount: 2 ** 60, currency: usd } }]
  ])('a malformed %s fails at %s instead of falling back', (_type, path, t) => {
    expect(issuesOf(Transaction, t).map((i) => i.path)).toContain(path)
  })
  it.each([[null], ['Transaction:1'], [{ type: 'NEW' }], [{ id: 'Transaction:1' }]])('rejects %j', (t) => {
    expect(Transaction.safeParse(t).success).toBe(false)
  })
  it('parses a list mixing known and unknown types and reports the index of a bad item', () => {
    const List = pagedList(Transaction)
    const page = {
      data: [incoming, outgoing, { id: 'Transaction:3', type: 'NEW' }],
      hasMore: true,
      nextCursor: 'c',
      totalCount: 3
    }
    expect(List.parse(page).data).toHaveLength(3)
    const bad = { ...page, data: [incoming, { ...outgoing, sentAmount: undefined }] }
    expect(issuesOf(List, bad).map((i) => i.path)).toEqual(['data.1.sentAmount'])
  })
  it('IncomingTransaction and OutgoingTransaction reject the other type', () => {
    expect(IncomingTransaction.safeParse(outgoing).success).toBe(false)
    expect(OutgoingTransaction.safeParse(incoming).success).toBe(false)
  })
})

describe('status and failure reason lists (spec 3.2 and 2.8)', () => {
  it('lists the statuses of spec 3.2, in its order, and the list filter accepts each', () => {
    const spec = 'CREATED PENDING PROCESSING COMPLETED REJECTED FAILED REFUNDED EXPIRED'.split(' ')
    expect([...TRANSACTION_STATUSES]).toEqual(spec)
    for (const status of spec) expectValid(TransactionListQuery, { status })
    expect([...OUTGOING_TRANSACTION_STATUSES]).toEqual(['PENDING', 'EXPIRED', 'PROCESSING', 'COMPLETED', 'FAILED'])
  })
  it('lists the failure reasons', () => {
    expect(INCOMING_FAILURE_REASONS).toHaveLength(8)
    expect(OUTGOING_FAILURE_REASONS).toEqual([
      'QUOTE_EXPIRED',
      'QUOTE_EXECUTION_FAILED',
      'LIGHTNING_PAYMENT_FAILED',
      'FUNDING_AMOUNT_MISMATCH',
      'COUNTERPARTY_POST_TX_FAILED'
    ])
  })
})

describe('RateDetails', () => {
  it.each([
    [{ gridApiMultiplier: 0.9, gridApiFixedFee: 10, gridApiVariableFeeRate: 0.003, gridApiVariableFeeAmount: 30 }],
    [
      {
        serviceApiMultiplier: 0.9,
        serviceApiFixedFee: 10,
        serviceApiVariableFeeRate: 0.003,
        serviceApiVariableFeeAmount: 30
      }
    ]
  ])('reads the fee members under either name %#', (rd) => {
    expect(rateDetailsFees(RateDetails.parse(rd))).toEqual({
      apiMultiplier: 0.9,
      apiFixedFee: 10,
      apiVariableFeeRate: 0.003,
      apiVariableFeeAmount: 30
    })
  })
  it('keeps unknown members', () => {
    expect(RateDetails.parse({ newFee: 3 })).toEqual({ newFee: 3 })
  })
})

describe('Refund', () => {
  it('accepts unknown status and reason values', () => {
    const r = { reference: 'R', initiatedAt: '2025-01-01T00:00:00Z', status: 'REVERSED', reason: 'FRAUD' }
    expect(Refund.parse(r)).toEqual(r)
  })
})

describe('TransactionListQuery', () => {
  it('applies defaults: limit 20, sortOrder desc', () => {
    expect(TransactionListQuery.parse({})).toEqual({ limit: 20, sortOrder: 'desc' })
  })
  it('accepts every parameter of spec 4.9, from a query string', () => {
    const q = {
      customerId: 'Customer:1',
      platformCustomerId: 'user-1',
      senderAccountIdentifier: 'InternalAccount:1',
      receiverAccountIdentifier: 'ExternalAccount:1',
      status: 'COMPLETED',
      type: 'OUTGOING',
      reference: 'UMA-Q12345-REF',
      startDate: '2025-01-01T00:00:00Z',
      endDate: '2025-01-31T23:59:59Z',
      limit: '100',
      cursor: 'abc',
      sortOrder: 'asc'
    }
    expect(expectValid(TransactionListQuery, q)).toEqual({ ...q, limit: 100 })
  })
  it('accepts the published accountIdentifier (sender or receiver)', () => {
    expectValid(TransactionListQuery, { accountIdentifier: 'ExternalAccount:1' })
    expectIssue(TransactionListQuery, { accountIdentifier: '' }, 'accountIdentifier', 'must not be empty')
  })
  it.each([
    [{ startDate: '2025-01-01T10:00:00Z', endDate: '2025-01-01' }],
    [{ startDate: '2025-01-01T00:00:00Z', endDate: '2025-01-01T00:00:00Z' }],
    [{ startDate: '2025-01-01T00:00:00+02:00' }],
    [{ endDate: '2025-01-01' }]
  ])('accepts an inclusive range %j', (q) => {
    expectValid(TransactionListQuery, q)
  })
  it.each([
    [{ startDate: '2025-01-02T00:00:00Z', endDate: '2025-01-01' }, 'endDate', 'endDate must not be before startDate'],
    // The published API (and the spec's table) take a date-time only: a date-only startDate is refused.
    [{ startDate: '2025-01-01' }, 'startDate', ''],
    [{ startDate: '2025-01-02T00:00:00Z', endDate: '2025-01-01T23:59:59Z' }, 'endDate', 'not be before'],
    [{ startDate: '2025-02-30T00:00:00Z' }, 'startDate', ''],
    [{ endDate: 'today' }, 'endDate', 'ISO 8601 date'],
    [{ status: 'DONE' }, 'status', 'CREATED, PENDING'],
    [{ status: 'completed' }, 'status', 'CREATED, PENDING'],
    [{ type: 'INTERNAL' }, 'type', 'INCOMING, OUTGOING'],
    [{ sortOrder: 'DESC' }, 'sortOrder', 'asc, desc'],
    [{ limit: '0' }, 'limit', 'at least 1'],
    [{ limit: '101' }, 'limit', 'at most 100'],
    [{ limit: 20.5 }, 'limit', 'whole number'],
    [{ limit: '1e1' }, 'limit', 'whole number'],
    [{ customerId: 'user-1' }, 'customerId', '"Customer:<identifier>"'],
    [{ platformCustomerId: '' }, 'platformCustomerId', 'must not be empty'],
    [{ page: 2 }, '', 'Unrecognized key']
  ])('%#: rejects %j at %s', (q, path, message) => {
    expectIssue(TransactionListQuery, q, path, message)
  })
  it('transactionDateRange makes a date-only end inclusive of the whole day', () => {
    expect(transactionDateRange({ startDate: '2025-01-01', endDate: '2025-01-01' })).toEqual({
      fromMs: Date.parse('2025-01-01T00:00:00.000Z'),
      toMs: Date.parse('2025-01-01T23:59:59.999Z')
    })
    expect(transactionDateRange({})).toEqual({ fromMs: -Infinity, toMs: Infinity })
  })
})

describe('TransferOutRequest', () => {
  const body = {
    source: { accountId: 'InternalAccount:1' },
    destination: { accountId: 'ExternalAccount:2' },
    amount: 12550
  }
  it('accepts a transfer, with or without amount', () => {
    expectValid(TransferOutRequest, body)
    expectValid(TransferOutRequest, { source: body.source, destination: body.destination })
  })
  it.each([
    [{ ...body, amount: 125.5 }, 'amount', 'no decimals'],
    [{ ...body, amount: 0 }, 'amount', 'greater than zero'],
    [{ ...body, amount: -100 }, 'amount', 'greater than zero'],
    [{ ...body, amount: 2 ** 53 }, 'amount', 'safe integer'],
    [{ ...body, amount: '12550' }, 'amount', 'number of minor units'],
    [{ ...body, source: { accountId: 'ExternalAccount:1' } }, 'source.accountId', 'InternalAccount:'],
    [{ ...body, destination: { accountId: 'InternalAccount:1' } }, 'destination.accountId', 'ExternalAccount:'],
    [{ ...body, source: 'InternalAccount:1' }, 'source', 'source must be an object { accountId'],
    [{ ...body, source: { accountId: 'InternalAccount:1', currency: 'USD' } }, 'source', 'Unrecognized key'],
    [{ ...body, currency: 'USD' }, '', 'Unrecognized key']
  ])('%#: rejects %j', (b, path, message) => {
    expectIssue(TransferOutRequest, b, path, message)
  })
})

describe('ApprovePaymentRequest', () => {
  it.each([
    [{}],
    [{ receiverCustomerInfo: {} }],
    [{ receiverCustomerInfo: { FULL_NAME: 'Jane Doe', BIRTH_DATE: '1990-01-15', COUNTRY_OF_RESIDENCE: 'US' } }],
    [{ receiverCustomerInfo: { POSTAL_ADDRESS: { line1: '1 Main', postalCode: '1', country: 'US' } } }]
  ])('accepts %j', (b) => {
    expectValid(ApprovePaymentRequest, b)
  })
  it.each([
    [{ receiverCustomerInfo: { fullName: 'Jane' } }, 'receiverCustomerInfo.fullName', 'UPPER_SNAKE_CASE'],
    [{ receiverCustomerInfo: { FULL__NAME: 'Jane' } }, 'receiverCustomerInfo.FULL__NAME', 'UPPER_SNAKE_CASE'],
    [{ receiverCustomerInfo: { FULL_NAME: 42 } }, 'receiverCustomerInfo.FULL_NAME', 'string or an address'],
    [{ receiverCustomerInfo: { ADDRESS: { street: 'x' } } }, 'receiverCustomerInfo.ADDRESS', 'string or an address'],
    [{ receiverCustomerInfo: 'Jane' }, 'receiverCustomerInfo', 'must be an object'],
    [{ approve: true }, '', 'Unrecognized key']
  ])('%#: rejects %j', (b, path, message) => {
    expectIssue(ApprovePaymentRequest, b, path, message)
  })
})

describe('RejectPaymentRequest', () => {
  it('accepts an optional reason', () => {
    expectValid(RejectPaymentRequest, {})
    expectValid(RejectPaymentRequest, { reason: 'RESTRICTED_JURISDICTION' })
  })
  it.each([
    [{ reason: '' }, 'reason', 'must not be empty'],
    [{ reason: 5 }, 'reason', 'must be a string'],
    [{ code: 'X' }, '', 'Unrecognized key']
  ])('%#: rejects %j', (b, path, message) => {
    expectIssue(RejectPaymentRequest, b, path, message)
  })
})
