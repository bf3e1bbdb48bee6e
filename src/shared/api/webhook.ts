import { z } from 'zod'
import { openEnum } from './enums'
import {
  IncomingTransaction,
  OutgoingTransaction,
  RequestedReceiverCustomerInfoField,
  Transaction
} from './transaction'

/** Webhook event types of the reference (`OBJECT.EVENT`); the service may send others. */
const WEBHOOK_TYPES = [
  'OUTGOING_PAYMENT.PENDING',
  'OUTGOING_PAYMENT.PROCESSING',
  'OUTGOING_PAYMENT.COMPLETED',
  'OUTGOING_PAYMENT.FAILED',
  'OUTGOING_PAYMENT.EXPIRED',
  'OUTGOING_PAYMENT.REFUND_PENDING',
  'OUTGOING_PAYMENT.REFUND_COMPLETED',
  'OUTGOING_PAYMENT.REFUND_FAILED',
  'INCOMING_PAYMENT.PENDING',
  'INCOMING_PAYMENT.COMPLETED',
  'INCOMING_PAYMENT.FAILED',
  'CUSTOMER.KYC_APPROVED',
  'CUSTOMER.KYC_REJECTED',
  'CUSTOMER.KYC_PENDING',
  'INTERNAL_ACCOUNT.BALANCE_UPDATED',
  'TEST'
] as const
export const WebhookType = openEnum(WEBHOOK_TYPES)
export type WebhookType = z.infer<typeof WebhookType>

/** Webhook envelope (reference): `{ id: "Webhook:...", type, timestamp, data }`; data is read per type. */
export const WebhookEnvelope = z.looseObject({
  id: z.string(),
  type: WebhookType,
  timestamp: z.string(),
  data: z.unknown().optional()
})
export type WebhookEnvelope = z.infer<typeof WebhookEnvelope>

/**
 * data of INCOMING_PAYMENT.* webhooks: the incoming transaction plus the receiverCustomerInfo fields the platform is
 * asked for (only present in the webhook, not on the Transaction resource).
 */
export const IncomingPaymentWebhookData = IncomingTransaction.extend({
  requestedReceiverCustomerInfoFields: z.array(RequestedReceiverCustomerInfoField).optional()
})
export type IncomingPaymentWebhookData = z.infer<typeof IncomingPaymentWebhookData>

export const IncomingPaymentWebhook = WebhookEnvelope.extend({ data: IncomingPaymentWebhookData })
export type IncomingPaymentWebhook = z.infer<typeof IncomingPaymentWebhook>

export const OutgoingPaymentWebhook = WebhookEnvelope.extend({ data: OutgoingTransaction })
export type OutgoingPaymentWebhook = z.infer<typeof OutgoingPaymentWebhook>

/** Any payment webhook whose data is a transaction (known or unknown type). */
export const TransactionWebhook = WebhookEnvelope.extend({ data: Transaction })
export type TransactionWebhook = z.infer<typeof TransactionWebhook>

/** Names of the mandatory receiverCustomerInfo fields a pending incoming payment asks for. */
export function mandatoryReceiverFields(data: {
  requestedReceiverCustomerInfoFields?: { name: string; mandatory?: boolean }[]
}): string[] {
  return (data.requestedReceiverCustomerInfoFields ?? []).filter((f) => f.mandatory === true).map((f) => f.name)
}
