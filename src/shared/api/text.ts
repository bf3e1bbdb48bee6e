import { z } from 'zod'

/** A required string field; the messages name the field ("X is required", "X must be a string"). */
export function requiredString(what: string) {
  return z.string({
    error: (issue) => (issue.input === undefined ? `${what} is required` : `${what} must be a string`)
  })
}

/** A required string field that must contain something other than white space; messages name the field. */
export function nonBlank(what: string) {
  return requiredString(what).refine((s) => s.trim().length > 0, { error: `${what} must not be empty` })
}

/** A string that must match `pattern`, with a required/format message naming the field. */
export function patterned(what: string, pattern: RegExp, message: string) {
  return requiredString(what).regex(pattern, { error: message })
}
