/**
 * Operators' tokens: printed once by `npm run gate -- operator add NAME`, stored only as SHA-256 hashes, and checked by
 * comparing the presented token's hash with every stored hash in constant time (no early exit, so the time taken says
 * nothing about which operator or how many bytes matched).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { GateStore } from '../store/store'

const PREFIX = 'gop_'

export function newToken(): string {
  return PREFIX + randomBytes(32).toString('base64url')
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest()
}

export const OPERATOR_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._@-]{0,63}$/u

/** The operator a `Authorization: Bearer <token>` header names, or null. */
export async function operatorFor(store: GateStore, authorization: string | undefined): Promise<string | null> {
  if (typeof authorization !== 'string' || authorization.length > 200) return null
  const m = /^Bearer ([A-Za-z0-9_-]+)$/.exec(authorization)
  if (!m) return null
  const presented = hashToken(m[1] as string)
  let found: string | null = null
  for (const op of await store.operators()) {
    if (op.tokenHash.length === presented.length && timingSafeEqual(op.tokenHash, presented)) found ??= op.name
  }
  return found
}
