import type { Handlers } from './ipc/dispatch'
import type { ExportJobs } from './services/export/export-jobs'
import type { TransactionPages } from './services/export/transaction-export'

type ExportChannel = 'transactions.export' | 'exports.cancel'

/** The export channels: the active profile's cache, written by the backend's export jobs. */
export function exportHandlers(
  jobs: ExportJobs,
  active: () => Promise<{ cache: TransactionPages }>
): Pick<Handlers, ExportChannel> {
  return {
    'transactions.export': async (input) => jobs.startTransactions((await active()).cache, input),
    'exports.cancel': async ({ exportId }) => jobs.cancel(exportId)
  }
}
