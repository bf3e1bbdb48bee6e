import { z } from 'zod'
import { channel } from '../define'
import { TransactionFilter, TransactionSort } from './data'

/**
 * CSV export of the filtered transactions, streamed from main in pages. The desktop app asks where to save it (a save
 * dialog); browser mode writes it to a private folder and the page downloads it once from the bridge
 * (EXPORT_DOWNLOAD_PATH + id, token-protected like every bridge call), after which it is deleted.
 */

const ExportId = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, { error: 'Not an export id' })

export const TransactionsExportInput = z.strictObject({
  filter: TransactionFilter.default({}),
  sort: TransactionSort.default({ field: 'createdAt', direction: 'desc' })
})
export type TransactionsExportInput = z.infer<typeof TransactionsExportInput>

export const ExportStarted = z.object({
  /** null: the operator dismissed the save dialog; nothing was written. */
  exportId: ExportId.nullable(),
  fileName: z.string(),
  /** file: written where the operator chose; download: the page fetches it when done. */
  delivery: z.enum(['file', 'download']),
  total: z.number().int().min(0)
})
export type ExportStarted = z.infer<typeof ExportStarted>

const EXPORT_STATES = ['running', 'done', 'cancelled', 'failed'] as const
export const ExportProgress = z.object({
  exportId: ExportId,
  state: z.enum(EXPORT_STATES),
  written: z.number().int().min(0),
  total: z.number().int().min(0),
  fileName: z.string(),
  delivery: z.enum(['file', 'download']),
  message: z.string().optional()
})
export type ExportProgress = z.infer<typeof ExportProgress>

export const exportChannels = {
  'transactions.export': channel(
    TransactionsExportInput,
    ExportStarted,
    'Export the filtered, sorted transactions as CSV (save dialog on desktop, a download in browser mode)'
  ),
  'exports.cancel': channel(
    z.strictObject({ exportId: ExportId }),
    z.null(),
    'Stop an export; its partial file is removed'
  )
}

export const exportEvents = {
  /** Rows written so far, then how it ended. */
  'export.progress': ExportProgress
}
