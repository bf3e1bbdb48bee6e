import { useSync } from '../stores/sync'
import { formatClock, formatRelative } from '../format/time'

/** "as of 14:02" while offline, a quiet "updated 2 min ago" otherwise, "not synced yet" before the first sync. */
export function SyncedNote({ syncedAt }: { syncedAt: string | null }) {
  const status = useSync((s) => s.status)
  if (!syncedAt) return <span className="muted">not synced yet</span>
  if (status === 'offline') return <span className="offline-note">Offline · as of {formatClock(syncedAt)}</span>
  return (
    <span className="muted" title={syncedAt}>
      updated {formatRelative(syncedAt)}
    </span>
  )
}
