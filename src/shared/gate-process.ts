import { z } from 'zod'
import { ReceiverCustomerInfo } from './approval-rules'

/**
 * Messages between Paydesk's backend and the Local profile's approval gate, which runs in a process of its own (a Node
 * fork in browser mode and tests, an Electron utility process in the app), like the Local sandbox. The start message
 * carries the service credentials, the receiver information key and the operator's token: over this channel only,
 * never on a command line, in the environment or in a log.
 */
export const GateStartMessage = z.object({
  type: z.literal('start'),
  /** On 127.0.0.1; 0 picks a free one. */
  port: z.number().int().min(0).max(65535),
  /** The gate's SQLite file, in the Local profile's data folder. */
  database: z.string().min(1),
  /** The Local sandbox's webhook signing key (PEM), from its GET /sandbox/webhook-public-key. */
  webhookPublicKey: z.string().min(1),
  serviceBaseUrl: z.string().url(),
  serviceTokenId: z.string().min(1),
  serviceClientSecret: z.string().min(1),
  /** 32 bytes, base64: seals receiver information at rest. */
  receiverInfoKey: z.string().min(1),
  /** Paydesk's own operator: its token is hashed by the gate, which keeps only the hash. */
  operator: z.object({ name: z.string().min(1), token: z.string().min(1) }),
  /** Demo receiver information, written only for customers the gate has none for (an operator's edit is kept). */
  receiverInfo: z.array(z.object({ customerId: z.string().min(1), info: ReceiverCustomerInfo })),
  /**
   * TEST-ONLY: the deadline and fallback for a Local sandbox whose approval window was stretched (the gate's config
   * checks them; unset, the real 5 s / 4 s).
   */
  serviceDeadlineMs: z.number().int().positive().optional(),
  marginMs: z.number().int().positive().optional(),
  nativeBinding: z.string().optional()
})
export type GateStartMessage = z.infer<typeof GateStartMessage>

export const GateParentMessage = z.discriminatedUnion('type', [
  GateStartMessage,
  z.object({ type: z.literal('close') })
])
export type GateParentMessage = z.infer<typeof GateParentMessage>

export const GateChildMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), pid: z.number().int(), url: z.string().url() }),
  z.object({ type: z.literal('failed'), message: z.string() }),
  z.object({ type: z.literal('log'), message: z.string() })
])
export type GateChildMessage = z.infer<typeof GateChildMessage>
