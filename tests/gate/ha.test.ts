/**
 * HA (issue 30): two gate replicas (real processes, `src/gate/cli.ts`) on one PostgreSQL behind HAProxy with health
 * checks on /healthz. 10,000 signed webhooks go through HAProxy; once 3,000 are answered, replica g1 is killed with
 * SIGKILL. Checked afterwards, from the database and the client's answers:
 * - no transaction decided twice (the decisions table and the log's decision entries);
 * - every 200/403/422 the client got has its decision in the log, with that outcome, and `verify-log` passes;
 * - every webhook sent after HAProxy reported g1 down was answered (by the survivor);
 * - no delivery fails, not even those g1 held when it died: HAProxy retries them on the survivor; delivered again (as
 *   the service would when unsure), each webhook sent during the switch gets the answer it got the first time.
 * Some webhook ids are delivered twice at once, so the two replicas also race for the same id.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import pg from 'pg'
import { Pool } from 'undici'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { newSigningKeyPair, signBody, type SigningKeyPair } from '../../src/sandbox/state/webhook-signing'
import { setUpApprovingGate, startGateReplica, type GateReplica } from '../support/gate-replica'
import { startHaproxy, type TestHaproxy } from '../support/haproxy'
import { startPostgres, type TestPostgres } from '../support/postgres'

const TOTAL = 10_000
const KILL_AFTER = 3_000
const CONCURRENCY = 16
const TWICE_EVERY = 97
const APPROVE = '$approve@ha.example'
const OTHER = '$someone@ha.example'
const ROOT = resolve(import.meta.dirname, '../..')

interface Delivery {
  i: number
  webhookId: string
  transactionId: string
  body: Buffer
  signature: string
}

type Phase = 'before-kill' | 'switching' | 'after-down'
interface Outcome {
  status: number | 'failed'
  body: unknown
  phase: Phase
}

function delivery(keys: SigningKeyPair, i: number): Delivery {
  const kind = i % 10
  const customerId = kind === 9 ? 'Customer:ha-unknown' : `Customer:ha-${i % 20}`
  const body = Buffer.from(
    JSON.stringify({
      id: `Webhook:ha-${i}`,
      type: 'INCOMING_PAYMENT.PENDING',
      timestamp: new Date().toISOString(),
      data: {
        id: `Transaction:ha-${i}`,
        type: 'INCOMING',
        status: 'PENDING',
        customerId,
        platformCustomerId: `ha-${i % 20}`,
        source: { sourceType: 'UMA_ADDRESS', umaAddress: kind === 7 || kind === 8 ? OTHER : APPROVE },
        destination: { destinationType: 'ACCOUNT', accountId: 'InternalAccount:ha' },
        receivedAmount: { amount: 1_000 + i, currency: { code: 'USD', decimals: 2 } },
        requestedReceiverCustomerInfoFields: [{ name: 'FULL_NAME', mandatory: true }]
      }
    })
  )
  return {
    i,
    webhookId: `Webhook:ha-${i}`,
    transactionId: `Transaction:ha-${i}`,
    body,
    signature: signBody(keys, body)
  }
}

const OUTCOME_OF: Record<number, string> = { 200: 'approved', 403: 'rejected', 422: 'unprocessable' }

let db: TestPostgres
let haproxy: TestHaproxy | undefined
const replicas: GateReplica[] = []
const dir = mkdtempSync(join(tmpdir(), 'gate-ha-'))

beforeAll(async () => {
  db = await startPostgres()
}, 60_000)

afterAll(async () => {
  await haproxy?.stop()
  for (const r of replicas) await r.kill('SIGKILL')
  await db?.stop()
  rmSync(dir, { recursive: true, force: true })
})

it('two replicas on PostgreSQL behind HAProxy, one SIGKILLed during 10,000 webhooks: nothing decided twice or lost', async () => {
  const keys = newSigningKeyPair()
  const url = await db.createDatabase('gate_ha')
  const receiverInfoKey = Buffer.alloc(32, 0x5a)
  await setUpApprovingGate(url, {
    operator: 'Ana',
    approveSender: APPROVE,
    receiverInfoKey,
    receivers: Array.from({ length: 20 }, (_, k) => ({
      customerId: `Customer:ha-${k}`,
      info: { FULL_NAME: `HA ${k}` }
    }))
  })

  const env = {
    GATE_DATABASE_URL: url,
    GATE_WEBHOOK_PUBLIC_KEY: keys.publicKeyPem,
    GATE_SERVICE_BASE_URL: 'http://127.0.0.1:9/unused',
    GATE_SERVICE_TOKEN_ID: 'ha',
    GATE_SERVICE_CLIENT_SECRET: 'ha',
    GATE_RECEIVER_INFO_KEY: receiverInfoKey.toString('hex'),
    GATE_LOG_LEVEL: 'info'
  }
  replicas.push(...(await Promise.all(['g1', 'g2'].map((name) => startGateReplica(dir, name, env)))))
  const [g1, g2] = replicas as [GateReplica, GateReplica]
  haproxy = await startHaproxy({
    backends: [
      { name: 'g1', address: g1.address },
      { name: 'g2', address: g2.address }
    ],
    healthPath: '/healthz',
    checkIntervalMs: 200,
    fall: 2
  })
  const lb = haproxy

  const deliveries = Array.from({ length: TOTAL }, (_, i) => delivery(keys, i))
  const client = new Pool(lb.url, { connections: CONCURRENCY, pipelining: 1 })
  const post = async (d: Delivery): Promise<{ status: number | 'failed'; body: unknown }> => {
    try {
      const res = await client.request({
        path: '/webhooks',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-grid-signature': d.signature },
        body: d.body
      })
      const text = await res.body.text()
      let body: unknown = text
      try {
        body = JSON.parse(text)
      } catch {
        // HAProxy's own error pages are HTML.
      }
      return { status: res.statusCode, body }
    } catch {
      return { status: 'failed', body: null }
    }
  }

  let phase: Phase = 'before-kill'
  let answered = 0
  let downAfterMs = NaN
  const outcomes = new Map<string, Outcome[]>()
  const note = (d: Delivery, sentIn: Phase, r: { status: number | 'failed'; body: unknown }): void => {
    outcomes.set(d.webhookId, [...(outcomes.get(d.webhookId) ?? []), { ...r, phase: sentIn }])
    if (++answered === KILL_AFTER) {
      // The held point: exactly when the 3,000th answer is read, g1 dies with whatever it has in flight.
      g1.proc.kill('SIGKILL')
      phase = 'switching'
      const killedAt = performance.now()
      void lb.down('g1').then(() => {
        downAfterMs = performance.now() - killedAt
        phase = 'after-down'
      })
    }
  }
  const started = performance.now()
  let next = 0
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < TOTAL) {
        const d = deliveries[next++] as Delivery
        const sentIn = phase
        if (d.i % TWICE_EVERY === 0) {
          // The same delivery twice at once: the replicas race for one webhook id.
          const both = await Promise.all([post(d), post(d)])
          for (const r of both) note(d, sentIn, r)
        } else note(d, sentIn, await post(d))
      }
    })
  )
  const elapsed = performance.now() - started
  await client.close()

  const all = [...outcomes.values()].flat()
  const failed = [...outcomes.entries()].filter(([, os]) => os.some((o) => !(o.status in OUTCOME_OF)))
  const byStatus = new Map<string, number>()
  for (const o of all) byStatus.set(String(o.status), (byStatus.get(String(o.status)) ?? 0) + 1)
  console.log(
    `HA: ${all.length} deliveries of ${TOTAL} webhooks in ${(elapsed / 1000).toFixed(1)} s through HAProxy; answers ${JSON.stringify(Object.fromEntries(byStatus))}; g1 SIGKILLed after ${KILL_AFTER} answers, reported down by HAProxy ${downAfterMs.toFixed(0)} ms later; ${failed.length} webhook(s) failed in the switch (${
      failed
        .slice(0, 20)
        .map(([id, os]) => `${id}: ${os.map((o) => `${o.status} ${JSON.stringify(o.body).slice(0, 200)}`).join(' / ')}`)
        .join(', ') || 'none'
    })`
  )

  if (failed.length > 0) console.log(lb.log().slice(0, 3000))
  expect(phase).toBe('after-down')
  // Nothing fails, not even what g1 held when it died: the balancer retries a request whose connection was refused or
  // closed without an answer on the survivor (retry-on empty-response), which a webhook allows, since its id is
  // answered once and then only repeated. Without that retry, up to a request per connection failed (7 to 19 of 16
  // connections, the retries having raced the health checks).
  expect(failed).toEqual([])
  expect(all.filter((o) => o.phase === 'after-down').length).toBeGreaterThan(1000)
  // Twin deliveries of one id got one answer between them.
  for (const os of outcomes.values())
    if (os.length === 2 && os.every((o) => o.status in OUTCOME_OF))
      expect(os[0]).toMatchObject({ ...os[1], phase: os[0]?.phase })

  // The service redelivers when it is unsure: what was sent in the switch, whichever replica decided it, gets the
  // answer it got the first time from the survivor.
  const retry = new Pool(lb.url, { connections: 4 })
  const inSwitch = deliveries.filter((d) => outcomes.get(d.webhookId)?.[0]?.phase === 'switching')
  expect(inSwitch.length).toBeGreaterThan(0)
  for (const d of inSwitch) {
    const res = await retry.request({
      path: '/webhooks',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-grid-signature': d.signature },
      body: d.body
    })
    const body = JSON.parse(await res.body.text()) as unknown
    expect({ status: res.statusCode, body }).toEqual({
      status: outcomes.get(d.webhookId)?.[0]?.status,
      body: outcomes.get(d.webhookId)?.[0]?.body
    })
  }
  await retry.close()

  // verify-log, as an operator runs it, on the same database: first, since it also chains the entries settlements
  // committed that no replica chained yet (the survivor's last ones, the killed replica's), as the next write would.
  const verify = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/gate/cli.ts'), 'verify-log'], {
    cwd: ROOT,
    env: { ...process.env, GATE_CONFIG: join(dir, 'gate.config.json'), GATE_DATABASE_URL: url },
    encoding: 'utf8'
  })
  expect(verify.stdout).toMatch(/The decision log is intact: \d+ rows/)
  expect(verify.status).toBe(0)
  const sql = new pg.Client({ connectionString: url })
  await sql.connect()
  try {
    expect((await sql.query('SELECT count(*)::int AS n FROM log_pending')).rows).toEqual([{ n: 0 }])
    const twice = await sql.query(
      `SELECT data::json->>'transactionId' AS t, count(*) FROM log WHERE kind = 'decision' GROUP BY 1 HAVING count(*) > 1`
    )
    expect(twice.rows).toEqual([])
    const logged = await sql.query<{ t: string; outcome: string }>(
      `SELECT data::json->>'transactionId' AS t, data::json->>'outcome' AS outcome FROM log WHERE kind = 'decision'`
    )
    const decisions = await sql.query<{ transaction_id: string; outcome: string }>(
      'SELECT transaction_id, outcome FROM decisions'
    )
    expect(decisions.rows.length).toBe(logged.rows.length)
    const inLog = new Map(logged.rows.map((r) => [r.t, r.outcome]))
    for (const r of decisions.rows) expect(inLog.get(r.transaction_id)).toBe(r.outcome)
    // Every answer a client read has its decision, with that outcome.
    let checked = 0
    for (const d of deliveries)
      for (const o of outcomes.get(d.webhookId) ?? [])
        if (typeof o.status === 'number' && o.status in OUTCOME_OF) {
          expect(inLog.get(d.transactionId)).toBe(OUTCOME_OF[o.status])
          checked++
        }
    expect(checked).toBeGreaterThanOrEqual(TOTAL)
    expect(inLog.size).toBe(TOTAL)
  } finally {
    await sql.end()
  }

  await g2.kill()
}, 240_000)
