/* eslint-disable @typescript-eslint/no-explicit-any -- webhook bodies under test are untyped JSON, checked against the published schemas */
/**
 * A platform's webhook endpoint for tests: a node:http server on 127.0.0.1 that records every delivery, checks its
 * body against the published OpenAPI schema of its type and its X-Grid-Signature against the sandbox's public key, and
 * answers as the test says (default 200 `{}`). A test waits for a delivery by type; nothing waits on time.
 */
import { verify } from 'node:crypto'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { publishedValidator } from '../../../contract/published-openapi'

export interface Delivery {
  raw: Buffer
  json: any
  type: string
  signature: string | undefined
}

/** How the endpoint answers one delivery; `hang` keeps the request open until the receiver closes. */
export type Answer = { status: number; body?: unknown } | 'hang'

export interface Receiver {
  url: string
  deliveries: Delivery[]
  /** Schema or signature failures, one line each: a test expects none. */
  problems: string[]
  answer(by: (d: Delivery) => Answer): void
  /** The next delivery of `type` not taken yet (already received, or when it comes). */
  next(type: string): Promise<Delivery>
  close(): Promise<void>
}

const SCHEMA_BY_OBJECT: Record<string, string> = {
  INCOMING_PAYMENT: 'IncomingPaymentWebhook',
  OUTGOING_PAYMENT: 'OutgoingPaymentWebhook',
  INTERNAL_ACCOUNT: 'InternalAccountStatusWebhook',
  TEST: 'TestWebhookRequest'
}

const validate = publishedValidator()

/** Verifies a signature header over exactly these bytes with the published public key. */
export function signatureVerifies(publicKeyPem: string, raw: Buffer, signature: string | undefined): boolean {
  if (signature === undefined) return false
  return verify('sha256', raw, publicKeyPem, Buffer.from(signature, 'base64'))
}

export async function startReceiver(publicKeyPem: () => string): Promise<Receiver> {
  const deliveries: Delivery[] = []
  const taken = new Set<Delivery>()
  const waiting: { type: string; resolve: (d: Delivery) => void }[] = []
  const problems: string[] = []
  const hanging: ServerResponse[] = []
  let answerBy: (d: Delivery) => Answer = () => ({ status: 200, body: {} })

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks)
      const json = JSON.parse(raw.toString('utf8'))
      const signature = req.headers['x-grid-signature'] as string | undefined
      const d: Delivery = { raw, json, type: String(json.type), signature }
      const schema = SCHEMA_BY_OBJECT[d.type.split('.')[0] as string]
      if (!schema) problems.push(`${d.type}: no published schema`)
      else for (const e of validate(schema, json)) problems.push(`${d.type} ${schema}: ${e}`)
      if (!signatureVerifies(publicKeyPem(), raw, signature)) problems.push(`${d.type}: signature does not verify`)
      deliveries.push(d)
      const answer = answerBy(d)
      if (answer === 'hang') hanging.push(res)
      else {
        const text = answer.body === undefined ? '' : JSON.stringify(answer.body)
        res.writeHead(answer.status, text ? { 'content-type': 'application/json' } : {})
        res.end(text)
      }
      const w = waiting.findIndex((x) => x.type === d.type)
      if (w >= 0) {
        taken.add(d)
        waiting.splice(w, 1)[0]!.resolve(d)
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    deliveries,
    problems,
    answer: (by) => {
      answerBy = by
    },
    next: (type) => {
      const ready = deliveries.find((d) => d.type === type && !taken.has(d))
      if (ready) {
        taken.add(ready)
        return Promise.resolve(ready)
      }
      return new Promise((resolve) => waiting.push({ type, resolve }))
    },
    close: async () => {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
