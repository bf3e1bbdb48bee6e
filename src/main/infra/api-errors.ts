import type { Dispatcher } from 'undici'
import type { IpcErrorCode } from '../../shared/ipc/define'
import { AppError } from './app-error'
import { notFoundSentence } from './not-found'

/**
 * How a request to the Payments API failed, as a sentence for a person: the HTTP status, the network error or the
 * unreadable answer classified once, with whether the request may have been processed (which decides retries).
 */

export type FailureKind = 'unreachable' | 'timeout' | 'reset' | 'tls' | 'http' | 'unexpected'

export class ApiError extends AppError {
  readonly kind: FailureKind
  /** false: the request certainly never reached the service; true/undefined: it may have been processed. */
  readonly maybeProcessed: boolean
  readonly retryAfterMs: number | undefined
  readonly details: unknown

  constructor(
    code: IpcErrorCode,
    message: string,
    extra: {
      kind: FailureKind
      maybeProcessed: boolean
      serviceCode?: string
      httpStatus?: number
      retryAfterMs?: number
      details?: unknown
    }
  ) {
    super(code, message, {
      ...(extra.serviceCode !== undefined && { serviceCode: extra.serviceCode }),
      ...(extra.httpStatus !== undefined && { httpStatus: extra.httpStatus })
    })
    this.name = 'ApiError'
    this.kind = extra.kind
    this.maybeProcessed = extra.maybeProcessed
    this.retryAfterMs = extra.retryAfterMs
    this.details = extra.details
  }

  /** The same failure, marked as possibly processed (an earlier attempt of the same request may have been). */
  maybeProcessedCopy(): ApiError {
    if (this.maybeProcessed) return this
    return new ApiError(this.code, this.message, {
      kind: this.kind,
      maybeProcessed: true,
      ...(this.serviceCode !== undefined && { serviceCode: this.serviceCode }),
      ...(this.httpStatus !== undefined && { httpStatus: this.httpStatus }),
      ...(this.retryAfterMs !== undefined && { retryAfterMs: this.retryAfterMs }),
      ...(this.details !== undefined && { details: this.details })
    })
  }

  /** Network-level failure: the service could not be talked to. */
  get isNetwork(): boolean {
    return this.kind === 'unreachable' || this.kind === 'timeout' || this.kind === 'reset'
  }
}

const INVALID: [IpcErrorCode, string] = ['INVALID_INPUT', 'The service refused the request as invalid.']
const CHANGED: [IpcErrorCode, string] = ['CONFLICT', 'The service refused because the item changed in the meantime.']
/** The refusals whose sentence depends on the status alone (404 and 429 say more). */
const REFUSALS: Partial<Record<number, [IpcErrorCode, string]>> = {
  400: INVALID,
  422: INVALID,
  401: [
    'UNAUTHORIZED',
    'The service did not accept the credentials: check the API token id and client secret of this profile.'
  ],
  403: ['FORBIDDEN', 'The service refused this operation for these credentials.'],
  409: CHANGED,
  410: CHANGED
}

/** An HTTP error answer as a sentence: the status, the service's own code and message (redacted), Retry-After. */
export function httpFailure(
  host: string,
  redact: (text: string) => string,
  status: number,
  json: unknown,
  response: Dispatcher.ResponseData,
  text: string,
  path: string
): ApiError {
  const body = (json && typeof json === 'object' ? json : {}) as {
    code?: unknown
    message?: unknown
    details?: unknown
  }
  const serviceCode = typeof body.code === 'string' ? body.code : undefined
  const serviceMessage = typeof body.message === 'string' ? redact(body.message).slice(0, 300) : undefined
  const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(header(response, 'retry-after')) : undefined
  const said = serviceMessage ? ` The service said: "${serviceMessage.replace(/\.$/, '')}".` : ''
  let code: IpcErrorCode
  let sentence: string
  if (!serviceCode && !serviceMessage && (status === 404 || status >= 500) && text && !isJsonType(response)) {
    return new ApiError(
      status === 404 ? 'UNEXPECTED_RESPONSE' : 'SERVICE_ERROR',
      `${host} answered ${status} with something that is not the Payments API (${contentType(response)}). Check the base URL.`,
      { kind: 'http', maybeProcessed: status !== 404, httpStatus: status }
    )
  }
  const refusal = REFUSALS[status]
  if (refusal) [code, sentence] = refusal
  else if (status === 404) [code, sentence] = ['NOT_FOUND', notFoundSentence(serviceCode, path)]
  else if (status === 429) {
    const wait = retryAfterMs !== undefined ? ` and asks to wait ${Math.ceil(retryAfterMs / 1000)} s` : ''
    ;[code, sentence] = ['RATE_LIMITED', `The service is rate limiting Paydesk${wait}.`]
  } else
    [code, sentence] = [
      'SERVICE_ERROR',
      `The service failed to answer (HTTP ${status}); nothing on this screen changed.`
    ]
  return new ApiError(code, `${sentence}${said}`, {
    kind: 'http',
    // A 5xx may have been processed; a 4xx was refused.
    maybeProcessed: status >= 500,
    httpStatus: status,
    ...(serviceCode !== undefined && { serviceCode }),
    ...(retryAfterMs !== undefined && { retryAfterMs }),
    ...(body.details !== undefined && { details: body.details })
  })
}

export function networkFailure(host: string, error: unknown, afterHeaders = false): ApiError {
  const codes = errorCodes(error)
  const has = (...c: string[]) => c.some((x) => codes.includes(x))
  if (
    codes.some((c) => /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH)/.test(c)) ||
    has('ERR_TLS_CERT_ALTNAME_INVALID')
  ) {
    const detail = codes.find((c) => c !== 'UND_ERR_SOCKET') ?? 'TLS error'
    return new ApiError(
      'TLS',
      `The secure connection to ${host} failed (${detail}): its certificate is not trusted or does not match.`,
      {
        kind: 'tls',
        maybeProcessed: false
      }
    )
  }
  if (has('ENOTFOUND', 'EAI_AGAIN')) {
    return new ApiError(
      'UNREACHABLE',
      `Could not find the host ${host} (DNS lookup failed). Check the base URL and the network.`,
      {
        kind: 'unreachable',
        maybeProcessed: false
      }
    )
  }
  if (has('ECONNREFUSED', 'ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN', 'EHOSTDOWN')) {
    const why = has('ECONNREFUSED') ? 'connection refused' : 'network unreachable'
    return new ApiError('UNREACHABLE', `Could not reach ${host} (${why}).`, {
      kind: 'unreachable',
      maybeProcessed: false
    })
  }
  if (has('UND_ERR_CONNECT_TIMEOUT')) {
    return new ApiError('TIMEOUT', `Connecting to ${host} timed out.`, { kind: 'timeout', maybeProcessed: false })
  }
  if (has('UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ABORT_ERR', 'TimeoutError', 'AbortError', 'ETIMEDOUT')) {
    return new ApiError('TIMEOUT', `${host} did not answer in time.`, { kind: 'timeout', maybeProcessed: true })
  }
  if (has('ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED') || afterHeaders) {
    return new ApiError('UNREACHABLE', `The connection to ${host} was cut before the answer arrived.`, {
      kind: 'reset',
      maybeProcessed: true
    })
  }
  return unexpectedFailure(host, error)
}

/**
 * An answer larger than Paydesk reads. Whatever its status, the service got the request and may have acted on it: a
 * write, a payment above all, is "may have been applied" (outcome unknown), never "refused"; not retried either, since
 * the same request would bring the same answer.
 */
export function tooLargeFailure(host: string, limitBytes: number, status: number): ApiError {
  const mb = Math.round((limitBytes / (1024 * 1024)) * 10) / 10
  return new ApiError(
    'UNEXPECTED_RESPONSE',
    `The service's answer was larger than ${mb} MB, so Paydesk stopped reading it (${host}, HTTP ${status}). Check ` +
      'the base URL: the Payments API never answers that much at once. A change you asked for may still have been applied.',
    { kind: 'unexpected', maybeProcessed: true, httpStatus: status }
  )
}

export function unexpectedFailure(host: string, error: unknown): ApiError {
  const name = error instanceof Error ? error.name : typeof error
  return new ApiError('UNREACHABLE', `The request to ${host} failed (${name}).`, {
    kind: 'reset',
    maybeProcessed: true
  })
}

function errorCodes(error: unknown): string[] {
  const out: string[] = []
  let cur: unknown = error
  for (let depth = 0; cur && depth < 5; depth++) {
    const e = cur as { code?: unknown; name?: unknown; cause?: unknown; errors?: unknown }
    if (typeof e.code === 'string') out.push(e.code)
    if (typeof e.name === 'string') out.push(e.name)
    if (Array.isArray(e.errors)) for (const inner of e.errors) out.push(...errorCodes(inner))
    cur = e.cause
  }
  return out
}

function header(response: Dispatcher.ResponseData, name: string): string | undefined {
  const v = response.headers[name]
  return Array.isArray(v) ? v[0] : v
}
export function contentType(response: Dispatcher.ResponseData): string {
  return (header(response, 'content-type') ?? 'no content type').split(';')[0]!.trim()
}
function isJsonType(response: Dispatcher.ResponseData): boolean {
  return /json/i.test(header(response, 'content-type') ?? '')
}

/** `Retry-After` as delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  const at = Date.parse(trimmed)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - now)
}
