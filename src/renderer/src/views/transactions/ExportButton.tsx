import { useEffect, useState } from 'react'
import type { TransactionFilter, TransactionSort } from '../../../../shared/ipc/channels/data'
import type { ExportProgress } from '../../../../shared/ipc/channels/export'
import { downloadExport } from '../../bridge/download'
import { useChannelMutation } from '../../data/channel-query'
import { startedExport, useExportProgress } from '../../data/exports'

const doneMessage = (p: ExportProgress) => `Exported ${p.written.toLocaleString()} transactions to ${p.fileName}.`

/** What the operator is told once an export ended (a download's outcome is told once the file is fetched). */
function endMessage(p: ExportProgress): string {
  if (p.state === 'done') return doneMessage(p)
  if (p.state === 'cancelled') return 'Export cancelled. Nothing was saved.'
  return p.message ?? 'The export failed. Nothing was saved.'
}

/**
 * Exports what the list shows (its filter and its sort) as CSV. Main writes it in pages and reports progress; the
 * operator can cancel (the partial file is removed). Browser mode downloads the finished file.
 */
export function ExportButton({
  filter,
  sort,
  disabled
}: {
  filter: TransactionFilter
  sort: TransactionSort
  disabled?: boolean
}) {
  const [startError, setStartError] = useState<string | null>(null)
  /** A browser-mode download's outcome, by export id: the file is fetched once its export is done. */
  const [downloaded, setDownloaded] = useState<{ exportId: string; message: string } | null>(null)
  const exporting = useChannelMutation('transactions.export')
  const cancelling = useChannelMutation('exports.cancel')
  const [current, setCurrent] = useState<string | null>(null)
  const progress = useExportProgress(current)

  // The export this button started ends once, whether its last event came before the call's answer or after it.
  const ended = progress && progress.state !== 'running' ? progress : null
  const downloads = ended?.state === 'done' && ended.delivery === 'download' ? ended : null
  useEffect(() => {
    if (!downloads) return
    const { exportId, fileName } = downloads
    downloadExport(exportId, fileName).then(
      () => setDownloaded({ exportId, message: doneMessage(downloads) }),
      (error: unknown) =>
        setDownloaded({ exportId, message: error instanceof Error ? error.message : 'The download failed.' })
    )
  }, [downloads])
  const message =
    startError ??
    (downloads ? (downloaded?.exportId === downloads.exportId ? downloaded.message : null) : ended && endMessage(ended))

  const start = async () => {
    setStartError(null)
    setCurrent(null)
    const result = await exporting.run({ filter, sort })
    if (!result.ok) return setStartError(result.error.message)
    const { exportId, total, fileName, delivery } = result.value
    if (exportId === null) return
    startedExport({ exportId, state: 'running', written: 0, total, fileName, delivery })
    setCurrent(exportId)
  }

  const running = progress?.state === 'running'
  const cancel = () => {
    if (progress) void cancelling.run({ exportId: progress.exportId })
  }

  return (
    <div className="export-control">
      {running ? (
        <>
          <progress aria-label="Export progress" max={Math.max(progress.total, 1)} value={progress.written} />
          <span role="status">
            Exporting {progress.written.toLocaleString()} of {progress.total.toLocaleString()}…
          </span>
          <button onClick={cancel}>Cancel export</button>
        </>
      ) : (
        <button onClick={() => void start()} disabled={disabled}>
          Export CSV
        </button>
      )}
      {message && !running && (
        <span role="status" className="muted">
          {message}
        </span>
      )}
    </div>
  )
}
