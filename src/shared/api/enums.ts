import { z } from 'zod'

/**
 * A tolerant enum for response schemas: accepts the known values and any other string, so a value the service adds
 * later never makes a response fail to parse. The output type keeps the known literals for autocompletion
 * (`Known | (string & {})`); use `isKnownValue` to tell a known value from one to show verbatim.
 */
export function openEnum<const T extends readonly string[]>(values: T) {
  return z
    .string({ error: `Expected a string (known values: ${values.join(', ')})` })
    .meta({ knownValues: values }) as unknown as z.ZodType<T[number] | (string & {}), string>
}

/** True when `value` is one of `values` (narrows the type). */
export function isKnownValue<const T extends readonly string[]>(values: T, value: unknown): value is T[number] {
  return typeof value === 'string' && (values as readonly string[]).includes(value)
}

/** A closed enum for request schemas, with an error message that lists the allowed values. */
export function closedEnum<const T extends readonly [string, ...string[]]>(values: T, what: string) {
  return z.enum(values as unknown as { [K in T[number]]: K } & Record<string, string>, {
    error: (issue) =>
      issue.input === undefined ? `${what} is required` : `${what} must be one of ${values.join(', ')}`
  }) as unknown as z.ZodType<T[number], T[number]>
}
