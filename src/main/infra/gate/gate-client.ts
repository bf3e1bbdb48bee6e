import type { Agent, Dispatcher } from 'undici'
import type { z } from 'zod'
import { GateError, missingFieldErrors } from '../../../shared/gate'
import type { IpcErrorCode } from '../../../shared/ipc/define'
import { AppError } from '../app-error'
import { networkFailure } from '../api-errors'

/**
 * The operators' API of an approval gate (docs/gate.md), as main calls it: bearer token, JSON, a timeout on every call,
 * and every failure as an AppError in the operator's words (the gate's own {code, message} kept as serviceCode and
 * quoted). The token never appears in a message, a log or an error.
 */

export interface GateClientOptions {
  url: string
  token: string
  /** Whole-call budget of a command (connect, headers and body). */
  timeoutMs?: number
  connectTimeoutMs?: number
  /** The stream is cut and resumed when nothing (not even the gate's 15 s keep-alive) arrived for this long. */
  streamIdleMs?: number
  /** The gate refused the token (401/403): the link goes signed-out. */
  onUnauthorized?: () => void
}

const TIMEOUT_MS = 10_000
const CONNECT_TIMEOUT_MS = 5_000
const STREAM_IDLE_MS = 45_000
const MAX_BODY_BYTES = 4 * 1024 * 1024

let undiciModule: Promise<typeof import('undici')> | undefined
const undici = () => (undiciModule ??= import('undici'))

export class GateClient {
  readonly url: string
  readonly host: string
  private agent: Agent | undefined

  constructor(private readonly o: GateClientOptions) {
    this.url = o.url.replace(/\/+$/, '')
    this.host = new URL(this.url).host
  }

  private async dispatcher(): Promise<Agent> {
    const { Agent } = await undici()
    this.agent ??= new Agent({ connect: { timeout: this.o.connectTimeoutMs ?? CONNECT_TIMEOUT_MS } })
    return this.agent
  }

  /** One command: the answer read with `schema`, or an AppError. A 204 reads as undefined. */
  async call<S extends z.ZodType>(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    schema: S,
    body?: unknown
  ): Promise<z.output<S>> {
    const { request } = await undici()
    const timeoutMs = this.o.timeoutMs ?? TIMEOUT_MS
    let res: Dispatcher.ResponseData
    let text: string
    try {
      res = await request(this.url + path, {
        method,
        dispatcher: await this.dispatcher(),
        headers: {
          authorization: `Bearer ${this.o.token}`,
          accept: 'application/json',
          ...(body !== undefined && { 'content-type': 'application/json' })
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs)
      })
      text = await readCapped(res.body)
    } catch (error) {
      throw this.unreachable(error)
    }
    let json: unknown
    try {
      json = text ? JSON.parse(text) : undefined
    } catch {
      json = undefined
    }
    if (res.statusCode >= 300) throw this.refused(res.statusCode, json)
    const parsed = schema.safeParse(json)
    if (!parsed.success)
      throw new AppError(
        'UNEXPECTED_RESPONSE',
        `The approval gate at ${this.host} answered something Paydesk cannot read (HTTP ${res.statusCode}). Check the gate URL, and that the gate and Paydesk are of the same version.`,
        { httpStatus: res.statusCode }
      )
    return parsed.data
  }

  /** Opens the event stream after `lastSeq`; resolves with its body once the gate answered 200. */
  async stream(lastSeq: number, signal: AbortSignal): Promise<AsyncIterable<Buffer>> {
    const { request } = await undici()
    let res: Dispatcher.ResponseData
    try {
      res = await request(`${this.url}/operator/events`, {
        method: 'GET',
        dispatcher: await this.dispatcher(),
        headers: {
          authorization: `Bearer ${this.o.token}`,
          accept: 'text/event-stream',
          ...(lastSeq > 0 && { 'last-event-id': String(lastSeq) })
        },
        headersTimeout: this.o.timeoutMs ?? TIMEOUT_MS,
        bodyTimeout: this.o.streamIdleMs ?? STREAM_IDLE_MS,
        signal
      })
    } catch (error) {
      throw this.unreachable(error)
    }
    if (res.statusCode !== 200) {
      const text = await readCapped(res.body).catch(() => '')
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch {
        json = undefined
      }
      throw this.refused(res.statusCode, json)
    }
    return res.body
  }

  /** A network failure as a sentence about the gate (never the token). */
  unreachable(error: unknown): AppError {
    if (error instanceof AppError) return error
    const failure = networkFailure(this.host, error)
    return new AppError(failure.code, `The approval gate did not answer: ${failure.message}`)
  }

  private refused(status: number, json: unknown): AppError {
    const said = GateError.safeParse(json)
    const serviceCode = said.success ? said.data.code : undefined
    const gateMessage = said.success ? said.data.message.slice(0, 300).replace(/\.$/, '') : undefined
    const quote = gateMessage ? ` The gate said: "${gateMessage}".` : ''
    const extra = { httpStatus: status, ...(serviceCode !== undefined && { serviceCode }) }
    if (status === 401 || status === 403) {
      this.o.onUnauthorized?.()
      return new AppError(
        'UNAUTHORIZED',
        `The approval gate at ${this.host} refused the operator token. Ask for a new one (npm run gate -- operator add NAME) and connect again.`,
        extra
      )
    }
    // An Approve refused for fields the sender requires: each one is shown at its box, in the operator's words.
    const fieldErrors = status === 422 ? missingFieldErrors(json) : null
    if (fieldErrors)
      return new AppError(
        'INVALID_INPUT',
        'The sender requires information the gate has no value for: fill in each field marked, then approve again.',
        { ...extra, fieldErrors }
      )
    const [code, sentence]: [IpcErrorCode, string] =
      status === 404
        ? ['NOT_FOUND', 'The approval gate has no such item.']
        : status === 409
          ? ['CONFLICT', 'The approval gate refused: it was decided already.']
          : status === 400 || status === 422
            ? ['INVALID_INPUT', 'The approval gate refused the request as invalid.']
            : status === 413
              ? ['INVALID_INPUT', 'The request was larger than the approval gate accepts.']
              : status >= 500
                ? ['SERVICE_ERROR', `The approval gate failed to answer (HTTP ${status}); nothing changed.`]
                : ['UNEXPECTED_RESPONSE', `The approval gate answered HTTP ${status}.`]
    return new AppError(code, `${sentence}${quote}`, extra)
  }

  async close(): Promise<void> {
    const agent = this.agent
    this.agent = undefined
    await agent?.close().catch(() => undefined)
  }
}

async function readCapped(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) throw new AppError('UNEXPECTED_RESPONSE', 'The approval gate answered too much.')
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}
