/**
 * Open prompts across replicas: two gates on one PostgreSQL database. A prompt opened by replica A (its 202) is listed
 * and answered through replica B; and when A is gone silent (its clock never reaches the margin, as if it died), B
 * applies the fallback itself, after its grace, before the service's deadline. Each replica has its own injected
 * clock, so nothing races a timer: a test moves one and awaits what that causes.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest'
import type { GateEvent } from '../../../src/shared/gate'
import { GateConfig } from '../../../src/gate/config'
import { hashToken, newToken } from '../../../src/gate/domain/operators'
import { SERVICE_DEADLINE_MS } from '../../../src/gate/config'
import { startGateServer, type GateServer } from '../../../src/gate/http/server'
import { PgGateStore } from '../../../src/gate/store/pg-store'
import { newSigningKeyPair, signBody } from '../../../src/sandbox/state/webhook-signing'
import { startPostgres, type TestPostgres } from '../../support/postgres'
import { manualClock, type ManualClock } from '../harness'

const MARGIN = 4000
const GRACE = 250

let db: TestPostgres
let service: Server
let serviceUrl: string
/** Calls the gates made to the service: `approve Transaction:x` / `reject Transaction:x`, in order. */
const calls: string[] = []
const waiters: (() => void)[] = []

beforeAll(async () => {
  db = await startPostgres()
  service = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      const m = /^\/transactions\/([^/]+)\/(approve|reject)$/.exec(req.url ?? '')
      if (m) calls.push(`${m[2]} ${decodeURIComponent(m[1] as string)}`)
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      for (const w of waiters.splice(0)) w()
    })
  })
  await new Promise<void>((r) => service.listen(0, '127.0.0.1', r))
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`
}, 60_000)

afterAll(async () => {
  service.closeAllConnections()
  await new Promise((r) => service.close(r))
  await db.stop()
})

const keys = newSigningKeyPair()
const token = newToken()
let gates: { server: GateServer; clock: ManualClock; store: PgGateStore }[] = []

beforeEach(async () => {
  calls.length = 0
  const url = await db.createDatabase()
  const start = Date.now()
  const config = GateConfig.parse({
    port: 0,
    marginMs: MARGIN,
    webhookPublicKey: keys.publicKeyPem,
    serviceBaseUrl: serviceUrl,
    serviceTokenId: 'id',
    serviceClientSecret: 'secret',
    receiverInfoKey: randomBytes(32).toString('hex')
  })
  gates = []
  for (let i = 0; i < 2; i++) {
    const clock = manualClock(start)
    const store = await PgGateStore.open({ url, now: clock.now })
    if (i === 0) await store.addOperator('Ana', hashToken(token))
    const server = await startGateServer({ config, store, clock, logStream: false })
    gates.push({ server, clock, store })
  }
})

afterEach(async () => {
  for (const g of gates) await g.server.close()
})

async function post(gate: GateServer, path: string, body: unknown, headers: Record<string, string> = {}) {
  const raw = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body))
  const r = await fetch(gate.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: raw
  })
  const text = await r.text()
  return { status: r.status, body: text ? JSON.parse(text) : undefined }
}

/** An approval webhook that no rule answers (a fresh gate asks a person), signed, timestamped on `clock`. */
function webhook(n: number, clock: ManualClock) {
  const body = Buffer.from(
    JSON.stringify({
      id: `Webhook:r-${n}`,
      type: 'INCOMING_PAYMENT.PENDING',
      timestamp: new Date(clock.now()).toISOString(),
      data: {
        id: `Transaction:r-${n}`,
        type: 'INCOMING',
        status: 'PENDING',
        customerId: 'Customer:r',
        platformCustomerId: 'r',
        source: { sourceType: 'UMA_ADDRESS', umaAddress: '$someone@r.example' },
        destination: { destinationType: 'ACCOUNT', accountId: 'InternalAccount:r' },
        receivedAmount: { amount: 1234, currency: { code: 'USD', decimals: 2 } }
      }
    })
  )
  return { body, headers: { 'x-grid-signature': signBody(keys, body) } }
}

/** Resolves with the first entry of `kind` about `transactionId` that `store` hears (after its commit). */
function heard(store: PgGateStore, kind: string, transactionId: string): Promise<GateEvent> {
  return new Promise((resolve) => {
    const off = store.subscribe((e) => {
      if (e.kind === kind && e.data['transactionId'] === transactionId) {
        off()
        resolve(e)
      }
    })
  })
}

const serviceCalled = (n: number): Promise<void> =>
  calls.length >= n ? Promise.resolve() : new Promise((r) => waiters.push(() => void serviceCalled(n).then(r)))

/** Webhook `n` answered 202 by replica A, which opens a prompt; returns both replicas once B has heard of it. */
async function promptOpenedOnA(n: number): Promise<[(typeof gates)[0], (typeof gates)[0]]> {
  const [a, b] = gates as [(typeof gates)[0], (typeof gates)[0]]
  const promptOnB = heard(b.store, 'prompt', `Transaction:r-${n}`)
  const w = webhook(n, a.clock)
  expect((await post(a.server, '/webhooks', w.body, w.headers)).status).toBe(202)
  await promptOnB
  return [a, b]
}

it('a prompt opened by one replica is listed and answered through the other, and told to the service once', async () => {
  const [a, b] = await promptOpenedOnA(1)
  const listed = await fetch(`${b.server.url}/operator/prompts`, { headers: { authorization: `Bearer ${token}` } })
  expect(
    ((await listed.json()) as { prompts: { transactionId: string }[] }).prompts.map((p) => p.transactionId)
  ).toEqual(['Transaction:r-1'])
  b.clock.advance(1000)
  const answered = await post(
    b.server,
    '/operator/prompts/Transaction:r-1',
    { action: 'approve' },
    { authorization: `Bearer ${token}` }
  )
  expect(answered.status).toBe(200)
  expect(answered.body.decision).toMatchObject({ actor: 'operator:Ana', data: { outcome: 'approved' } })
  expect(calls).toEqual(['approve Transaction:r-1'])
  // A's own timer reaches the margin later: the prompt is gone, so nothing more is decided or sent.
  a.clock.advance(MARGIN)
  await a.server.close()
  expect(calls).toEqual(['approve Transaction:r-1'])
  const decisions = (await b.store.readLog(0, 100)).filter((e) => e.kind === 'decision')
  expect(decisions).toHaveLength(1)
  expect(await b.store.openPrompts()).toEqual([])
})

it('when the replica that answered 202 falls silent, another applies the fallback after its grace, before the deadline', async () => {
  const [a, b] = await promptOpenedOnA(2)
  // A never reaches the margin (its clock stands still, as a dead process's would). B waits for its grace.
  b.clock.advance(MARGIN)
  expect(calls).toEqual([])
  const decided = heard(b.store, 'decision', 'Transaction:r-2')
  b.clock.advance(GRACE)
  expect(GRACE + MARGIN).toBeLessThan(SERVICE_DEADLINE_MS)
  expect((await decided).actor).toBe('fallback:otherwise')
  await serviceCalled(1)
  expect(calls).toEqual(['reject Transaction:r-2'])
  expect(await a.store.openPrompts()).toEqual([])
})
