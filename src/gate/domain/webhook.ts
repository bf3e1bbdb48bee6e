/**
 * Reading one delivery before anything is decided or stored: the signature over the raw bytes first (an unsigned body
 * is never parsed), then the age of its timestamp, then its shape. The payment is read tolerantly in both shapes the
 * reference shows: the published schema (`source.umaAddress`) and the older example (`senderUmaAddress`,
 * `receiverUmaAddress` at the top of `data`), which src/shared/approval-rules.ts's senderIdentifiers both knows.
 */
import type { KeyObject } from 'node:crypto'
import { IncomingPaymentWebhookData, WebhookEnvelope } from '../../shared/api/webhook'
import { signatureValid } from './signature'

export interface Requested {
  name: string
  mandatory: boolean
}

export type Inbound =
  | { kind: 'refused'; status: 400 | 401; code: string; message: string }
  | { kind: 'informational'; webhookId: string; type: string }
  | { kind: 'pending'; webhookId: string; payment: IncomingPaymentWebhookData; requested: Requested[] }

const refused = (status: 400 | 401, code: string, message: string): Inbound => ({
  kind: 'refused',
  status,
  code,
  message
})

export function readWebhook(
  raw: Buffer,
  signature: string | undefined,
  key: KeyObject,
  now: number,
  toleranceMs: number
): Inbound {
  if (!signatureValid(key, raw, signature))
    return refused(401, 'INVALID_SIGNATURE', 'X-Grid-Signature is missing or does not verify with the public key')
  let json: unknown
  try {
    json = JSON.parse(raw.toString('utf8'))
  } catch {
    return refused(400, 'INVALID_JSON', 'The body is not JSON')
  }
  const envelope = WebhookEnvelope.safeParse(json)
  if (!envelope.success)
    return refused(400, 'INVALID_WEBHOOK', 'The body is not a webhook envelope (id, type, timestamp)')
  const sentAt = Date.parse(envelope.data.timestamp)
  if (!Number.isFinite(sentAt)) return refused(400, 'INVALID_WEBHOOK', 'The webhook timestamp is not a date')
  // A signed body replayed later is still signed: its age is what refuses it.
  if (Math.abs(now - sentAt) > toleranceMs)
    return refused(401, 'STALE_WEBHOOK', `The webhook timestamp is more than ${toleranceMs / 1000} s from now`)
  const { id, type } = envelope.data
  if (type !== 'INCOMING_PAYMENT.PENDING') return { kind: 'informational', webhookId: id, type }
  const data = IncomingPaymentWebhookData.safeParse(envelope.data.data)
  if (!data.success)
    return refused(400, 'INVALID_WEBHOOK', 'The pending payment in data is not an incoming transaction')
  const requested = (data.data.requestedReceiverCustomerInfoFields ?? []).map((f) => ({
    name: f.name,
    mandatory: f.mandatory === true
  }))
  return { kind: 'pending', webhookId: id, payment: data.data, requested }
}
