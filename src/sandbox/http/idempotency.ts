/**
 * Idempotency-Key (reference: transfer-out, quotes, execute): a retry with the same key and the same request gets the
 * first answer again instead of moving money twice; the same key with another request is refused.
 */
import { ApiError, FINAL_ANSWER_HEADERS, refusedAsInvalid } from '../state/sandbox-errors'
import { errorReply, fingerprint, type Reply } from './http'
import type { Store } from '../state/sandbox-store'

/** How long an Idempotency-Key is remembered. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000
const MAX_IDEMPOTENCY_KEY_LENGTH = 255

interface KeyedRequest {
  method: string
  /** The route template: a key is scoped to its operation. */
  template: string
  /** The request path below the base URL. */
  path: string
  search: string
  body: unknown
  keyHeader: string | string[] | undefined
}

/**
 * Runs `exec` once per key: a stored answer younger than the TTL is replayed; an answer under 500 is stored
 * (`stored` is told, so the state file saves it). Without a key, just runs `exec`.
 */
export function oncePerKey(store: Store, now: number, req: KeyedRequest, exec: () => Reply, stored: () => void): Reply {
  if (req.keyHeader === undefined) return exec()
  const key = Array.isArray(req.keyHeader) ? req.keyHeader[0] : req.keyHeader
  if (!key || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || Array.isArray(req.keyHeader)) {
    return errorReply(
      new ApiError(
        400,
        'INVALID_INPUT',
        `Idempotency-Key must be one value of 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`
      )
    )
  }
  const fp = fingerprint(req.method, req.path, { query: req.search, body: req.body ?? null })
  const storeKey = `${req.template}|${key}`
  const prior = store.idempotency.get(storeKey)
  if (prior && now - prior.at < IDEMPOTENCY_TTL_MS) {
    if (prior.fingerprint !== fp) {
      return errorReply(
        refusedAsInvalid(
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was already used with a different request body; use a new key for a new request',
          { idempotencyKey: key }
        )
      )
    }
    const final = prior.status === 409 ? FINAL_ANSWER_HEADERS : {}
    return { status: prior.status, body: prior.body, headers: { ...final, 'idempotent-replayed': 'true' } }
  }
  const reply = exec()
  if (reply.status < 500) {
    for (const [k, e] of store.idempotency) if (now - e.at >= IDEMPOTENCY_TTL_MS) store.idempotency.delete(k)
    // A snapshot: the engine keeps changing its record (PENDING → PROCESSING), the first answer must not change.
    const body = structuredClone(reply.body)
    store.idempotency.set(storeKey, { key: storeKey, fingerprint: fp, status: reply.status, body, at: now })
    stored()
  }
  return reply
}
