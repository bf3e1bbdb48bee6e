/**
 * X-Grid-Signature as the Local sandbox's signer makes it (DER, base64) and in the reference's second encoding
 * (`{"v":"1","s":…}`), plus raw r||s; anything else, or any other byte, does not verify.
 */
import { createPrivateKey, sign } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { publicKeyFrom, signatureBytes, signatureValid } from '../../../src/gate/domain/signature'
import { newSigningKeyPair, signBody } from '../../../src/sandbox/state/webhook-signing'

const keys = newSigningKeyPair()
const key = publicKeyFrom(keys.publicKeyPem)
const body = Buffer.from(
  '{"id":"Webhook:1","type":"INCOMING_PAYMENT.PENDING","timestamp":"2025-10-13T12:00:00Z","data":{}}'
)

describe('signatureValid', () => {
  it('verifies the sandbox signer’s header (DER, base64) and the {"v":"1","s":…} form of it', () => {
    const header = signBody(keys, body)
    expect(signatureValid(key, body, header)).toBe(true)
    expect(signatureValid(key, body, JSON.stringify({ v: '1', s: header }))).toBe(true)
  })

  it('verifies a raw r||s signature (64 bytes) in both encodings', () => {
    const raw = sign('sha256', body, { key: createPrivateKey(keys.privateKeyPem), dsaEncoding: 'ieee-p1363' })
    expect(raw).toHaveLength(64)
    expect(signatureValid(key, body, raw.toString('base64'))).toBe(true)
    expect(signatureValid(key, body, JSON.stringify({ v: '1', s: raw.toString('base64') }))).toBe(true)
  })

  it('refuses a flipped body byte, another key, a missing header and malformed encodings', () => {
    const header = signBody(keys, body)
    const flipped = Buffer.from(body)
    flipped[5] = (flipped[5] as number) ^ 1
    expect(signatureValid(key, flipped, header)).toBe(false)
    expect(signatureValid(publicKeyFrom(newSigningKeyPair().publicKeyPem), body, header)).toBe(false)
    for (const bad of [
      undefined,
      '',
      ' ',
      '{"v":"2","s":"' + header + '"}',
      '{"v":"1"}',
      '{bad',
      'a'.repeat(600),
      '!!!!'
    ])
      expect(signatureValid(key, body, bad), String(bad)).toBe(false)
    expect(signatureBytes(Buffer.from(header, 'base64').toString('hex'))).not.toBeNull() // hex is valid base64 text...
    expect(signatureValid(key, body, Buffer.from(header, 'base64').toString('hex'))).toBe(false) // ...but not this signature
  })

  it('refuses a public key that is not P-256', () => {
    expect(() => publicKeyFrom('not a key')).toThrow()
  })
})
