/**
 * `npm run bench -- gate-pg`: issue 30's "the same with PostgreSQL" row. Webhook received → answer sent at 200
 * webhooks/s for 60 s, open loop, each approved by a rule with sealed receiver information, against:
 * - one gate (the build's out/main/gate.js under plain node with production's flags, as `npm run bench -- gate` and
 *   the Dockerfile run it, GATE_DATABASE_URL) on a throw-away PostgreSQL 15 cluster with fsync on (what a deployment
 *   pays; tests run theirs without);
 * - two such replicas behind HAProxy (round robin, /healthz checks), the deployment the PostgreSQL store is for.
 * Latency is timed at the client (undici keep-alive pool on 127.0.0.1), printed beside the machine's cores and load.
 * `--seconds` and `--rate` shorten a run, as for `gate`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Pool } from 'undici'
import { hashToken, newToken } from '../src/gate/domain/operators'
import { ReceiverInfoSeal } from '../src/gate/domain/receiver-info'
import { PgGateStore } from '../src/gate/store/pg-store'
import { newSigningKeyPair, type SigningKeyPair } from '../src/sandbox/webhooks/signing'
import { startGateReplica, type GateReplica } from '../tests/support/gate-replica'
import { BUILT_GATE, buildGate, EXTRA_GATE_FLAGS, GATE_NODE_FLAGS } from './gate-procs'
import { startHaproxy } from '../tests/support/haproxy'
import { startPostgres, type TestPostgres } from '../tests/support/postgres'
import {
  CUSTOMERS,
  customerId,
  fmt,
  machine,
  ms,
  openLoop,
  option,
  signedWebhook,
  stats,
  statusList,
  verdict
} from './gate-load'

const APPROVE_SENDER = '$approve@bench.example'
const TARGET_P99_MS = 50
const WARMUP_S = 2

/** A fresh database with the bench's operator, approving rule and every customer's sealed receiver information. */
async function prepare(db: TestPostgres, key: Buffer): Promise<string> {
  const url = await db.createDatabase()
  const store = await PgGateStore.open({ url, now: Date.now })
  try {
    await store.addOperator('Bench', hashToken(newToken()))
    const base = { maxAmountByCurrency: { USD: 10_000_000 }, requireKycApproved: false, fallback: 'reject' as const }
    await store.putRules(
      {
        rules: [{ ...base, name: 'bench-approve', allowedSenders: [APPROVE_SENDER], action: 'approve' }],
        otherwise: 'reject',
        otherwiseFallback: 'reject'
      },
      'operator:Bench'
    )
    const seal = new ReceiverInfoSeal(key)
    for (let k = 0; k < CUSTOMERS; k++) {
      const info = { FULL_NAME: `Bench Person ${k}`, BIRTH_DATE: '1990-01-01' }
      await store.putReceiverInfo(customerId(k), seal.seal(customerId(k), info), 'operator:Bench')
    }
  } finally {
    await store.close()
  }
  return url
}

async function measure(label: string, url: string, keys: SigningKeyPair, tag: string, rate: number, seconds: number) {
  const hooks = new Pool(url, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 })
  try {
    const warm = Array.from({ length: rate * WARMUP_S }, (_, i) =>
      signedWebhook(keys, `w-${tag}-${i}`, APPROVE_SENDER, i)
    )
    await openLoop(hooks, '/webhooks', warm, rate)
    const bodies = Array.from({ length: rate * seconds }, (_, i) =>
      signedWebhook(keys, `m-${tag}-${i}`, APPROVE_SENDER, i)
    )
    const r = await openLoop(hooks, '/webhooks', bodies, rate)
    const s = stats(r.latencies)
    const all = r.statuses.get('200') === bodies.length
    console.log(
      `  ${label}: ${fmt(s)}; answers ${statusList(r.statuses)}; ${(r.elapsedMs / 1000).toFixed(1)} s at ${rate}/s, sends late by p99 ${ms(stats(r.sendLag).p99)}; ${machine()}`
    )
    console.log(
      `  p99 ${ms(s.p99)} (target ≤ ${TARGET_P99_MS} ms: ${verdict(all && s.p99 <= TARGET_P99_MS)})${all ? '' : '; NOT every webhook was approved'}`
    )
  } finally {
    await hooks.close()
  }
}

export async function runGatePgBench(): Promise<void> {
  const seconds = option('seconds', 60)
  const rate = option('rate', 200)
  const keys = newSigningKeyPair()
  const key = Buffer.alloc(32, 0x42)
  buildGate()
  const built = [...GATE_NODE_FLAGS, ...EXTRA_GATE_FLAGS, BUILT_GATE]
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-bench-gate-pg-'))
  console.log(`Gate on PostgreSQL (issue 30): machine ${machine()} at the start`)
  const db = await startPostgres({ durable: true })
  const replicas: GateReplica[] = []
  try {
    const env = (url: string) => ({
      GATE_DATABASE_URL: url,
      GATE_WEBHOOK_PUBLIC_KEY: keys.publicKeyPem,
      GATE_SERVICE_BASE_URL: 'http://127.0.0.1:9/unused',
      GATE_SERVICE_TOKEN_ID: 'bench',
      GATE_SERVICE_CLIENT_SECRET: 'bench',
      GATE_RECEIVER_INFO_KEY: key.toString('hex'),
      GATE_LOG_LEVEL: 'info'
    })
    console.log(
      `webhook received → answer sent, ${rate} webhooks/s for ${seconds} s, open loop, PostgreSQL 15 (fsync on):`
    )
    const one = await startGateReplica(dir, 'pg-1', env(await prepare(db, key)), built)
    replicas.push(one)
    await measure('one gate on PostgreSQL, rule approve with sealed receiver info', one.url, keys, 'one', rate, seconds)
    await one.kill()

    const url = await prepare(db, key)
    const pair = await Promise.all(['pg-a', 'pg-b'].map((n) => startGateReplica(dir, n, env(url), built)))
    replicas.push(...pair)
    const lb = await startHaproxy({
      backends: pair.map((r, i) => ({ name: `g${i + 1}`, address: r.address })),
      healthPath: '/healthz'
    })
    try {
      await measure('two replicas on one PostgreSQL behind HAProxy', lb.url, keys, 'two', rate, seconds)
    } finally {
      await lb.stop()
    }
  } finally {
    for (const r of replicas) await r.kill()
    await db.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
