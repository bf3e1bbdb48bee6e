import { z } from 'zod'

/** One request/response channel of the IPC contract. */
export interface ChannelSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly input: I
  readonly output: O
  /** What the channel does, for people reading the contract and the command palette. */
  readonly summary: string
}

export function channel<I extends z.ZodType, O extends z.ZodType>(input: I, output: O, summary: string) {
  return { input, output, summary } satisfies ChannelSpec<I, O>
}

/** Channels that take no input use this, so the wire value is always `null`. */
export const NoInput = z
  .null()
  .optional()
  .transform(() => null)

/**
 * Failure kinds a person can act on. `message` is a sentence for the operator; `serviceCode` is the Payments API's own
 * code (e.g. TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL) when the failure came from the service.
 */
export const IpcErrorCode = z.enum([
  'INVALID_INPUT',
  'FORBIDDEN_SENDER',
  'UNKNOWN_CHANNEL',
  'NOT_FOUND',
  'CONFLICT',
  'OFFLINE',
  'UNREACHABLE',
  'TIMEOUT',
  'TLS',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'RATE_LIMITED',
  'SERVICE_ERROR',
  'UNEXPECTED_RESPONSE',
  'KEYCHAIN',
  'CONFIRMATION_REQUIRED',
  /** A money-moving retry that could pay twice (its key may be forgotten): look the action up at the service first. */
  'CHECK_REQUIRED',
  'INTERNAL'
])
export type IpcErrorCode = z.infer<typeof IpcErrorCode>

export const IpcError = z.object({
  code: IpcErrorCode,
  message: z.string(),
  serviceCode: z.string().optional(),
  httpStatus: z.number().int().optional(),
  /** Field-level problems of invalid input, keyed by dotted path ("" for the whole value). */
  fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
  /** The journal record (operator action) this error is about, when it points at one. */
  actionId: z.string().optional(),
  /** A write whose answer never came (a dropped connection, a timeout, a 5xx): it may have been applied. */
  maybeApplied: z.boolean().optional()
})
export type IpcError = z.infer<typeof IpcError>

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError }
