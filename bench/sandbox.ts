/**
 * Sandbox section of `npm run bench`: GET /transactions throughput and latency with 100,000 transactions in state.
 * Targets (issue 3, item 9): at least 2,000 requests/s and p99 under 10 ms on a 2-core machine.
 *
 * The transactions are put straight into the state (no HTTP), then a keep-alive undici pool drives a mix of list
 * requests: first pages in both orders, next pages by cursor, and the spec 4.9 filters (customer, status, type, dates).
 */
import { availableParallelism, loadavg } from 'node:os'
import { Pool } from 'undici'
import { amountOf } from '../src/sandbox/currencies'
import type { TransactionRec } from '../src/sandbox/model'
import { createSandboxServer } from '../src/sandbox/server'

const TRANSACTIONS = 100_000
const CUSTOMERS = 500
const CONCURRENCY = 8
const WARMUP_MS = 1_000
const MEASURE_MS = 5_000
const TARGET_RPS = 2_000
const TARGET_P99_MS = 10

const INCOMING = ['CREATED', 'PENDING', 'PROCESSING', 'COMPLETED', 'REJECTED', 'FAILED', 'REFUNDED', 'EXPIRED']
const OUTGOING = ['PENDING', 'EXPIRED', 'PROCESSING', 'COMPLETED', 'FAILED']

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[i] as number
}

export async function runSandboxBench(): Promise<void> {
  const server = await createSandboxServer({
    memory: true,
    seed: false,
    tokenId: 'bench',
    clientSecret: 'bench',
    log: () => undefined
  })
  const { store } = server.state
  try {
    // ---- 100,000 transactions straight into the state, spread over 90 days
    const t0 = performance.now()
    const end = Date.now()
    const start = end - 90 * 24 * 3600 * 1000
    const customers = Array.from({ length: CUSTOMERS }, (_, i) => ({ id: `Customer:bench-${i}`, pc: `pc-${i}` }))
    const recs: TransactionRec[] = []
    for (let i = 0; i < TRANSACTIONS; i++) {
      const t = start + Math.floor((i / TRANSACTIONS) * (end - start))
      const id = store.ids.next('Transaction', t)
      const c = customers[i % CUSTOMERS] as { id: string; pc: string }
      const incoming = i % 3 !== 0
      const status = incoming ? (INCOMING[i % INCOMING.length] as string) : (OUTGOING[i % OUTGOING.length] as string)
      const createdAt = new Date(t).toISOString()
      const account = `InternalAccount:bench-${i % CUSTOMERS}`
      const ext = `ExternalAccount:bench-${i % (CUSTOMERS * 2)}`
      recs.push({
        t,
        id,
        data: incoming
          ? {
              id,
              status,
              type: 'INCOMING',
              source: { sourceType: 'UMA_ADDRESS', umaAddress: '$success.usd@sandbox.uma.money', currency: 'USD' },
              destination: { destinationType: 'ACCOUNT', accountId: account, currency: 'USD' },
              customerId: c.id,
              platformCustomerId: c.pc,
              createdAt,
              updatedAt: createdAt,
              receivedAmount: amountOf(1_000 + (i % 10_000), 'USD'),
              reconciliationInstructions: { reference: `REF-${i}` },
              ...(status === 'FAILED' ? { failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' } : {})
            }
          : {
              id,
              status,
              type: 'OUTGOING',
              source: { sourceType: 'ACCOUNT', accountId: account, currency: 'USD' },
              destination: { destinationType: 'ACCOUNT', accountId: ext, currency: 'USD' },
              customerId: c.id,
              platformCustomerId: c.pc,
              createdAt,
              updatedAt: createdAt,
              sentAmount: amountOf(1_010 + (i % 10_000), 'USD'),
              receivedAmount: amountOf(1_000 + (i % 10_000), 'USD'),
              exchangeRate: 1,
              fees: 10,
              ...(status === 'FAILED' ? { failureReason: 'COUNTERPARTY_POST_TX_FAILED' } : {})
            },
        meta: {
          kind: 'SEED',
          sender: incoming ? '$success.usd@sandbox.uma.money' : account,
          receiver: incoming ? account : ext,
          reference: `REF-${i}`
        }
      })
    }
    store.loadTransactions(recs)
    const loadMs = performance.now() - t0

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
      const cust = customers[n % CUSTOMERS] as { id: string }
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
          const from = new Date(start + (n % 80) * day).toISOString()
          const to = new Date(start + ((n % 80) + 3) * day).toISOString()
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
        if (res.statusCode !== 200 || body.totalCount !== TRANSACTIONS)
          throw new Error(`unexpected answer ${res.statusCode}`)
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
    console.log('Sandbox: GET /transactions at 100,000 transactions')
    console.log(
      `  machine: ${availableParallelism()} cores, load average ${(l1 ?? 0).toFixed(2)} at the end (other processes compete for the same cores)`
    )
    console.log(
      `  state: ${TRANSACTIONS.toLocaleString('en-US')} transactions loaded in ${loadMs.toFixed(0)} ms; ${CONCURRENCY} concurrent keep-alive clients in the same process`
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
