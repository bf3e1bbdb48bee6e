import { open, rename, rm } from 'node:fs/promises'
import type { Transaction } from '../../../shared/api'
import type { TransactionFilter, TransactionSort } from '../../../shared/ipc/channels/data'
import type { Names } from '../../../shared/labels'
import { transactionsCsv } from './transactions-csv'

/** What an export reads: the cache's count and keyset pages (CacheStore, answered by its reader thread). */
export interface TransactionPages {
  countTransactions(filter: TransactionFilter): Promise<number>
  transactionPage(
    filter: TransactionFilter,
    sort: TransactionSort,
    after: unknown[] | null,
    limit: number
  ): Promise<{ rows: Transaction[]; names?: Names; last: unknown[] | null }>
}

interface ExportProgress {
  written: number
  total: number
}

/** Rows read, formatted and written per step: one page in memory at a time, and the event loop runs between steps. */
const EXPORT_PAGE_ROWS = 500

/**
 * Writes the filtered, sorted transactions as CSV to `file`, page by page. The file appears whole or not at all: it is
 * written beside its destination as `<file>.partial` and renamed at the end; a cancel (the signal) or a failure
 * removes the partial file and leaves any existing file at `file` untouched.
 */
export async function exportTransactionsCsv(options: {
  source: TransactionPages
  filter: TransactionFilter
  sort: TransactionSort
  file: string
  signal?: AbortSignal
  onProgress?: (progress: ExportProgress) => void
  pageRows?: number
}): Promise<ExportProgress & { bytes: number }> {
  const { source, filter, sort, file, signal } = options
  const partial = `${file}.partial`
  const total = await source.countTransactions(filter)
  let written = 0
  let bytes = 0
  const handle = await open(partial, 'w', 0o600)
  try {
    let after: unknown[] | null = null
    let first = true
    options.onProgress?.({ written, total })
    for (;;) {
      signal?.throwIfAborted()
      const page = await source.transactionPage(filter, sort, after, options.pageRows ?? EXPORT_PAGE_ROWS)
      if (page.rows.length === 0 && !first) break
      const chunk = Buffer.from(transactionsCsv(page.rows, first, page.names), 'utf8')
      await handle.write(chunk)
      bytes += chunk.length
      written += page.rows.length
      first = false
      // Rows added while exporting may push the count past what was counted first; the progress never says >100%.
      options.onProgress?.({ written, total: Math.max(total, written) })
      if (page.last === null) break
      after = page.last
    }
    signal?.throwIfAborted()
    await handle.sync()
    await handle.close()
    await rename(partial, file)
    return { written, total: Math.max(total, written), bytes }
  } catch (error) {
    await handle.close().catch(() => {})
    await rm(partial, { force: true })
    throw error
  }
}
