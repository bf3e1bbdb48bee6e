import { z } from 'zod'

/**
 * One entry of the gate's decision log, which is also its event stream (SSE, `id:` = seq, resumable with
 * Last-Event-ID). `kind` says what happened, `actor` who or what did it: `service` (a webhook), `rule:<name>`,
 * `pre-approval:<id>`, `operator:<name>`, `fallback:<rule>`, `gate`.
 */
export const LogKind = z.enum([
  'webhook',
  'prompt',
  'decision',
  'decision-sent',
  'rules',
  'pre-approval',
  'receiver-info',
  'operator'
])
export type LogKind = z.infer<typeof LogKind>

export const GateEvent = z.looseObject({
  seq: z.number().int().positive(),
  at: z.string(),
  kind: z.string(),
  actor: z.string(),
  data: z.record(z.string(), z.unknown())
})
export type GateEvent = z.infer<typeof GateEvent>

/** data of a `decision` event. */
export const Decision = z.looseObject({
  transactionId: z.string(),
  webhookId: z.string(),
  /** unprocessable: a 422, receiver information the sender requires was missing. */
  outcome: z.enum(['approved', 'rejected', 'unprocessable']),
  /** How the service was told: the webhook's answer, or the approve/reject call after a 202. */
  via: z.enum(['answer', 'call']),
  reason: z.string(),
  /** The receiverCustomerInfo field names sent (never their values). */
  sentFields: z.array(z.string()).optional()
})
export type Decision = z.infer<typeof Decision>
