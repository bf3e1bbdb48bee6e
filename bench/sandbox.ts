/**
 * Sandbox section of `npm run bench`: GET /transactions throughput and latency with a generated history of 100,000 and
 * 1,000,000 transactions (`--sandbox-sizes=100000` picks sizes). Targets (issue 3, item 9): at least 2,000 requests/s
 * and p99 under 10 ms on a 2-core machine. Then the figures of bench/sandbox-scale.ts (persistence, event loop).
 *
 * The history comes from the generator (`--generate-transactions`), then a keep-alive undici pool drives a mix of list
 * requests: first pages in both orders, next pages by cursor, and the spec 4.9 filters (customer, status, type, dates).
 */
import { availableParallelism, loadavg } from 'node:os'
import { Pool } from 'undici'
import { createSandboxServer } from '../src/sandbox/server'
import { runSandboxScaleBench } from './sandbox-scale'

const DEFAULT_SIZES = [100_000, 1_000_000]
const CONCURRENCY = 8
const WARMUP_MS = 1_000
const MEASURE_MS = 5_000
const TARGET_RPS = 2_000
const TARGET_P99_MS = 10

/** `--sandbox-sizes=100000,1000000` (default both). */
function benchSizes(flag: string, fallback: number[]): number[] {
  const arg = process.argv.find((a) => a.startsWith(`--${flag}=`))
  if (!arg) return fallback
  return arg
    .slice(flag.length + 3)
    .split(',')
    .map((v) => Number(v.replace(/_/g, '')))
    .filter((n) => Number.isInteger(n) && n > 0)
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[i] as number
}

export async function runSandboxBench(): Promise<void> {
  for (const size of benchSizes('sandbox-sizes', DEFAULT_SIZES)) await runListBench(size)
  await runSandboxScaleBench()
}

async function runListBench(size: number): Promise<void> {
  const t0 = performance.now()
  const server = await createSandboxServer({
    memory: true,
    tokenId: 'bench',
    clientSecret: 'bench',
    generateTransactions: size,
    log: () => undefined
  })
  const loadMs = performance.now() - t0
  const { store } = server.state
  const total = store.transactions.size
  const customers = store.customerIndex.items.map((c) => ({ id: c.id }))
  const customerCount = customers.length
  const end = Date.now()
  const start = end - 365 * 24 * 3600 * 1000
  try {
    // ---- request mix
    const auth = `Basic ${Buffer.from('bench:bench').toString('base64')}`
    const base = new URL(server.baseUrl)
    const prefix = base.pathname
    const pool = new Pool(base.origin, { connections: CONCURRENCY, pipelining: 1 })
    const day = 24 * 3600 * 1000
    let n = 0
    let cursors: string[] = []
    const nextPath = (): string => {
      const k = n++ % 8
      const cust = customers[n % customerCount] as { id: string }
      switch (k) {
        case 0:
          return '/transactions'
        case 1:
          return '/transactions?sortOrder=asc&limit=50'
        case 2: {
          const c = cursors[n % Math.max(1, cursors.length)]
          return c ? `/transactions?limit=20&cursor=${encodeURIComponent(c)}` : '/transactions?limit=20'
        }
        case 3:
          return `/transactions?customerId=${encodeURIComponent(cust.id)}`
        case 4:
          return '/transactions?status=COMPLETED&limit=20'
        case 5:
          return '/transactions?type=OUTGOING&status=FAILED&limit=20'
        case 6: {
          const from = new Date(start + (n % 360) * day).toISOString()
          const to = new Date(start + ((n % 360) + 3) * day).toISOString()
          return `/transactions?startDate=${from}&endDate=${to}&limit=100`
        }
        default:
          return `/transactions?customerId=${encodeURIComponent(cust.id)}&type=INCOMING&sortOrder=asc&limit=10`
      }
    }
    // Cursors to resume from: collect some from a walk through the list.
    {
      let cursor: string | undefined
      for (let i = 0; i < 50; i++) {
        const res = await pool.request({
          path: `${prefix}/transactions?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          method: 'GET',
          headers: { authorization: auth }
        })
        const body = (await res.body.json()) as { nextCursor?: string; totalCount: number }
        if (res.statusCode !== 200 || body.totalCount !== total) throw new Error(`unexpected answer ${res.statusCode}`)
        cursor = body.nextCursor
        if (cursor) cursors.push(cursor)
      }
      cursors = cursors.slice(0, 50)
    }

    const run = async (ms: number, record: boolean) => {
      const latencies: number[] = []
      let errors = 0
      const until = performance.now() + ms
      const worker = async () => {
        while (performance.now() < until) {
          const path = prefix + nextPath()
          const s = performance.now()
          const res = await pool.request({ path, method: 'GET', headers: { authorization: auth } })
          await res.body.arrayBuffer()
          const d = performance.now() - s
          if (res.statusCode !== 200) errors++
          if (record) latencies.push(d)
        }
      }
      const s = performance.now()
      await Promise.all(Array.from({ length: CONCURRENCY }, worker))
      return { latencies, errors, elapsed: performance.now() - s }
    }
    await run(WARMUP_MS, false)
    const { latencies, errors, elapsed } = await run(MEASURE_MS, true)
    await pool.close()

    latencies.sort((a, b) => a - b)
    const rps = latencies.length / (elapsed / 1000)
    const p50 = percentile(latencies, 50)
    const p99 = percentile(latencies, 99)
    const max = latencies[latencies.length - 1] ?? NaN
    const ok = (b: boolean) => (b ? 'met' : 'NOT MET')
    const [l1] = loadavg()
    console.log(`Sandbox: GET /transactions at ${size.toLocaleString('en-US')} generated transactions`)
    console.log(
      `  machine: ${availableParallelism()} cores, load average ${(l1 ?? 0).toFixed(2)} at the end (other processes compete for the same cores)`
    )
    console.log(
      `  state: ${total.toLocaleString('en-US')} transactions (seed + generated) in ${loadMs.toFixed(0)} ms, heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB; ${CONCURRENCY} concurrent keep-alive clients in the same process`
    )
    console.log(
      `  requests: ${latencies.length.toLocaleString('en-US')} in ${(elapsed / 1000).toFixed(1)} s, errors: ${errors}`
    )
    console.log(`  throughput: ${rps.toFixed(0)} req/s (target >= ${TARGET_RPS}: ${ok(rps >= TARGET_RPS)})`)
    console.log(
      `  latency: p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms (target < ${TARGET_P99_MS} ms: ${ok(p99 < TARGET_P99_MS)}), max ${max.toFixed(2)} ms`
    )
    if (errors > 0) throw new Error(`${errors} requests failed`)
  } finally {
    await server.close()
  }
}
