/**
 * Error bodies of the Payments API: `{ status, code, message, details? }` (reference README, "Error bodies").
 * Every failure the sandbox answers goes through ApiError so that the body shape never varies.
 */

interface ApiErrorBody {
  status: number
  code: string
  message: string
  details?: Record<string, unknown>
}

export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly details: Record<string, unknown> | undefined
  /** Extra response headers (e.g. Retry-After, Allow). */
  readonly headers: Record<string, string> | undefined

  constructor(
    status: number,
    code: string,
    message: string,
    details?: Record<string, unknown>,
    headers?: Record<string, string>
  ) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.details = details
    this.headers = headers
  }

  toBody(): ApiErrorBody {
    const body: ApiErrorBody = { status: this.status, code: this.code, message: this.message }
    if (this.details !== undefined) body.details = this.details
    return body
  }
}

export const invalidInput = (message: string, details?: Record<string, unknown>): ApiError =>
  new ApiError(400, 'INVALID_INPUT', message, details)

/**
 * 400 INVALID_INPUT naming the sandbox's own reason in `details.reason`: the published answer where the operation
 * declares no status and code for this refusal (a 409 or 404 it does not list, a code outside its list). Each use is
 * listed in docs/real-service.md, "Errors: where the Local sandbox chose the nearest published code".
 */
export const refusedAsInvalid = (reason: string, message: string, details?: Record<string, unknown>): ApiError =>
  new ApiError(400, 'INVALID_INPUT', message, { ...details, reason })

/**
 * Tells the official SDK, which retries every 409 twice, that a retry gets the same answer (its `x-should-retry`
 * header overrides its status rule).
 */
export const FINAL_ANSWER_HEADERS: Readonly<Record<string, string>> = { 'x-should-retry': 'false' }

/**
 * The published API's 404 code for an id that names nothing when its `Error404` list has no code for that kind:
 * unknown external and internal accounts (docs/real-service.md, "Error codes").
 */
export const REFERENCE_NOT_FOUND = 'REFERENCE_NOT_FOUND'

export const notFound = (code: string, message: string, details?: Record<string, unknown>): ApiError =>
  new ApiError(404, code, message, details)

/**
 * 409. Final unless `retryable`: nothing a retry seconds later could change (a taken address, a payment no longer
 * pending), so the answer says so to clients that retry 409s (FINAL_ANSWER_HEADERS).
 */
export const conflict = (
  code: string,
  message: string,
  details?: Record<string, unknown>,
  { retryable = false }: { retryable?: boolean } = {}
): ApiError => new ApiError(409, code, message, details, retryable ? undefined : { ...FINAL_ANSWER_HEADERS })

/** Minimal structural view of a zod issue, so this module does not depend on zod's types. */
interface IssueLike {
  path: ReadonlyArray<PropertyKey>
  message: string
  code?: string
}

/** 400 INVALID_INPUT listing every zod issue as `{ path, message }`, the message naming the first one. */
export function validationError(where: string, issues: ReadonlyArray<IssueLike>): ApiError {
  const list = issues.map((i) => ({
    path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)).join('.'),
    message: i.message
  }))
  const first = list[0]
  const summary = first ? (first.path ? `${first.path}: ${first.message}` : first.message) : 'invalid'
  return invalidInput(`Invalid ${where}: ${summary}`, { issues: list })
}
