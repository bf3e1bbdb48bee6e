import { describe, it } from 'vitest'
import { SandboxReceiveRequest, SandboxSendRequest } from '../../../src/shared/api/sandbox'
import { expectIssue, expectValid } from './helpers'

describe('SandboxSendRequest', () => {
  const body = { quoteId: 'Quote:1', currencyCode: 'USD', currencyAmount: 1000 }
  it('accepts with or without currencyAmount', () => {
    expectValid(SandboxSendRequest, body)
    expectValid(SandboxSendRequest, { quoteId: 'Quote:1', currencyCode: 'BTC' })
  })
  it.each([
    [{ ...body, quoteId: 'Transaction:1' }, 'quoteId', 'Quote:'],
    [{ ...body, currencyCode: undefined }, 'currencyCode', 'Currency is required'],
    [{ ...body, currencyAmount: 10.5 }, 'currencyAmount', 'no decimals'],
    [{ ...body, currencyAmount: -10 }, 'currencyAmount', 'greater than zero'],
    [{ ...body, extra: 1 }, '', 'Unrecognized key']
  ])('%#: rejects at %s', (b, path, message) => {
    expectIssue(SandboxSendRequest, b, path, message)
  })
})

describe('SandboxReceiveRequest', () => {
  const base = {
    senderUmaAddress: '$success.usd@sandbox.uma.money',
    receivingCurrencyCode: 'USD',
    receivingCurrencyAmount: 1000
  }
  it.each([
    [{ ...base, receiverUmaAddress: '$jane@uma.example.com' }],
    [{ ...base, customerId: 'Customer:1' }],
    [{ ...base, receiverUmaAddress: '$jane@uma.example.com', customerId: 'Customer:1' }]
  ])('accepts %j', (b) => {
    expectValid(SandboxReceiveRequest, b)
  })
  it.each([
    [base, 'receiverUmaAddress', 'Give the receiver’s UMA address or choose a customer'],
    [{ ...base, customerId: 'jane' }, 'customerId', 'Customer:'],
    [{ ...base, customerId: 'Customer:1', senderUmaAddress: 'success.usd' }, 'senderUmaAddress', 'UMA address'],
    [{ ...base, customerId: 'Customer:1', receivingCurrencyAmount: 0 }, 'receivingCurrencyAmount', 'greater than zero'],
    [
      { ...base, customerId: 'Customer:1', receivingCurrencyAmount: undefined },
      'receivingCurrencyAmount',
      'Amount is required'
    ],
    [{ ...base, customerId: 'Customer:1', receivingCurrencyCode: 'us' }, 'receivingCurrencyCode', 'upper-case'],
    [{ ...base, customerId: 'Customer:1', note: 'x' }, '', 'Unrecognized key']
  ])('%#: rejects at %s', (b, path, message) => {
    expectIssue(SandboxReceiveRequest, b, path, message)
  })
})
