import { describe, expect, it } from 'vitest'
import {
  IncomingPaymentWebhook,
  mandatoryReceiverFields,
  OutgoingPaymentWebhook,
  TransactionWebhook,
  WebhookEnvelope
} from '../../../src/shared/api/webhook'

const usd = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 }

/** The reference's INCOMING_PAYMENT.PENDING example. */
const pending = {
  id: 'Webhook:019542f5-b3e7-1d02-0000-000000000007',
  type: 'INCOMING_PAYMENT.PENDING',
  timestamp: '2025-08-15T14:32:00Z',
  data: {
    id: 'Transaction:019542f5-b3e7-1d02-0000-000000000005',
    status: 'PENDING',
    type: 'INCOMING',
    destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$recipient@uma.domain' },
    customerId: 'Customer:019542f5-b3e7-1d02-0000-000000000001',
    platformCustomerId: '18d3e5f7b4a9c2',
    senderUmaAddress: '$sender@external.domain',
    receiverUmaAddress: '$recipient@uma.domain',
    receivedAmount: { amount: 50000, currency: usd },
    counterpartyInformation: { FULL_NAME: 'John Sender', BIRTH_DATE: '1985-06-15', NATIONALITY: 'US' },
    reconciliationInstructions: { reference: 'REF-123456789' },
    requestedReceiverCustomerInfoFields: [
      { name: 'NATIONALITY', mandatory: true },
      { name: 'POSTAL_ADDRESS', mandatory: false }
    ]
  }
}

describe('webhooks', () => {
  it('parses the reference INCOMING_PAYMENT.PENDING example, keeping every field', () => {
    const w = IncomingPaymentWebhook.parse(pending)
    expect(w).toEqual(pending)
    expect(mandatoryReceiverFields(w.data)).toEqual(['NATIONALITY'])
  })
  it('reads an envelope of an unknown type without knowing its data', () => {
    const w = { id: 'Webhook:1', type: 'SOMETHING.NEW', timestamp: '2025-08-15T14:32:00Z', data: { x: 1 } }
    expect(WebhookEnvelope.parse(w)).toEqual(w)
  })
  it('rejects an incoming webhook whose data is outgoing', () => {
    const out = { ...pending, type: 'OUTGOING_PAYMENT.COMPLETED', data: { ...pending.data, type: 'OUTGOING' } }
    expect(IncomingPaymentWebhook.safeParse(out).success).toBe(false)
    expect(OutgoingPaymentWebhook.safeParse(out).success).toBe(false) // no sentAmount/source
  })
  it('TransactionWebhook accepts a transaction of an unknown type', () => {
    const w = { ...pending, data: { id: 'Transaction:9', type: 'NEW_KIND' } }
    expect(TransactionWebhook.parse(w).data).toEqual({ id: 'Transaction:9', type: 'NEW_KIND' })
  })
  it('mandatoryReceiverFields is empty when nothing is asked', () => {
    expect(mandatoryReceiverFields({})).toEqual([])
  })
})
