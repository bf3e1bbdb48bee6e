import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { ApiError, invalidInput, validationError } from '../state/sandbox-errors'

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024
/** Past this many bytes an oversize body is no longer drained: the connection is cut. */
const HARD_BODY_CAP = 64 * 1024 * 1024

export interface Reply {
  status: number
  body?: unknown
  /** Already serialised JSON of `body` (lists build it from cached item JSON). */
  json?: string
  headers?: Record<string, string>
}

/** Read the request body; answers 413 for bodies over `limit`, 415 for a non-JSON body, 400 for malformed JSON. */
export function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > HARD_BODY_CAP) {
        req.destroy()
        reject(new ApiError(413, 'PAYLOAD_TOO_LARGE', `Request body is larger than ${limit} bytes`, { limit }))
        return
      }
      if (size > limit) {
        // Keep draining (without keeping) so that the client can read the 413 answer.
        tooLarge = true
        chunks.length = 0
        return
      }
      chunks.push(chunk)
    })
    req.on('error', (err) => reject(err))
    req.on('end', () => {
      if (tooLarge) {
        reject(
          new ApiError(413, 'PAYLOAD_TOO_LARGE', `Request body is larger than the ${limit}-byte limit`, { limit, size })
        )
        return
      }
      if (size === 0) {
        resolve(undefined)
        return
      }
      const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
      if (type !== 'application/json' && !type.endsWith('+json')) {
        reject(
          new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Request bodies must be JSON (Content-Type: application/json)', {
            contentType: req.headers['content-type'] ?? null
          })
        )
        return
      }
      const text = Buffer.concat(chunks).toString('utf8')
      try {
        resolve(JSON.parse(text))
      } catch (err) {
        reject(invalidInput(`Malformed JSON body: ${err instanceof Error ? err.message : String(err)}`))
      }
    })
  })
}

export function sendReply(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return
  const headers: Record<string, string | number> = { ...(reply.headers ?? {}) }
  if (reply.status === 204 || (reply.body === undefined && reply.json === undefined)) {
    res.writeHead(reply.status, headers)
    res.end()
    return
  }
  const text = reply.json ?? JSON.stringify(reply.body)
  headers['content-type'] = 'application/json; charset=utf-8'
  headers['content-length'] = Buffer.byteLength(text)
  res.writeHead(reply.status, headers)
  res.end(text)
}

export function errorReply(err: ApiError): Reply {
  return { status: err.status, body: err.toBody(), ...(err.headers ? { headers: err.headers } : {}) }
}

/** URLSearchParams as an object; a repeated name becomes an array (which the schemas reject). */
export function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [k, v] of params) {
    const prev = out[k]
    if (prev === undefined) out[k] = v
    else out[k] = Array.isArray(prev) ? [...prev, v] : [prev, v]
  }
  return out
}

/** A schema-like object (zod): what `parseWith` needs. */
export interface SafeParser<T> {
  safeParse(
    input: unknown
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } }
}

export function parseWith<T>(schema: SafeParser<T>, input: unknown, where: string): T {
  const r = schema.safeParse(input)
  if (!r.success) throw validationError(where, r.error.issues)
  return r.data
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest()

/** HTTP Basic `<token id>:<client secret>`, compared in constant time. */
export function checkBasicAuth(header: string | undefined, tokenId: string, clientSecret: string): boolean {
  if (!header) return false
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)
  if (!m) return false
  const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8')
  const sep = decoded.indexOf(':')
  if (sep < 0) return false
  const idOk = timingSafeEqual(digest(decoded.slice(0, sep)), digest(tokenId))
  const secretOk = timingSafeEqual(digest(decoded.slice(sep + 1)), digest(clientSecret))
  return idOk && secretOk
}

/** Stable JSON (sorted keys) for request fingerprints. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    const keys = Object.keys(value as Record<string, unknown>).sort()
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

export function fingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body)}`, 'utf8')
    .digest('hex')
}
