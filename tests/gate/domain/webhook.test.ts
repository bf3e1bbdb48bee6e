/* eslint-disable @typescript-eslint/no-explicit-any -- the published examples are untyped YAML */
/**
 * Both payload shapes the reference shows are read: its published example of INCOMING_PAYMENT.PENDING (sender and
 * receiver as `senderUmaAddress`/`receiverUmaAddress` at the top of data, the older form) and the schema's
 * `source.umaAddress` form the sandbox sends.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { senderIdentifiers } from '../../../src/shared/approval-rules'
import { publicKeyFrom } from '../../../src/gate/domain/signature'
import { readWebhook } from '../../../src/gate/domain/webhook'
import { newSigningKeyPair, signBody } from '../../../src/sandbox/state/webhook-signing'
import { PUBLISHED_OPENAPI_PATH } from '../../contract/published-openapi'

const keys = newSigningKeyPair()
const key = publicKeyFrom(keys.publicKeyPem)
const doc = parse(readFileSync(PUBLISHED_OPENAPI_PATH, 'utf8'))
const example = doc.webhooks['incoming-payment'].post.requestBody.content['application/json'].examples.pendingPayment
  .value as any

const read = (payload: unknown, now = Date.parse('2025-08-15T14:32:30Z')) => {
  const raw = Buffer.from(JSON.stringify(payload))
  return readWebhook(raw, signBody(keys, raw), key, now, 300_000)
}

describe('readWebhook', () => {
  it('reads the published example (the older shape) with its requested fields and its sender', () => {
    const r = read(example)
    expect(r.kind).toBe('pending')
    if (r.kind !== 'pending') return
    expect(r.requested).toEqual([
      { name: 'NATIONALITY', mandatory: true },
      { name: 'POSTAL_ADDRESS', mandatory: false }
    ])
    expect(senderIdentifiers(r.payment)).toEqual(['$sender@external.domain'])
    expect(r.payment.receivedAmount.amount).toBe(50000)
  })

  it('reads the schema shape, with source.umaAddress', () => {
    const { senderUmaAddress: _s, receiverUmaAddress: _r, ...data } = example.data
    const r = read({ ...example, data: { ...data, source: { sourceType: 'UMA_ADDRESS', umaAddress: '$a@b.c' } } })
    expect(r.kind === 'pending' && senderIdentifiers(r.payment)).toEqual(['$a@b.c'])
  })

  it('takes other events as informational and refuses stale, future or shapeless ones', () => {
    expect(read({ ...example, type: 'INCOMING_PAYMENT.COMPLETED' })).toMatchObject({ kind: 'informational' })
    expect(read(example, Date.parse('2025-08-15T14:37:00.001Z'))).toMatchObject({ status: 401, code: 'STALE_WEBHOOK' })
    expect(read(example, Date.parse('2025-08-15T14:26:59Z'))).toMatchObject({ status: 401, code: 'STALE_WEBHOOK' })
    expect(read({ ...example, data: { id: 'x' } })).toMatchObject({ status: 400, code: 'INVALID_WEBHOOK' })
  })
})
