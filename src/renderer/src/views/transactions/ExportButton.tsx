import { useEffect, useRef, useState } from 'react'
import type { TransactionFilter, TransactionSort } from '../../../../shared/ipc/channels/data'
import type { ExportProgress } from '../../../../shared/ipc/channels/export'
import { downloadExport } from '../../bridge/download'
import { paydesk } from '../../bridge/paydesk'
import { useChannelMutation } from '../../data/channel-query'

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
  const [message, setMessage] = useState<string | null>(null)
  const exporting = useChannelMutation('transactions.export')
  const cancelling = useChannelMutation('exports.cancel')
  // Events travel apart from the call's answer and a small export can end before the answer arrives: every event is
  // kept by id, and the export this button started is finished by whichever of the two comes last.
  const [events, setEvents] = useState<Record<string, ExportProgress>>({})
  const seen = useRef(new Map<string, ExportProgress>())
  const currentId = useRef<string | null>(null)
  const [current, setCurrent] = useState<string | null>(null)
  const progress = current ? (events[current] ?? null) : null

  const finish = (p: ExportProgress) => {
    const done = `Exported ${p.written.toLocaleString()} transactions to ${p.fileName}.`
    if (p.state === 'done' && p.delivery === 'download') {
      downloadExport(p.exportId, p.fileName).then(
        () => setMessage(done),
        (error: unknown) => setMessage(error instanceof Error ? error.message : 'The download failed.')
      )
    } else if (p.state === 'done') setMessage(done)
    else if (p.state === 'cancelled') setMessage('Export cancelled. Nothing was saved.')
    else setMessage(p.message ?? 'The export failed. Nothing was saved.')
  }
  const finishRef = useRef(finish)
  useEffect(() => {
    finishRef.current = finish
  })

  useEffect(
    () =>
      paydesk.on('export.progress', (p) => {
        seen.current.set(p.exportId, p)
        setEvents((all) => ({ ...all, [p.exportId]: p }))
        if (p.state !== 'running' && p.exportId === currentId.current) finishRef.current(p)
      }),
    []
  )

  const start = async () => {
    setMessage(null)
    const result = await exporting.run({ filter, sort })
    if (!result.ok) return setMessage(result.error.message)
    const { exportId: id, total, fileName, delivery } = result.value
    if (id === null) return
    currentId.current = id
    setCurrent(id)
    const already = seen.current.get(id)
    if (already && already.state !== 'running') return finishRef.current(already)
    if (!already)
      setEvents((all) => ({ ...all, [id]: { exportId: id, state: 'running', written: 0, total, fileName, delivery } }))
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
