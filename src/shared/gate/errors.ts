import { z } from 'zod'

/** Every refusal of the gate's operator API: a code a program can test and a sentence a person can read. */
export const GateError = z.looseObject({ code: z.string(), message: z.string() })
export type GateError = z.infer<typeof GateError>
