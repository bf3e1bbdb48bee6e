import { z } from 'zod'

/** Error body of the service: `{ status, code, message, details? }` (reference README). */
export const ApiErrorBody = z.looseObject({
  status: z.number().int(),
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional()
})
export type ApiErrorBody = z.infer<typeof ApiErrorBody>

/** Error codes the reference names (the service may send others). */
export const API_ERROR_CODES = [
  'INVALID_INPUT',
  'INVALID_AMOUNT',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'USER_NOT_READY',
  'TRANSACTION_NOT_FOUND',
  'USER_NOT_FOUND',
  'QUOTE_NOT_FOUND',
  'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
  'UMA_ADDRESS_EXISTS',
  'QUOTE_EXPIRED',
  'RATE_LIMITED',
  'INTERNAL_ERROR'
] as const
