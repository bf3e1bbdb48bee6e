import { z } from 'zod'

/** Error body of the service: `{ status, code, message, details? }` (reference README). */
export const ApiErrorBody = z.looseObject({
  status: z.number().int(),
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional()
})
export type ApiErrorBody = z.infer<typeof ApiErrorBody>
