/**
 * `npm run bench` core section: the offline cache and live sync at 100,000 cached transactions.
 * Prints: bulk write, compaction, cache open (decrypt + parse + index), incremental sync polls against the local
 * sandbox over HTTP (nothing new / a few new), and filtered, sorted windowed queries (first and repeated).
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ApiClient } from '../src/main/services/api-client'
import { CacheStore } from '../src/main/services/cache/store'
import { SyncEngine } from '../src/main/services/sync/engine'
import { realClock } from '../src/main/services/sync/scheduler'
import { createSandboxServer } from '../src/sandbox/server'
import type { Transaction } from '../src/shared/api'
import type { TransactionFilter, TransactionSort } from '../src/shared/ipc/channels/data'

const N = 100_000
const STATUSES = ['CREATED', 'PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'REJECTED', 'EXPIRED', 'REFUNDED']
const CURRENCIES = ['USD', 'EUR', 'MXN', 'GBP']

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32
}

function transactions(n: number): Transaction[] {
  const r = rng(42)
  const start = Date.parse('2025-01-01T00:00:00Z')
  const out: Transaction[] = []
  for (let i = 0; i < n; i++) {
    const created = new Date(start + i * 60_000).toISOString()
    const currency = CURRENCIES[Math.floor(r() * CURRENCIES.length)]!
    const amount = {
      amount: 1 + Math.floor(r() * 10_000_000),
      currency: { code: currency, name: currency, symbol: '$', decimals: 2 }
    }
    const common = {
      id: `Transaction:bench-${String(i).padStart(7, '0')}`,
      status: STATUSES[Math.floor(r() * STATUSES.length)]!,
      customerId: `Customer:${Math.floor(r() * 2_000)}`,
      platformCustomerId: `pc-${i % 2_000}`,
      destination: { destinationType: 'ACCOUNT', accountId: `ExternalAccount:${i % 500}`, currency },
      createdAt: created,
      updatedAt: created,
      settledAt: created,
      description: `Payment ${i}`,
      rateDetails: {
        gridApiMultiplier: 1,
        gridApiFixedFee: 10,
        gridApiVariableFeeRate: 0.001,
        gridApiVariableFeeAmount: 12
      }
    }
    out.push(
      (r() < 0.5
        ? { ...common, type: 'INCOMING', receivedAmount: amount, reconciliationInstructions: { reference: `REF-${i}` } }
        : {
            ...common,
            type: 'OUTGOING',
            source: { sourceType: 'ACCOUNT', accountId: `InternalAccount:${i % 8}`, currency },
            sentAmount: amount,
            fees: 10
          }) as Transaction
    )
  }
  return out
}

const ms = (t0: number) => (performance.now() - t0).toFixed(1)

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

export async function runCoreBench(): Promise<void> {
  console.log(`\n== core: offline cache and live sync at ${N.toLocaleString('en-US')} transactions ==`)
  const dir = await mkdtemp(path.join(tmpdir(), 'paydesk-bench-'))
  const file = path.join(dir, 'cache.pdlog')
  const key = randomBytes(32)
  const sandbox = await createSandboxServer({ memory: true, seed: false, log: () => {} })
  try {
    let docs: Transaction[] | undefined = transactions(N)
    let t0 = performance.now()
    const { store } = await CacheStore.open(file, key)
    for (let i = 0; i < docs.length; i += 1_000) await store.put('transactions', docs.slice(i, i + 1_000))
    docs = undefined
    console.log(`bulk write (100 encrypted frames of 1,000, fsync each): ${ms(t0)} ms`)
    t0 = performance.now()
    await store.compact()
    const size = (await stat(file)).size
    console.log(`compaction to a snapshot: ${ms(t0)} ms, file ${(size / 1024 / 1024).toFixed(1)} MiB`)
    await store.setMeta({ 'tx.watermark': new Date().toISOString() })
    await store.close()

    const opens: number[] = []
    let reopened: CacheStore | undefined
    for (let i = 0; i < 3; i++) {
      await reopened?.close()
      t0 = performance.now()
      reopened = (await CacheStore.open(file, key)).store
      opens.push(performance.now() - t0)
    }
    const cache = reopened!
    const gc = (globalThis as { gc?: () => void }).gc
    gc?.()
    const heapMiB = process.memoryUsage().heapUsed / 1024 / 1024
    const heapNote = gc ? '' : ' (no --expose-gc: includes garbage)'
    console.log(
      `cache open (read + AES-256-GCM decrypt + parse + index ${cache.count('transactions').toLocaleString('en-US')}): ` +
        `${opens.map((v) => v.toFixed(0)).join(' / ')} ms; JS heap with the cache open ≈ ${heapMiB.toFixed(0)} MiB${heapNote}`
    )

    // Queries the renderer asks for: filtered, sorted, a window of 100 rows plus the total.
    const queries: Array<{ name: string; filter: TransactionFilter; sort: TransactionSort; offset: number }> = [
      {
        name: 'default (newest first), rows 0-99',
        filter: {},
        sort: { field: 'createdAt', direction: 'desc' },
        offset: 0
      },
      {
        name: 'status COMPLETED + USD, by amount desc, rows 500-599',
        filter: { status: ['COMPLETED'], currency: 'USD' },
        sort: { field: 'amount', direction: 'desc' },
        offset: 500
      },
      {
        name: 'one customer, newest first',
        filter: { customerId: 'Customer:7' },
        sort: { field: 'createdAt', direction: 'desc' },
        offset: 0
      },
      {
        name: 'text search "payment 4242"',
        filter: { search: 'payment 4242' },
        sort: { field: 'createdAt', direction: 'desc' },
        offset: 0
      },
      {
        name: 'INCOMING PENDING (approval queue)',
        filter: { awaitingApproval: true },
        sort: { field: 'createdAt', direction: 'asc' },
        offset: 0
      }
    ]
    for (const q of queries) {
      t0 = performance.now()
      const first = cache.queryTransactions(q.filter, q.sort, q.offset, 100)
      const cold = performance.now() - t0
      const warm: number[] = []
      for (let i = 0; i < 50; i++) {
        const s = performance.now()
        cache.queryTransactions(q.filter, q.sort, q.offset + (i % 10) * 100, 100)
        warm.push(performance.now() - s)
      }
      console.log(
        `query ${q.name}: total ${first.total.toLocaleString('en-US')}, first ${cold.toFixed(1)} ms, scrolling p50 ${percentile(warm, 50).toFixed(3)} ms p99 ${percentile(warm, 99).toFixed(3)} ms`
      )
    }

    // Incremental sync against the sandbox over HTTP with 100k cached.
    const client = new ApiClient({
      baseUrl: sandbox.baseUrl,
      tokenId: sandbox.tokenId,
      clientSecret: sandbox.clientSecret
    })
    const engine = new SyncEngine({
      profileId: 'bench',
      client,
      cache,
      clock: realClock,
      log: () => {},
      operatorInFlight: () => [],
      onChanges: async () => {},
      onStatus: () => {}
    })
    await engine.poll()
    const idle: number[] = []
    for (let i = 0; i < 20; i++) {
      const s = performance.now()
      await engine.poll()
      idle.push(performance.now() - s)
    }
    console.log(
      `sync poll, nothing new: p50 ${percentile(idle, 50).toFixed(1)} ms, max ${Math.max(...idle).toFixed(1)} ms`
    )
    const auth = `Basic ${Buffer.from(`${sandbox.tokenId}:${sandbox.clientSecret}`).toString('base64')}`
    const customer = (await (
      await fetch(`${sandbox.baseUrl}/customers`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          customerType: 'INDIVIDUAL',
          region: 'US',
          currencies: ['USD'],
          fullName: 'Bench Person'
        })
      })
    ).json()) as { id: string }
    const busy: number[] = []
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 10; i++) {
        await fetch(`${sandbox.baseUrl}/sandbox/uma/receive`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify({
            senderUmaAddress: '$success.usd@sandbox.uma.money',
            receivingCurrencyCode: 'USD',
            receivingCurrencyAmount: 100 + i,
            customerId: customer.id
          })
        })
      }
      const s = performance.now()
      await engine.poll()
      busy.push(performance.now() - s)
    }
    console.log(
      `sync poll, 10 new transactions (+ approval checks): p50 ${percentile(busy, 50).toFixed(1)} ms, max ${Math.max(...busy).toFixed(1)} ms`
    )
    console.log(
      `cache after sync: ${cache.count('transactions').toLocaleString('en-US')} transactions, file ${(cache.fileBytes / 1024 / 1024).toFixed(1)} MiB`
    )
    engine.stop()
    await client.close()
    await cache.close()
  } finally {
    await sandbox.close()
    await rm(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runCoreBench()
