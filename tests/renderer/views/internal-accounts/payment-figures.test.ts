import { describe, expect, it } from 'vitest'
import type { Transaction } from '../../../../src/shared/api'
import {
  durationWords,
  feeBasisFrom,
  reviewFigures,
  sentFigures
} from '../../../../src/renderer/src/views/internal-accounts/payment-figures'

const usd = { code: 'USD', decimals: 2 }
const outgoing = (over: Record<string, unknown>) =>
  ({
    id: 'Transaction:1',
    type: 'OUTGOING',
    status: 'COMPLETED',
    source: { accountId: 'InternalAccount:a' },
    sentAmount: { amount: 1_010, currency: usd },
    fees: 10,
    createdAt: '2026-01-01T10:00:00.000Z',
    settledAt: '2026-01-01T10:00:06.000Z',
    ...over
  }) as unknown as Transaction

describe('the review step’s figures, in minor units', () => {
  it('fee, total debit and balance after: $1,250.00 with a $0.10 fee leaves $1,250.10', () => {
    expect(reviewFigures(125_000, 1_000_000, 10)).toEqual({ fee: 10, totalDebit: 125_010, balanceAfter: 874_990 })
    expect(reviewFigures(125_000, 1_000_000, null)).toEqual({ fee: null, totalDebit: null, balanceAfter: null })
  })

  it('reads the fee from the latest transfer-out in the currency, the same account first, never a quote’s payment', () => {
    const rows = [
      outgoing({ id: 'Transaction:quote', quoteId: 'Quote:1', fees: 99 }),
      outgoing({ id: 'Transaction:eur', sentAmount: { amount: 5, currency: { code: 'EUR', decimals: 2 } }, fees: 7 }),
      outgoing({ id: 'Transaction:other', source: { accountId: 'InternalAccount:b' }, fees: 12 }),
      outgoing({ id: 'Transaction:mine', fees: 10 }),
      { ...outgoing({ id: 'Transaction:in' }), type: 'INCOMING' } as unknown as Transaction
    ]
    expect(feeBasisFrom(rows, 'USD', 'InternalAccount:a')).toEqual({
      fee: 10,
      transactionId: 'Transaction:mine',
      createdAt: '2026-01-01T10:00:00.000Z',
      tookMs: 6_000
    })
    expect(feeBasisFrom(rows, 'USD', 'InternalAccount:z')?.transactionId).toBe('Transaction:other')
    expect(feeBasisFrom(rows, 'GBP', 'InternalAccount:a')).toBeNull()
  })

  it('predicts no arrival from a payment that has not completed, or took implausibly long', () => {
    expect(feeBasisFrom([outgoing({ status: 'PROCESSING' })], 'USD', 'InternalAccount:a')?.tookMs).toBeNull()
    expect(
      feeBasisFrom([outgoing({ settledAt: '2026-03-01T10:00:00.000Z' })], 'USD', 'InternalAccount:a')?.tookMs
    ).toBeNull()
    expect(feeBasisFrom([outgoing({ fees: -1 })], 'USD', 'InternalAccount:a')).toBeNull()
  })

  it('says durations in words', () => {
    expect(durationWords(6_000)).toBe('about 6 seconds')
    expect(durationWords(1_000)).toBe('about 1 second')
    expect(durationWords(3 * 60_000)).toBe('about 3 minutes')
    expect(durationWords(2 * 3_600_000)).toBe('about 2 hours')
    expect(durationWords(3 * 86_400_000)).toBe('about 3 days')
  })

  it('a sent payment’s fee and total debit are the service’s own figures', () => {
    expect(sentFigures(outgoing({}))).toEqual({ fee: 10, totalDebit: 1_010 })
    expect(sentFigures(outgoing({ fees: undefined, sentAmount: undefined }))).toEqual({ fee: null, totalDebit: null })
  })
})
