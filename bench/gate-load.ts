/**
 * The load side of `npm run bench -- gate`: signed approval webhooks (signed by the Local sandbox's own signer), an
 * open-loop sender (each request leaves on its schedule whatever the answers before it are doing, so a slow answer
 * cannot hide the ones queued behind it) and a bounded closed-loop feeder (as fast as the gate answers).
 */
import { availableParallelism, loadavg } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Dispatcher } from 'undici'
import { signBody, type SigningKeyPair } from '../src/sandbox/state/webhook-signing'

export interface Signed {
  transactionId: string
  body: Buffer
  signature: string
}

/** The receiver fields every bench payment asks for; the gate finds them in its encrypted per-customer table. */
const REQUESTED_FIELDS = ['FULL_NAME', 'BIRTH_DATE']
export const CUSTOMERS = 50
export const customerId = (k: number): string => `Customer:bench-${k % CUSTOMERS}`

/** One `INCOMING_PAYMENT.PENDING` in the published shape, signed over its exact bytes. */
export function signedWebhook(keys: SigningKeyPair, id: string, sender: string, n: number): Signed {
  const transactionId = `Transaction:${id}`
  const body = Buffer.from(
    JSON.stringify({
      id: `Webhook:${id}`,
      type: 'INCOMING_PAYMENT.PENDING',
      timestamp: new Date().toISOString(),
      data: {
        id: transactionId,
        type: 'INCOMING',
        status: 'PENDING',
        customerId: customerId(n),
        platformCustomerId: `bench-${n % CUSTOMERS}`,
        source: { sourceType: 'UMA_ADDRESS', umaAddress: sender },
        destination: { destinationType: 'ACCOUNT', accountId: 'InternalAccount:bench' },
        receivedAmount: { amount: 1_000 + (n % 997) * 13, currency: { code: 'USD', decimals: 2 } },
        requestedReceiverCustomerInfoFields: REQUESTED_FIELDS.map((name) => ({ name, mandatory: true }))
      }
    })
  )
  return { transactionId, body, signature: signBody(keys, body) }
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[i] as number
}

interface Stats {
  n: number
  p50: number
  p99: number
  max: number
}

export function stats(values: number[]): Stats {
  const s = [...values].sort((a, b) => a - b)
  return { n: s.length, p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1] ?? NaN }
}

export const ms = (v: number): string => `${v.toFixed(2)} ms`
export const fmt = (s: Stats): string => `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)} (n = ${s.n})`
export const verdict = (met: boolean): string => (met ? 'met' : 'NOT MET')

/** Cores and the 1/5/15-minute load averages: other processes compete for the same cores. */
export function machine(): string {
  const [a = 0, b = 0, c = 0] = loadavg()
  return `${availableParallelism()} cores, load average ${a.toFixed(2)} / ${b.toFixed(2)} / ${c.toFixed(2)}`
}

export interface Answered {
  status: number
  /** From the request leaving to its whole answer read. */
  ms: number
}

/** POSTs one signed webhook and reads the whole answer. */
export async function postWebhook(pool: Dispatcher, path: string, w: Signed): Promise<Answered> {
  const t = performance.now()
  const res = await pool.request({
    path,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-grid-signature': w.signature },
    body: w.body,
    headersTimeout: 10_000,
    bodyTimeout: 10_000
  })
  await res.body.arrayBuffer()
  return { status: res.statusCode, ms: performance.now() - t }
}

export interface OpenLoopResult {
  latencies: number[]
  statuses: Map<string, number>
  /** How late each request left compared with its schedule (the sender's own event loop). */
  sendLag: number[]
  elapsedMs: number
}

/** Starts `run(i)` for i < count at `rate` per second on schedule, never waiting for one to finish first. */
export async function onSchedule(
  count: number,
  rate: number,
  run: (i: number) => Promise<void>
): Promise<{ sendLag: number[]; elapsedMs: number }> {
  const interval = 1000 / rate
  const sendLag: number[] = []
  const started: Promise<void>[] = []
  const start = performance.now() + 10
  for (let i = 0; i < count; i++) {
    const due = start + i * interval
    const wait = due - performance.now()
    if (wait > 0.5) await sleep(wait)
    sendLag.push(Math.max(0, performance.now() - due))
    started.push(run(i))
  }
  await Promise.all(started)
  return { sendLag, elapsedMs: performance.now() - start }
}

/** Sends `bodies` at `rate` per second on schedule (open loop); each latency runs from its request leaving. */
export async function openLoop(
  pool: Dispatcher,
  path: string,
  bodies: Signed[],
  rate: number
): Promise<OpenLoopResult> {
  const latencies: number[] = []
  const statuses = new Map<string, number>()
  const count = (key: string): void => void statuses.set(key, (statuses.get(key) ?? 0) + 1)
  const { sendLag, elapsedMs } = await onSchedule(bodies.length, rate, (i) =>
    postWebhook(pool, path, bodies[i] as Signed).then(
      (a) => {
        latencies.push(a.ms)
        count(String(a.status))
      },
      (err: unknown) => count(err instanceof Error ? err.name : 'error')
    )
  )
  return { latencies, statuses, sendLag, elapsedMs }
}

/** Feeds `total` webhooks made by `make`, `concurrency` at a time, as fast as they are answered, until `deadline`. */
export async function closedLoop(
  pool: Dispatcher,
  path: string,
  total: number,
  concurrency: number,
  deadline: number,
  make: (i: number) => Signed
): Promise<{ sent: number; statuses: Map<string, number>; elapsedMs: number }> {
  const statuses = new Map<string, number>()
  let next = 0
  const start = performance.now()
  const worker = async (): Promise<void> => {
    while (next < total && performance.now() < deadline) {
      const i = next++
      const key = await postWebhook(pool, path, make(i)).then(
        (a) => String(a.status),
        (err: unknown) => (err instanceof Error ? err.name : 'error')
      )
      statuses.set(key, (statuses.get(key) ?? 0) + 1)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return { sent: next, statuses, elapsedMs: performance.now() - start }
}

export const statusList = (m: Map<string, number>): string =>
  [...m.entries()].map(([k, v]) => `${k}: ${v.toLocaleString('en-US')}`).join(', ')

/** `--name 10` or `--name=10`, a positive integer (underscores allowed), else `fallback`. */
export function option(name: string, fallback: number): number {
  const args = process.argv
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`))
  if (i < 0) return fallback
  const raw = args[i]!.includes('=') ? args[i]!.split('=')[1] : args[i + 1]
  const n = Number((raw ?? '').replace(/_/g, ''))
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} takes a positive whole number`)
  return n
}
