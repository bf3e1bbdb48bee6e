/**
 * `npm run bench -- gate-pg`: issue 30's "the same with PostgreSQL" row. Webhook received → answer sent at 200
 * webhooks/s, open loop, each approved by a rule with sealed receiver information, against four receivers on one
 * throw-away PostgreSQL 15 cluster with fsync on (what a deployment pays; tests run theirs without):
 * - the floor (bench/gate-pg-floor.ts): a bare receiver plus one committed INSERT per webhook, as the gate commits;
 * - one gate (the build's out/main/gate.js under plain node with production's flags, as `npm run bench -- gate` and
 *   the Dockerfile run it, GATE_DATABASE_URL);
 * - two floors, and two gate replicas, each pair behind HAProxy (round robin, /healthz checks).
 * All four run at once and the load goes to one at a time in slices, in turn (`--slice`, default 10 s, until each had
 * `--seconds`, default 60), so gate/floor compares the same minutes of the same machine. Latency is timed at the
 * client (undici keep-alive pool on 127.0.0.1); each slice's p99 is printed with the 1-minute load and what the
 * cluster did meanwhile (checkpoints, WAL flushes, lock waits over 20 ms). Short run: `--seconds 20 --slice 5`.
 * BENCH_PG_LOG=<file> keeps the cluster's log, with every statement over 20 ms and autovacuum's runs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { Pool } from 'undici'
import { newSigningKeyPair, type SigningKeyPair } from '../src/sandbox/state/webhook-signing'
import { setUpApprovingGate, startGateReplica } from '../tests/support/gate-replica'
import { BUILT_GATE, buildGate, EXTRA_GATE_FLAGS, GATE_NODE_FLAGS, startPgFloor } from './gate-procs'
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
/**
 * The throw-away cluster's settings beyond startPostgres's: lock waits over 20 ms logged (deadlock_timeout is also
 * when they are reported), WAL flushes timed; durability untouched (fsync and synchronous_commit as deployed).
 */
const BENCH_CLUSTER_SETTINGS = [
  'log_lock_waits=on',
  'deadlock_timeout=20ms',
  'track_wal_io_timing=on',
  ...(process.env['BENCH_PG_LOG'] ? ['log_min_duration_statement=20ms', 'log_autovacuum_min_duration=0'] : [])
]

const pool = (url: string): Pool => new Pool(url, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 })

/** A fresh database with the bench's operator, approving rule and every customer's sealed receiver information. */
async function prepare(db: TestPostgres, key: Buffer): Promise<string> {
  const url = await db.createDatabase()
  await setUpApprovingGate(url, {
    operator: 'Bench',
    approveSender: APPROVE_SENDER,
    receiverInfoKey: key,
    receivers: Array.from({ length: CUSTOMERS }, (_, k) => ({
      customerId: customerId(k),
      info: { FULL_NAME: `Bench Person ${k}`, BIRTH_DATE: '1990-01-01' }
    }))
  })
  return url
}

/** One receiver under test: its pool, and every answer of its slices. */
interface Target {
  label: string
  tag: string
  pool: Pool
  latencies: number[]
  statuses: Map<string, number>
  sendLag: number[]
  /** Per slice: its p99 and what the cluster did during it. */
  slices: string[]
}

/** The cluster's counters a slice is read against: checkpoints, WAL flushes and their time (track_wal_io_timing). */
async function clusterCounters(db: TestPostgres): Promise<Record<string, number>> {
  const c = new pg.Client({ connectionString: db.url })
  await c.connect()
  try {
    const r = await c.query<Record<string, string>>(
      `SELECT b.checkpoints_timed + b.checkpoints_req AS checkpoints, w.wal_sync, w.wal_sync_time, w.wal_buffers_full,
         w.wal_fpi FROM pg_stat_bgwriter b, pg_stat_wal w`
    )
    return Object.fromEntries(Object.entries(r.rows[0] ?? {}).map(([k, v]) => [k, Number(v)]))
  } finally {
    await c.end()
  }
}

const LOCK_WAIT = /still waiting for \w+Lock/g

/** Sends one slice of the load to `t`, noting its answers and what the cluster did meanwhile. */
async function slice(t: Target, db: TestPostgres, keys: SigningKeyPair, round: number, rate: number, seconds: number) {
  const bodies = Array.from({ length: rate * seconds }, (_, i) =>
    signedWebhook(keys, `m-${t.tag}-${round}-${i}`, APPROVE_SENDER, i)
  )
  const before = await clusterCounters(db)
  const logFrom = db.log().length
  const r = await openLoop(t.pool, '/webhooks', bodies, rate)
  const after = await clusterCounters(db)
  const d = (k: string): number => (after[k] ?? 0) - (before[k] ?? 0)
  const waits = db.log().slice(logFrom).match(LOCK_WAIT)?.length ?? 0
  t.latencies.push(...r.latencies)
  t.sendLag.push(...r.sendLag)
  for (const [k, v] of r.statuses) t.statuses.set(k, (t.statuses.get(k) ?? 0) + v)
  const flushes = d('wal_sync')
  const notes = [
    d('checkpoints') > 0 ? 'checkpoint' : '',
    waits > 0 ? `${waits} lock waits > 20 ms` : '',
    flushes > 0 ? `${flushes} WAL flushes, ${(d('wal_sync_time') / flushes).toFixed(1)} ms each` : '',
    d('wal_buffers_full') > 0 ? `WAL buffers full ${d('wal_buffers_full')}×` : ''
  ].filter((n) => n !== '')
  t.slices.push(
    `${ms(stats(r.latencies).p99)}${notes.length ? ` (${notes.join(', ')})` : ''} @ ${loadavg()[0]?.toFixed(1)}`
  )
}

function report(t: Target, floor?: Target): void {
  const s = stats(t.latencies)
  const total = [...t.statuses.values()].reduce((a, b) => a + b, 0)
  const all = t.statuses.get('200') === total
  const vsFloor = floor ? `; /floor p99 ${(s.p99 / stats(floor.latencies).p99).toFixed(2)}×` : ''
  console.log(
    `  ${t.label}: ${fmt(s)}; answers ${statusList(t.statuses)}; sends late by p99 ${ms(stats(t.sendLag).p99)}`
  )
  console.log(`    p99 per slice (load 1 min): ${t.slices.join('; ')}`)
  if (floor || t.tag === 'one' || t.tag === 'two')
    console.log(
      `    p99 ${ms(s.p99)} (target ≤ ${TARGET_P99_MS} ms: ${verdict(all && s.p99 <= TARGET_P99_MS)})${vsFloor}${all ? '' : '; NOT every webhook was approved'}`
    )
}

/**
 * Every receiver runs at once, idle but for its own slices: the load goes to one of them at a time, `slice` seconds
 * each, in turn, for `seconds` each in all, so every figure and every ratio between them comes from the same minutes
 * of the same machine (other processes' load, the cluster's checkpoints, the disk), not from runs minutes apart.
 */
export async function runGatePgBench(): Promise<void> {
  const seconds = option('seconds', 60)
  const sliceSeconds = Math.min(seconds, option('slice', 10))
  const rounds = Math.ceil(seconds / sliceSeconds)
  const rate = option('rate', 200)
  const keys = newSigningKeyPair()
  const key = Buffer.alloc(32, 0x42)
  buildGate()
  const built = [...GATE_NODE_FLAGS, ...EXTRA_GATE_FLAGS, BUILT_GATE]
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-bench-gate-pg-'))
  console.log(`Gate on PostgreSQL (issue 30): machine ${machine()} at the start`)
  const db = await startPostgres({ durable: true, settings: BENCH_CLUSTER_SETTINGS })
  const stops: (() => Promise<void>)[] = []
  const targets: Target[] = []
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
    const behindHaproxy = async (addresses: string[]): Promise<string> => {
      const lb = await startHaproxy({
        backends: addresses.map((address, i) => ({ name: `g${i + 1}`, address })),
        healthPath: '/healthz'
      })
      stops.push(() => lb.stop())
      return lb.url
    }
    const floorDb = await db.createDatabase()
    const floor = await startPgFloor(keys.publicKeyPem, floorDb)
    const floorPair = await Promise.all([0, 1].map(() => startPgFloor(keys.publicKeyPem, floorDb)))
    stops.push(...[floor, ...floorPair].map((f) => () => f.stop()))
    const one = await startGateReplica(dir, 'pg-1', env(await prepare(db, key)), built)
    const pairUrl = await prepare(db, key)
    const pair = await Promise.all(['pg-a', 'pg-b'].map((n) => startGateReplica(dir, n, env(pairUrl), built)))
    stops.push(...[one, ...pair].map((r) => () => r.kill()))
    const target = (label: string, tag: string, url: string): Target => {
      const t: Target = { label, tag, pool: pool(url), latencies: [], statuses: new Map(), sendLag: [], slices: [] }
      targets.push(t)
      return t
    }
    const tFloor = target('floor: bare receiver + one PostgreSQL INSERT committed per webhook', 'floor', floor.url)
    const tOne = target('one gate on PostgreSQL, rule approve with sealed receiver info', 'one', one.url)
    const tFloor2 = target(
      'floor ×2 behind HAProxy (the same floor, two processes)',
      'floor2',
      await behindHaproxy(floorPair.map((f) => f.url.replace(/^http:\/\//, '')))
    )
    const tTwo = target(
      'two replicas on one PostgreSQL behind HAProxy',
      'two',
      await behindHaproxy(pair.map((r) => r.address))
    )
    console.log(
      `webhook received → answer sent, ${rate} webhooks/s, open loop, PostgreSQL 15 (fsync on), ${rounds} rounds of ${sliceSeconds} s per receiver, in turn:`
    )
    for (const t of targets) {
      const warm = Array.from({ length: rate * WARMUP_S }, (_, i) =>
        signedWebhook(keys, `w-${t.tag}-${i}`, APPROVE_SENDER, i)
      )
      await openLoop(t.pool, '/webhooks', warm, rate)
    }
    for (let round = 0; round < rounds; round++) {
      // Each round starts one receiver later, so none always follows the same one.
      for (let k = 0; k < targets.length; k++) {
        await slice(targets[(round + k) % targets.length] as Target, db, keys, round, rate, sliceSeconds)
      }
    }
    console.log(`  at the end: ${machine()}`)
    report(tFloor)
    report(tOne, tFloor)
    report(tFloor2)
    report(tTwo, tFloor2)
  } finally {
    const keep = process.env['BENCH_PG_LOG']
    if (keep) writeFileSync(keep, db.log())
    for (const t of targets) await t.pool.close()
    for (const stop of stops.reverse()) await stop()
    await db.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
