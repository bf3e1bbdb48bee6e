/**
 * `npm run bench -- gate`: the approval gate's figures against issue 30's targets, printed beside the machine's cores
 * and load (other processes compete for the same cores). Defaults are the issue's; for a quick check:
 * `npm run bench -- gate --seconds 5 --decisions 5000 --prompts 100`.
 *
 * - webhook received → answer sent: 200 signed approval webhooks/s for 60 s (open loop), each approved by a rule with
 *   receiver information from the gate's encrypted table (a real decision and store write, SQLite), against the same
 *   bodies sent by the same generator to a bare `node:http` receiver that only verifies the signature, and to the floor:
 *   that receiver plus one SQLite commit per webhook (what no durable gate can skip; bench/gate-bare.ts), once with the
 *   gate's checkpoint thread and once with SQLite's own checkpoints. Latency is measured at the client (keep-alive
 *   undici pool), from a request leaving to its answer read; the gate's event-loop delay during the run is its own.
 * - prompt → shown: a rule that asks a person; from the webhook's 202 read by the client to the `prompt` event's
 *   arrival in a connected Paydesk (main's own gate follower, bench/gate-paydesk.ts, where the entry is relayed to the
 *   window).
 * - operator click → approve sent: from the operator's POST to the gate's approve arriving at a stub Payments API.
 * - RSS of the gate's own process after `--decisions` rule decisions, fed as fast as it answers (8 in flight).
 *
 * The gate runs as production runs it, built (the bench builds first) under plain node; the bare receiver under
 * `node --import tsx`, its loader idle once the file is compiled. Each is a child process; everything is on
 * 127.0.0.1, bounded in count and time, and stops by itself.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Pool } from 'undici'
import { newSigningKeyPair, type SigningKeyPair } from '../src/sandbox/state/webhook-signing'
import {
  CUSTOMERS,
  closedLoop,
  customerId,
  fmt,
  machine,
  ms,
  onSchedule,
  openLoop,
  option,
  postWebhook,
  signedWebhook,
  stats,
  statusList,
  verdict,
  type OpenLoopResult,
  type Signed
} from './gate-load'
import { buildGate, cpuMsOf, rssOf, startBare, startGate, startStubService, type GateChild } from './gate-procs'
import { openEventStream } from './gate-paydesk'

const APPROVE_SENDER = '$approve@bench.example'
const ASK_SENDER = '$ask@bench.example'
const TARGET = { answerP99: 20, ratio: 2, promptP99: 250, clickP99: 100, rssMb: 150 }
const WARMUP_S = 2
const WAIT_MS = 5_000
const RSS_PHASE_MS = 15 * 60_000

function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${WAIT_MS} ms`)), WAIT_MS)
  })
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer))
}

async function operatorCall(ops: Pool, token: string, method: 'PUT' | 'POST', path: string, body: unknown) {
  const res = await ops.request({
    path,
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body)
  })
  const text = await res.body.text()
  return { status: res.statusCode, text }
}

/** Rules by sender (one approves, one asks) and every bench customer's receiver information, through the API. */
export async function configure(gate: GateChild, ops: Pool): Promise<void> {
  const base = { maxAmountByCurrency: { USD: 10_000_000 }, requireKycApproved: false, fallback: 'reject' }
  const rules = {
    rules: [
      { ...base, name: 'bench-approve', allowedSenders: [APPROVE_SENDER], action: 'approve' },
      { ...base, name: 'bench-ask', allowedSenders: [ASK_SENDER], action: 'ask' }
    ],
    otherwise: 'reject',
    otherwiseFallback: 'reject'
  }
  const r = await operatorCall(ops, gate.token, 'PUT', '/operator/rules', rules)
  if (r.status !== 200) throw new Error(`PUT /operator/rules answered ${r.status}: ${r.text}`)
  for (let k = 0; k < CUSTOMERS; k++) {
    const info = { FULL_NAME: `Bench Person ${k}`, BIRTH_DATE: '1990-01-01' }
    const c = await operatorCall(ops, gate.token, 'PUT', `/operator/receiver-info/${customerId(k)}`, { info })
    if (c.status !== 204) throw new Error(`PUT /operator/receiver-info answered ${c.status}: ${c.text}`)
  }
}

interface Floor {
  db: string
  /** Where WAL checkpoints run: the gate's thread, or SQLite's own inside commits. */
  checkpoints: 'thread' | 'sqlite'
}

/**
 * The bare receiver, or the floor (bench/gate-bare.ts). The mode goes through the environment the child inherits
 * (startBare passes its own on top), set only while it starts.
 */
async function startBaseline(publicKeyPem: string, floor?: Floor) {
  if (floor === undefined) return startBare(publicKeyPem)
  process.env['BENCH_FLOOR_DB'] = floor.db
  process.env['BENCH_FLOOR_CHECKPOINTS'] = floor.checkpoints
  try {
    return await startBare(publicKeyPem)
  } finally {
    delete process.env['BENCH_FLOOR_DB']
    delete process.env['BENCH_FLOOR_CHECKPOINTS']
  }
}

const pools = (url: string) => ({
  hooks: new Pool(url, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 }),
  ops: new Pool(url, { connections: 8, pipelining: 1 })
})

/** The gate's own /metrics (Prometheus text), each sample line's name and labels → value. */
async function metricsOf(ops: Pool): Promise<Map<string, number>> {
  const res = await ops.request({ path: '/metrics', method: 'GET' })
  const out = new Map<string, number>()
  for (const line of (await res.body.text()).split('\n')) {
    const m = /^(\S+) (\S+)$/.exec(line)
    if (m) out.set(m[1] as string, Number(m[2]))
  }
  return out
}

/** Share of the webhooks answered between two /metrics reads that the gate itself timed at ≤ 20 ms. */
function serverWithin20ms(before: Map<string, number>, after: Map<string, number>): string {
  const delta = (k: string): number => (after.get(k) ?? 0) - (before.get(k) ?? 0)
  const all = delta('gate_webhook_answer_seconds_count')
  const fast = delta('gate_webhook_answer_seconds_bucket{le="0.02"}')
  return all > 0 ? `${((fast / all) * 100).toFixed(1)}% of ${all.toLocaleString('en-US')}` : 'none'
}

/**
 * The gate's event-loop delay since the previous /metrics read: its stalls. prom-client's samples come every 10 ms and
 * each includes that interval, so an idle loop reads ~10 ms.
 */
function loopDelay(m: Map<string, number>): string {
  const at = (k: string): string => ms((m.get(`gate_nodejs_eventloop_lag_${k}_seconds`) ?? NaN) * 1000)
  return `delay p50 ${at('p50')}, p99 ${at('p99')}, max ${at('max')} (each sample includes a 10 ms interval)`
}

/** Runs the measured load and notes the receiver's own CPU time per webhook (what it spent, whatever it waited on). */
async function measure(pid: number | undefined, load: () => Promise<OpenLoopResult>) {
  const cpu0 = cpuMsOf(pid ?? -1)
  const r = await load()
  return { ...r, cpuPerWebhook: (cpuMsOf(pid ?? -1) - cpu0) / r.latencies.length }
}

function printLoad(name: string, r: OpenLoopResult & { cpuPerWebhook: number }, rate: number): void {
  const lag = stats(r.sendLag)
  console.log(
    `  ${name}: ${fmt(stats(r.latencies))}; answers ${statusList(r.statuses)}; ${(r.elapsedMs / 1000).toFixed(1)} s at ${rate}/s, sends late by p99 ${ms(lag.p99)}; its CPU ${r.cpuPerWebhook.toFixed(2)} ms per webhook; ${machine()}`
  )
}

export async function runGateBench(): Promise<void> {
  const seconds = option('seconds', 60)
  const rate = option('rate', 200)
  const decisions = option('decisions', 100_000)
  const promptCount = option('prompts', 500)
  const promptRate = option('prompt-rate', 20)
  buildGate()
  const keys = newSigningKeyPair()
  const stub = await startStubService()
  const dirs: string[] = []
  const dir = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'paydesk-bench-gate-'))
    dirs.push(d)
    return d
  }
  console.log(`Gate (issue 30): machine ${machine()} at the start`)
  try {
    // The same signed bodies for both receivers; warm-ups have their own ids so every measured one is new to the gate.
    const measured = Array.from({ length: rate * seconds }, (_, i) => signedWebhook(keys, `m-${i}`, APPROVE_SENDER, i))
    const warmup = (tag: string): Signed[] =>
      Array.from({ length: rate * WARMUP_S }, (_, i) => signedWebhook(keys, `w-${tag}-${i}`, APPROVE_SENDER, i))

    console.log(`webhook received → answer sent, ${rate} webhooks/s for ${seconds} s, open loop:`)
    const baseline = async (tag: string, floor?: Floor) => {
      const child = await startBaseline(keys.publicKeyPem, floor)
      try {
        const { hooks } = pools(child.url)
        await openLoop(hooks, '/webhooks', warmup(tag), rate)
        const r = await measure(child.proc.pid, () => openLoop(hooks, '/webhooks', measured, rate))
        await hooks.close()
        return r
      } finally {
        await child.stop()
      }
    }
    const bareRun = await baseline('bare')
    printLoad('bare node:http receiver (signature only)', bareRun, rate)
    const floorRun = await baseline('floor', { db: join(dir(), 'floor.db'), checkpoints: 'thread' })
    printLoad('floor: bare + one SQLite insert and commit per webhook (as the gate commits)', floorRun, rate)
    const ownRun = await baseline('floor-own', { db: join(dir(), 'floor-own.db'), checkpoints: 'sqlite' })
    printLoad("the same floor with SQLite's own checkpoints, inside commits (as the gate did before)", ownRun, rate)
    const floorP99 = stats(floorRun.latencies).p99
    const bareP99 = stats(bareRun.latencies).p99
    console.log(
      `  floor/bare p99 ${(floorP99 / bareP99).toFixed(2)}× (what one durable write per webhook costs against ${TARGET.ratio}×)`
    )

    const gate = await startGate(dir(), keys.publicKeyPem, stub.url)
    try {
      const { hooks, ops } = pools(gate.url)
      await configure(gate, ops)
      const stream = await openEventStream(gate.url, gate.token)
      await openLoop(hooks, '/webhooks', warmup('gate'), rate)
      // Reading /metrics also resets prom-client's event-loop delay histogram: the second read covers the run only.
      const metrics0 = await metricsOf(ops)
      const gateRun = await measure(gate.proc.pid, () => openLoop(hooks, '/webhooks', measured, rate))
      const metrics1 = await metricsOf(ops)
      printLoad('gate, SQLite, rule approve with sealed receiver info, one operator stream connected', gateRun, rate)
      const g = stats(gateRun.latencies)
      const b = stats(bareRun.latencies)
      const allApproved = gateRun.statuses.get('200') === measured.length
      console.log(
        `  gate p99 ${ms(g.p99)} (target ≤ ${TARGET.answerP99} ms: ${verdict(allApproved && g.p99 <= TARGET.answerP99)}); gate/bare p99 ${(g.p99 / b.p99).toFixed(2)}× (target ≤ ${TARGET.ratio}×: ${verdict(g.p99 / b.p99 <= TARGET.ratio)}); gate/floor p99 ${(g.p99 / floorP99).toFixed(2)}×${allApproved ? '' : '; NOT every webhook was approved'}`
      )
      console.log(
        `  answered within 20 ms as the gate itself times them (gate_webhook_answer_seconds, from the request read to the answer sent): ${serverWithin20ms(metrics0, metrics1)}`
      )
      console.log(`  the gate's event loop during the run: ${loopDelay(metrics1)}`)

      // Prompts: a rule that asks; the operator approves as soon as the prompt shows.
      const shown: number[] = []
      const clicked: number[] = []
      const failures = new Map<string, number>()
      const fail = (why: string): void => void failures.set(why, (failures.get(why) ?? 0) + 1)
      let early = 0
      const run = await onSchedule(promptCount, promptRate, async (i) => {
        const w = signedWebhook(keys, `p-${i}`, ASK_SENDER, i)
        try {
          const a = await postWebhook(hooks, '/webhooks', w)
          const answeredAt = performance.now()
          if (a.status !== 202) return fail(`webhook answered ${a.status}`)
          const at = await within(stream.promptShown(w.transactionId), 'prompt event')
          if (at < answeredAt) early++
          shown.push(Math.max(0, at - answeredAt))
          const click = performance.now()
          const reply = operatorCall(ops, gate.token, 'POST', `/operator/prompts/${w.transactionId}`, {
            action: 'approve'
          })
          // Read below; a refused command leaves no approve to wait for, and its rejection must not go unhandled.
          reply.catch(() => undefined)
          clicked.push((await within(stub.approveArrived(w.transactionId), 'approve at the service')) - click)
          const r = await reply
          if (r.status !== 200) fail(`approve command answered ${r.status}`)
        } catch (err) {
          fail(err instanceof Error ? err.message : String(err))
        }
      })
      const s = stats(shown)
      const c = stats(clicked)
      const problems = failures.size > 0 ? `; failures: ${statusList(failures)}` : ''
      console.log(
        `prompts: ${promptCount} at ${promptRate}/s in ${(run.elapsedMs / 1000).toFixed(1)} s, one operator stream connected${problems}; ${machine()}`
      )
      console.log(
        `  prompt → shown in a connected Paydesk (its main's gate follower): ${fmt(s)}; target p99 ≤ ${TARGET.promptP99} ms: ${verdict(s.p99 <= TARGET.promptP99 && failures.size === 0)}${early > 0 ? ` (${early} arrived before the 202 was read, counted as 0)` : ''}`
      )
      console.log(
        `  operator click → approve at the service (stub Payments API): ${fmt(c)}; target p99 ≤ ${TARGET.clickP99} ms: ${verdict(c.p99 <= TARGET.clickP99 && failures.size === 0)}`
      )
      await stream.close()
      await hooks.close()
      await ops.close()
    } finally {
      await gate.stop()
    }

    await rssAfterDecisions(keys, stub.url, dir(), decisions)
    console.log('the same with PostgreSQL (target p99 ≤ 50 ms): `npm run bench -- gate-pg`')
  } finally {
    await stub.close()
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  }
}

async function rssAfterDecisions(keys: SigningKeyPair, stubUrl: string, d: string, decisions: number): Promise<void> {
  const gate = await startGate(d, keys.publicKeyPem, stubUrl)
  try {
    const { hooks, ops } = pools(gate.url)
    await configure(gate, ops)
    const stream = await openEventStream(gate.url, gate.token)
    const before = rssOf(gate.proc.pid ?? -1)
    const cpu0 = cpuMsOf(gate.proc.pid ?? -1)
    const fed = await closedLoop(hooks, '/webhooks', decisions, 8, performance.now() + RSS_PHASE_MS, (i) =>
      signedWebhook(keys, `r-${i}`, APPROVE_SENDER, i)
    )
    const after = rssOf(gate.proc.pid ?? -1)
    const heap = (await metricsOf(ops)).get('gate_nodejs_heap_size_used_bytes') ?? NaN
    const cpu = (cpuMsOf(gate.proc.pid ?? -1) - cpu0) / fed.sent
    const approved = fed.statuses.get('200') ?? 0
    console.log(
      `gate RSS after decisions: ${approved.toLocaleString('en-US')} rule approvals of ${decisions.toLocaleString('en-US')} asked (answers ${statusList(fed.statuses)}) in ${(fed.elapsedMs / 1000).toFixed(1)} s (${((fed.sent / fed.elapsedMs) * 1000).toFixed(0)}/s, 8 in flight, gate CPU ${cpu.toFixed(2)} ms each, one operator stream connected); ${machine()}`
    )
    if (!before || !after) return console.log('  RSS: not measured (no /proc on this system)')
    console.log(
      `  RSS ${after.rss.toFixed(0)} MB (peak ${after.peak.toFixed(0)} MB; ${before.rss.toFixed(0)} MB once configured, before the first webhook; JS heap in use ${(heap / 1e6).toFixed(0)} MB); target ≤ ${TARGET.rssMb} MB: ${verdict(approved === decisions && after.rss <= TARGET.rssMb)}`
    )
    await stream.close()
    await hooks.close()
    await ops.close()
  } finally {
    await gate.stop()
  }
}
