import { describe, expect, it } from 'vitest'
import {
  isFinalPaymentStatus,
  paymentStatusMeaning,
  paymentStatusSentence,
  paymentStatusTitle,
  quoteStanding
} from '../../src/shared/payment-status'

describe('one vocabulary of payment statuses', () => {
  it('names a status the same way for every surface: titles, sentences, meanings', () => {
    expect(paymentStatusTitle('Transfer', 'COMPLETED')).toBe('Transfer completed')
    expect(paymentStatusTitle('Quote payment', 'PROCESSING')).toBe('Quote payment processing')
    expect(paymentStatusSentence('Transfer', 'PENDING')).toBe(
      'The transfer was accepted by the service and waits to be processed.'
    )
    expect(paymentStatusSentence('Transfer', 'PROCESSING')).toBe('The transfer is on its way to the destination.')
    expect(paymentStatusMeaning('COMPLETED')).toBe('good')
    expect(paymentStatusMeaning('PROCESSING')).toBe('waiting')
    expect(paymentStatusMeaning('FAILED')).toBe('bad')
    expect(paymentStatusMeaning('EXPIRED')).toBe('neutral')
  })

  it('says an unknown status verbatim, in grey, and never calls it final', () => {
    expect(paymentStatusMeaning('HELD_BY_BANK')).toBe('unknown')
    expect(paymentStatusMeaning(undefined)).toBe('unknown')
    expect(paymentStatusTitle('Transfer', 'HELD_BY_BANK')).toBe('Transfer HELD_BY_BANK')
    expect(paymentStatusSentence('Payment', 'HELD_BY_BANK')).toBe('The payment is HELD_BY_BANK at the service.')
    expect(isFinalPaymentStatus('HELD_BY_BANK')).toBe(false)
  })

  it('follows a payment until one of the final statuses', () => {
    for (const s of ['COMPLETED', 'FAILED', 'REJECTED', 'REFUNDED', 'EXPIRED'])
      expect(isFinalPaymentStatus(s)).toBe(true)
    for (const s of ['CREATED', 'PENDING', 'PROCESSING']) expect(isFinalPaymentStatus(s)).toBe(false)
    expect(isFinalPaymentStatus(null)).toBe(false)
  })

  it('an executed quote takes its payment’s status, never a stale “ready”', () => {
    expect(quoteStanding({ status: 'PENDING', pastExpiry: false })).toEqual({ kind: 'open', title: 'Ready to execute' })
    expect(quoteStanding({ status: 'PENDING', pastExpiry: true })).toEqual({ kind: 'expired', title: 'Expired' })
    expect(quoteStanding({ status: 'EXPIRED', pastExpiry: false }).kind).toBe('expired')
    // The quote as read before execution still says PENDING; its payment is what it is now.
    expect(quoteStanding({ status: 'PENDING', pastExpiry: true, paymentStatus: 'COMPLETED' })).toEqual({
      kind: 'executed',
      title: 'Quote payment completed',
      status: 'COMPLETED'
    })
    expect(quoteStanding({ status: 'PROCESSING', pastExpiry: false })).toEqual({
      kind: 'other',
      title: 'Quote payment processing',
      status: 'PROCESSING'
    })
  })
})
