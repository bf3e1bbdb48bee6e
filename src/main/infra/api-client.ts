import type { Dispatcher } from 'undici'
import type { z } from 'zod'
import { AppError } from './app-error'
import {
  ApiError,
  contentType,
  httpFailure,
  networkFailure,
  tooLargeFailure,
  unexpectedFailure,
  type FailureKind
} from './api-errors'

/**
 * The Payments API client: HTTP Basic over a keep-alive undici pool, connect and total timeouts, retries with
 * exponential backoff and full jitter, `Retry-After` honoured on 429, responses parsed with the shared schemas, and every
 * failure turned into an `ApiError` (an AppError) whose message is a sentence for a person. The Authorization header is
 * built here and nowhere else; it is never logged, and any echo of the secret in a service message is redacted.
 */

export interface ApiClientOptions {
  baseUrl: string
  tokenId: string
  clientSecret: string
  connectTimeoutMs?: number
  /** Whole request, from connect to the last body byte. */
  totalTimeoutMs?: number
  /** Attempts after the first one, for requests that may be retried. */
  maxRetries?: number
  baseDelayMs?: number
  maxDelayMs?: number
  /** A Retry-After longer than this fails at once with RATE_LIMITED instead of blocking the operator. */
  maxRetryAfterMs?: number
  /** An answer larger than this is not read to its end: the request fails (see `DEFAULT_MAX_RESPONSE_BYTES`). */
  maxResponseBytes?: number
  sleep?: (ms: number) => Promise<void>
  random?: () => number
  dispatcher?: Dispatcher
  /** One line per attempt, for the log. Carries method, path, status and timing only. */
  onAttempt?: (info: AttemptInfo) => void
  /** An attempt is being sent (with onAttempt, what the connection state follows: a request left waiting is news). */
  onAttemptStart?: (info: { method: string; path: string; attempt: number }) => void
}

export interface AttemptInfo {
  method: string
  path: string
  attempt: number
  status?: number
  errorKind?: FailureKind
  ms: number
  retryInMs?: number
}

/**
 * How a request may be retried.
 * - `idempotent`: reads and keyed writes (transfer-out with Idempotency-Key): retried on network failures, 408, 424,
 *   429 and 5xx.
 * - `unsafe`: other writes: retried only when the request certainly did not reach the service (connection refused,
 *   DNS failure, TLS or connect timeout) or the service said 429 (a rate-limited request is not processed).
 */
type RetryPolicy = 'idempotent' | 'unsafe'

export interface RequestOptions<S extends z.ZodType | undefined> {
  query?: Record<string, string | number | boolean | undefined>
  body?: unknown
  schema?: S
  idempotencyKey?: string
  retry?: RetryPolicy
  /** Overrides the client's maxRetries for this call. */
  maxRetries?: number
  /** Sees the response headers of the successful attempt (e.g. Date, for the sync watermark). */
  onHeaders?: (headers: Record<string, string | string[] | undefined>) => void
}

const RETRYABLE_STATUS = new Set([408, 424, 429, 500, 502, 503, 504])

/**
 * The largest answer Paydesk reads. A page of the service's lists holds at most 100 items (a few hundred KB even with
 * long descriptions); an answer past this is not the Payments API as specified, and read whole it would hold main's
 * memory (a 400 MB answer took main from 114 MB to 1.68 GB).
 */
const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024

const sleepReal = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export class ApiClient {
  readonly baseUrl: URL
  private readonly authorization: string
  private readonly redactions: string[]
  private dispatcher: Dispatcher | undefined
  private readonly ownsDispatcher: boolean
  private closed = false
  private readonly o: Required<
    Pick<
      ApiClientOptions,
      | 'connectTimeoutMs'
      | 'totalTimeoutMs'
      | 'maxRetries'
      | 'baseDelayMs'
      | 'maxDelayMs'
      | 'maxRetryAfterMs'
      | 'maxResponseBytes'
    >
  > & {
    sleep: (ms: number) => Promise<void>
    random: () => number
    onAttempt: (i: AttemptInfo) => void
    onAttemptStart: NonNullable<ApiClientOptions['onAttemptStart']>
  }

  constructor(options: ApiClientOptions) {
    let base: URL
    try {
      base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`)
    } catch {
      throw new AppError('INVALID_INPUT', `"${options.baseUrl}" is not a valid base URL.`)
    }
    this.baseUrl = base
    const encoded = Buffer.from(`${options.tokenId}:${options.clientSecret}`, 'utf8').toString('base64')
    this.authorization = `Basic ${encoded}`
    this.redactions = [options.clientSecret, encoded].filter((s) => s.length >= 4)
    this.o = {
      connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
      totalTimeoutMs: options.totalTimeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 3,
      baseDelayMs: options.baseDelayMs ?? 250,
      maxDelayMs: options.maxDelayMs ?? 8_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      sleep: options.sleep ?? sleepReal,
      random: options.random ?? Math.random,
      onAttempt: options.onAttempt ?? (() => {}),
      onAttemptStart: options.onAttemptStart ?? (() => {})
    }
    this.ownsDispatcher = !options.dispatcher
    this.dispatcher = options.dispatcher
  }

  /**
   * undici is loaded by the first request, not before: it takes main's thread tens of milliseconds to load, which at
   * start-up held back the page and its first answers (served from the cache), none of which need the network. The
   * first request is sync's first poll, which starts with the session (or once the Local sandbox answers), so a refresh
   * behind a later answer finds it loaded.
   */
  private async http(): Promise<{ request: UnboundRequest; dispatcher: Dispatcher }> {
    const { Agent, request } = await undiciParts()
    // A client closed before its first request makes no pool of its own afterwards (its requests fail, as they would
    // on a closed pool).
    if (this.closed && !this.dispatcher) throw new Error('The client is closed')
    this.dispatcher ??= new Agent({
      connect: { timeout: this.o.connectTimeoutMs },
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      connections: 8,
      pipelining: 1
    })
    return { request, dispatcher: this.dispatcher }
  }

  get host(): string {
    return this.baseUrl.host
  }

  async close(): Promise<void> {
    this.closed = true
    if (this.ownsDispatcher) await this.dispatcher?.close().catch(() => {})
  }

  get<S extends z.ZodType>(path: string, schema: S, query?: RequestOptions<S>['query']): Promise<z.output<S>> {
    return this.request('GET', path, { schema, ...(query && { query }), retry: 'idempotent' }) as Promise<z.output<S>>
  }

  /** Sends one request with the retry policy; resolves with the parsed body (undefined for 204). */
  async request<S extends z.ZodType | undefined>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    options: RequestOptions<S> = {}
  ): Promise<S extends z.ZodType ? z.output<S> : unknown> {
    const policy = options.retry ?? (method === 'GET' ? 'idempotent' : 'unsafe')
    const maxRetries = options.maxRetries ?? this.o.maxRetries
    const url = this.urlFor(path, options.query)
    // Whether any attempt so far may have been processed: the final error must say so even if the last attempt
    // could not connect (a reset, then a refused connection, is still "may have gone through").
    let anyMaybeProcessed = false
    for (let attempt = 0; ; attempt++) {
      const started = Date.now()
      this.o.onAttemptStart({ method, path, attempt })
      let failure: ApiError
      try {
        const result = await this.once(method, url, options)
        this.o.onAttempt({ method, path, attempt, status: result.status, ms: Date.now() - started })
        return result.value as S extends z.ZodType ? z.output<S> : unknown
      } catch (error) {
        failure = error instanceof ApiError ? error : unexpectedFailure(this.host, error)
      }
      const delay = this.retryDelay(failure, attempt, policy, maxRetries)
      this.o.onAttempt({
        method,
        path,
        attempt,
        ...(failure.httpStatus !== undefined && { status: failure.httpStatus }),
        errorKind: failure.kind,
        ms: Date.now() - started,
        ...(delay !== undefined && { retryInMs: delay })
      })
      if (delay === undefined) throw anyMaybeProcessed ? failure.maybeProcessedCopy() : failure
      anyMaybeProcessed ||= failure.maybeProcessed
      await this.o.sleep(delay)
    }
  }

  /** undefined: do not retry. */
  private retryDelay(failure: ApiError, attempt: number, policy: RetryPolicy, maxRetries: number): number | undefined {
    if (attempt >= maxRetries) return undefined
    const status = failure.httpStatus
    let retryable: boolean
    if (failure.kind === 'http') {
      retryable = status === 429 || (policy === 'idempotent' && status !== undefined && RETRYABLE_STATUS.has(status))
    } else if (failure.kind === 'unexpected' || failure.kind === 'tls') {
      retryable = false
    } else {
      retryable = policy === 'idempotent' || !failure.maybeProcessed
    }
    if (!retryable) return undefined
    if (failure.retryAfterMs !== undefined) {
      if (failure.retryAfterMs > this.o.maxRetryAfterMs) return undefined
      return failure.retryAfterMs
    }
    const cap = Math.min(this.o.maxDelayMs, this.o.baseDelayMs * 2 ** attempt)
    // Full jitter, with a floor so retries never hammer the service back to back.
    return Math.round(cap / 2 + (this.o.random() * cap) / 2)
  }

  private urlFor(path: string, query: RequestOptions<undefined>['query']): URL {
    const url = new URL(path.replace(/^\/+/, ''), this.baseUrl)
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v))
    return url
  }

  private async once(
    method: string,
    url: URL,
    options: RequestOptions<z.ZodType | undefined>
  ): Promise<{ status: number; value: unknown }> {
    const headers: Record<string, string> = { authorization: this.authorization, accept: 'application/json' }
    let body: string | undefined
    if (options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers['content-type'] = 'application/json'
    }
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey
    let response: Dispatcher.ResponseData
    const signal = AbortSignal.timeout(this.o.totalTimeoutMs)
    try {
      const { request, dispatcher } = await this.http()
      response = await request.call(dispatcher, {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: method as Dispatcher.HttpMethod,
        headers,
        ...(body !== undefined && { body }),
        signal,
        headersTimeout: this.o.totalTimeoutMs,
        bodyTimeout: this.o.totalTimeoutMs
      })
    } catch (error) {
      throw networkFailure(this.host, error)
    }
    const status = response.statusCode
    let text: string
    try {
      text = await readCapped(response, this.o.maxResponseBytes)
    } catch (error) {
      if (error instanceof TooLarge) throw tooLargeFailure(this.host, this.o.maxResponseBytes, status)
      throw networkFailure(this.host, error, true)
    }
    if (status >= 200 && status < 300) options.onHeaders?.(response.headers)
    if (status === 204 || (status >= 200 && status < 300 && text.length === 0)) return { status, value: undefined }
    let json: unknown
    let isJson = true
    try {
      json = text.length ? JSON.parse(text) : undefined
    } catch {
      isJson = false
    }
    if (status >= 200 && status < 300) {
      if (!isJson) {
        throw new ApiError(
          'UNEXPECTED_RESPONSE',
          `${this.host} answered with something that is not JSON (${contentType(response)}). Check the base URL.`,
          { kind: 'unexpected', maybeProcessed: true, httpStatus: status }
        )
      }
      if (!options.schema) return { status, value: json }
      const parsed = options.schema.safeParse(json)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        const where = issue && issue.path.length ? ` at ${issue.path.map(String).join('.')}` : ''
        throw new ApiError(
          'UNEXPECTED_RESPONSE',
          `${this.host} answered with data Paydesk does not understand${where}: ${issue?.message ?? 'invalid shape'}.`,
          { kind: 'unexpected', maybeProcessed: true, httpStatus: status }
        )
      }
      return { status, value: parsed.data }
    }
    throw httpFailure(this.host, (t) => this.redact(t), status, isJson ? json : undefined, response, text, url.pathname)
  }

  private redact(text: string): string {
    let out = text
    for (const r of this.redactions) out = out.split(r).join('[redacted]')
    return out
  }
}

class TooLarge extends Error {}

/**
 * The body as text, read chunk by chunk: past `limit` bytes (or when its Content-Length says it will be) reading stops
 * and the connection is dropped, so no more of it is downloaded nor held.
 */
async function readCapped(response: Dispatcher.ResponseData, limit: number): Promise<string> {
  const { body } = response
  if (Number(response.headers['content-length']) > limit) {
    body.destroy()
    throw new TooLarge()
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) {
      body.destroy()
      throw new TooLarge()
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks, size).toString('utf8')
}

type UnboundRequest = (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>

/**
 * undici's Agent and its request function, each from its own file: the client needs nothing else, and undici's index
 * also loads fetch, WebSocket, EventSource, its cache stores and its mocks (890 KB bundled). Loading the index took
 * main's thread 88-234 ms at a cold start's first poll, in the middle of the operator's first search or click; these
 * two files, with what they need, took 30-129 ms. undici is pinned, and every test of the client goes through both.
 */
let undiciModule: Promise<{ Agent: typeof import('undici').Agent; request: UnboundRequest }> | undefined
const undiciParts = () =>
  (undiciModule ??= Promise.all([
    import('undici/lib/dispatcher/agent.js'),
    import('undici/lib/api/api-request.js')
  ]).then(([agent, request]) => ({ Agent: agent.default, request: request.default })))
