/**
 * The webhook signature of the real service (reference: `X-Grid-Signature`): ECDSA on P-256 over SHA-256 of the raw
 * body, base64 (DER). Each sandbox state has its own key pair; the public key (PEM) is what an operator copies from the
 * service's dashboard to verify deliveries.
 */
import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto'

export interface SigningKeyPair {
  /** PKCS#8 PEM. Kept in the sandbox state only: never logged, never answered. */
  privateKeyPem: string
  /** SPKI PEM, published by `GET /sandbox/webhook-public-key` and printed by the CLI. */
  publicKeyPem: string
}

export const SIGNATURE_HEADER = 'x-grid-signature'

export function newSigningKeyPair(): SigningKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ec', {
    namedCurve: 'prime256v1',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' }
  })
  return { privateKeyPem: privateKey, publicKeyPem: publicKey }
}

// Parsing a PEM costs more than signing with it: one KeyObject per key pair.
const parsed = new WeakMap<SigningKeyPair, KeyObject>()

/** The header value for exactly these bytes. */
export function signBody(keys: SigningKeyPair, body: Uint8Array): string {
  let key = parsed.get(keys)
  if (!key) {
    key = createPrivateKey(keys.privateKeyPem)
    parsed.set(keys, key)
  }
  return sign('sha256', body, key).toString('base64')
}
