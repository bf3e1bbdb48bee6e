import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { CacheStore } from '../src/main/infra/cache/store'
import { exportTransactionsCsv } from '../src/main/domain/export/transaction-export'
import { transactionBatches } from './core-data'

const ROWS = Number(process.env['PAYDESK_BENCH_EXPORT_ROWS'] ?? 100_000)

/**
 * CSV export of the cache (what "Export CSV" runs in main): the whole set and a filtered one, with the time, the size,
 * how often progress was reported, and the longest stretch the event loop was held between two pages (what approvals
 * and polling wait for meanwhile). Target: 100,000 rows in under 10 s.
 */
export async function runExportBench(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'paydesk-bench-export-'))
  try {
    const { store } = await CacheStore.open(path.join(dir, 'cache.db'), randomBytes(32))
    for (const batch of transactionBatches(ROWS, 5_000)) await store.put('transactions', batch)
    const runs = [
      { name: 'all rows, newest first', filter: {}, sort: { field: 'createdAt', direction: 'desc' } as const },
      {
        name: 'OUTGOING + 3 statuses, by amount desc',
        filter: { type: 'OUTGOING' as const, status: ['COMPLETED', 'FAILED', 'PENDING'] },
        sort: { field: 'amount', direction: 'desc' } as const
      }
    ]
    for (const run of runs) {
      const file = path.join(dir, 'export.csv')
      let reports = 0
      let longestHold = 0
      // The event loop's longest stall while exporting: a timer that should fire every 5 ms.
      let tick = performance.now()
      const probe = setInterval(() => {
        const now = performance.now()
        longestHold = Math.max(longestHold, now - tick - 5)
        tick = now
      }, 5)
      const heapBefore = process.memoryUsage().heapUsed
      const t0 = performance.now()
      const result = await exportTransactionsCsv({
        source: store,
        filter: run.filter,
        sort: run.sort,
        file,
        onProgress: () => reports++
      })
      const seconds = (performance.now() - t0) / 1000
      clearInterval(probe)
      const heapGrowth = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20
      const bytes = (await stat(file)).size
      console.log(
        `export ${run.name} of ${ROWS.toLocaleString('en-US')} cached: ${result.written.toLocaleString('en-US')} rows in ${seconds.toFixed(2)} s ` +
          `(${Math.round(result.written / seconds).toLocaleString('en-US')} rows/s, ${(bytes / 2 ** 20).toFixed(1)} MiB, ` +
          `${reports} progress reports, longest event-loop hold ${longestHold.toFixed(0)} ms, heap growth ${heapGrowth.toFixed(0)} MiB) ` +
          `${result.written >= 100_000 ? (seconds < 10 ? '(target < 10 s at 100k: met)' : '(target < 10 s at 100k: MISSED)') : ''}`
      )
      await rm(file)
    }
    await store.close()
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
