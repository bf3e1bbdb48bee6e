/**
 * The longest block of the main process's event loop while a sync writes 1,000 rows into a big cache: through the
 * cache's writer thread (what Paydesk does), and run on main's own connection (what it did before the writer thread),
 * measured in the same run so the two compare under the same load.
 */
import { createHash } from 'node:crypto'
import { loadavg } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { CacheStore } from '../src/main/infra/cache/store'
import { openEncryptedDatabase } from '../src/main/infra/cache/sqlite'
import { putDocuments } from '../src/main/infra/cache/writes'
import type { Transaction } from '../src/shared/api'

/** The key of the bench's caches: fixed, so a kept cache (PAYDESK_BENCH_CORE_DIR) reopens; its rows are synthetic. */
export const BENCH_CACHE_KEY = createHash('sha256').update('paydesk bench cache').digest()

/** Runs `work` while a 1 ms timer watches main's loop; the longest gap between its ticks, and the work's duration. */
async function longestBlock(work: () => Promise<unknown>): Promise<{ block: number; took: number }> {
  let last = performance.now()
  let block = 0
  const timer = setInterval(() => {
    const now = performance.now()
    block = Math.max(block, now - last)
    last = now
  }, 1)
  const t0 = performance.now()
  // A tick first, so the timer is running before the work starts.
  await new Promise((r) => setTimeout(r, 5))
  last = performance.now()
  await work()
  const took = performance.now() - t0
  block = Math.max(block, performance.now() - last)
  clearInterval(timer)
  return { block, took }
}

/** `fresh` holds 2,000 rows the cache does not have: 1,000 per variant, each removed again after it is measured. */
export async function writeBlockFigures(
  file: string,
  key: Buffer,
  fresh: Transaction[],
  label: string,
  load: () => string
) {
  const threaded = fresh.slice(0, 1_000)
  const inline = fresh.slice(1_000, 2_000)
  const store = (await CacheStore.open(file, key)).store
  // Until the writer thread is up, writes run on main: wait for it, as a running app has.
  await store.writesOffThread()
  const after = await longestBlock(() => store.put('transactions', threaded))
  // The same probe with nothing to do for as long: on a shared machine the OS alone delays a tick this much.
  const idle = await longestBlock(() => new Promise((r) => setTimeout(r, after.took)))
  console.log(
    `sync of 1,000 rows into ${label} cached, writer thread: longest main event-loop block ${after.block.toFixed(1)} ms ` +
      `(write took ${after.took.toFixed(0)} ms; target ≤ 50 ms; idle loop for as long: ${idle.block.toFixed(1)} ms); load ${load()}`
  )
  // Before the writer thread, main's connection was the only one writing. The store is closed for this variant so it
  // is again: closing ends the writer thread and the text index's background merge it runs (from a few seconds after
  // the thread is up, each step its own transaction). With the store open, a merge step committed while the put below
  // was reading, its read transaction could not become a write one, and the bench died with SQLITE_BUSY at a million.
  await store.put('transactions', [], { remove: threaded.map((t) => t.id) })
  await store.close()
  const db = openEncryptedDatabase(file, key)
  const before = await longestBlock(async () => putDocuments(db, { c: 'transactions', docs: inline }))
  putDocuments(db, { c: 'transactions', docs: [], remove: inline.map((t) => t.id) })
  db.close()
  console.log(
    `sync of 1,000 rows into ${label} cached, on main as before: longest main event-loop block ${before.block.toFixed(1)} ms ` +
      `(write took ${before.took.toFixed(0)} ms); load ${load()}`
  )
}

/**
 * Alone: `npx tsx bench/write-block.ts <cache file kept by the core section>` measures this figure on a cache filled
 * earlier (or partly: a fill stopped half-way keeps what it wrote), without filling it again.
 */
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const file = process.argv[2]
  if (!file) throw new Error('usage: tsx bench/write-block.ts <cache file>')
  const { store } = await CacheStore.open(file, BENCH_CACHE_KEY)
  const n = store.count('transactions')
  await store.close()
  const fresh: Transaction[] = Array.from({ length: 2_000 }, (_, i) => {
    const at = new Date(Date.parse('2027-01-01T00:00:00Z') + i * 1_000).toISOString()
    const currency = ['USD', 'EUR', 'MXN', 'GBP'][i % 4]!
    return {
      id: `Transaction:block-${String(i).padStart(7, '0')}`,
      type: 'INCOMING',
      status: 'COMPLETED',
      customerId: `Customer:${i % 2_000}`,
      platformCustomerId: `pc-${i % 2_000}`,
      destination: { destinationType: 'ACCOUNT', accountId: `ExternalAccount:${i % 500}`, currency },
      receivedAmount: { amount: 1_000 + i, currency: { code: currency, name: currency, symbol: '$', decimals: 2 } },
      createdAt: at,
      updatedAt: at,
      description: `Block payment ${i}`,
      reconciliationInstructions: { reference: `BLOCK-${i}` }
    } as unknown as Transaction
  })
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')
  await writeBlockFigures(file, BENCH_CACHE_KEY, fresh, n.toLocaleString('en-US'), load)
}
