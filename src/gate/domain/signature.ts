/**
 * X-Grid-Signature (reference, "WebhookSignature"): ECDSA P-256 over SHA-256 of the raw body, verified with the PEM
 * public key the service's dashboard shows. The reference publishes two encodings of the header: plain base64, and
 * `{"v":"1","s":"<base64>"}`. The signature inside is DER, as the service's published verification steps and the
 * Local sandbox's signer (src/sandbox/state/webhook-signing.ts) produce; a 64-byte raw r||s is accepted too, since some
 * ECDSA libraries emit that and the published steps do not name the form.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto'

/** Longest header read: a DER P-256 signature is at most 72 bytes, about 100 in base64 inside the JSON form. */
const MAX_HEADER_LENGTH = 512
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

export function publicKeyFrom(pem: string): KeyObject {
  const key = createPublicKey(pem)
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
    throw new Error('The webhook public key must be an EC P-256 (prime256v1) public key in PEM')
  return key
}

/** The signature bytes a header carries, or null when it is in neither published encoding. */
export function signatureBytes(header: string): Buffer | null {
  const text = header.trim()
  if (text.length === 0 || text.length > MAX_HEADER_LENGTH) return null
  let b64 = text
  if (text.startsWith('{')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      return null
    }
    const p = parsed as { v?: unknown; s?: unknown }
    if (typeof parsed !== 'object' || parsed === null || p.v !== '1' || typeof p.s !== 'string') return null
    b64 = p.s
  }
  if (!BASE64.test(b64)) return null
  const bytes = Buffer.from(b64, 'base64')
  return bytes.length > 0 ? bytes : null
}

/** True only when `header` is a valid signature of exactly `raw` by `key`. */
export function signatureValid(key: KeyObject, raw: Buffer, header: string | undefined): boolean {
  if (typeof header !== 'string') return false
  const sig = signatureBytes(header)
  if (!sig) return false
  return (
    (sig[0] === 0x30 && verifies(key, raw, sig, 'der')) || (sig.length === 64 && verifies(key, raw, sig, 'ieee-p1363'))
  )
}

function verifies(key: KeyObject, raw: Buffer, sig: Buffer, dsaEncoding: 'der' | 'ieee-p1363'): boolean {
  try {
    return verify('sha256', raw, { key, dsaEncoding }, sig)
  } catch {
    // A malformed DER sequence throws in some OpenSSL versions instead of answering false.
    return false
  }
}
