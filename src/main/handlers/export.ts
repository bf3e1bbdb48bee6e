import type { Handlers } from './dispatch'
import type { ExportJobs } from '../domain/export/export-jobs'
import type { TransactionPages } from '../domain/export/transaction-export'

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
