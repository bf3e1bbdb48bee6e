/**
 * Error bodies of the Payments API: `{ status, code, message, details? }` (reference README, "Error bodies").
 * Every failure the sandbox answers goes through ApiError so that the body shape never varies.
 */

export interface ApiErrorBody {
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
 * The published API's 404 code for an id that names nothing when its `Error404` list has no code for that kind:
 * unknown external and internal accounts (docs/real-service.md, "Error codes").
 */
export const REFERENCE_NOT_FOUND = 'REFERENCE_NOT_FOUND'

export const notFound = (code: string, message: string, details?: Record<string, unknown>): ApiError =>
  new ApiError(404, code, message, details)

export const conflict = (code: string, message: string, details?: Record<string, unknown>): ApiError =>
  new ApiError(409, code, message, details)

/** Minimal structural view of a zod issue, so this module does not depend on zod's types. */
export interface IssueLike {
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
