import { z } from 'zod'

/**
 * A required string field; the messages name the field in the operator's words ("Full name must be a string"), and
 * `missing` says what to do when it is absent ("Enter the customer’s full name"; default "X is required").
 */
export function requiredString(what: string, missing = `${what} is required`) {
  return z.string({
    error: (issue) => (issue.input === undefined ? missing : `${what} must be a string`)
  })
}

/** A required string field that must contain something other than white space; messages name the field. */
export function nonBlank(what: string, missing?: string) {
  return requiredString(what, missing).refine((s) => s.trim().length > 0, { error: `${what} must not be empty` })
}

/** A string that must match `pattern`, with a required/format message naming the field. */
export function patterned(what: string, pattern: RegExp, message: string, missing?: string) {
  return requiredString(what, missing).regex(pattern, { error: message })
}

/**
 * Spaces and dashes people type inside an account identifier ("DE89 3704 0044…", "12-34-56") taken out, so what is
 * checked and sent is the bare form the service publishes. Only for values whose format has no separator of its own.
 */
export const withoutSeparators = (s: string) => s.replace(/[\s-]+/g, '')
