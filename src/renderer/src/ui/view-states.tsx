import { useEffect, useState, type ReactNode } from 'react'
import { formatClock, formatRelative, TIME_ZONE } from '../format/time'
import { useSync } from '../stores/sync'

/** Loading: skeleton rows where the list will be, never a spinner over a blank page. */
export function SkeletonRows({ label }: { label: string }) {
  return <div className="skeleton-rows" role="status" aria-busy="true" aria-label={`Loading ${label}`} />
}

/** Empty: what this list is, and the one action that starts it. */
export function EmptyState(props: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="state state-empty" role="status">
      <p className="state-title">{props.title}</p>
      {props.children && <p className="muted">{props.children}</p>}
      {props.action}
    </div>
  )
}

/** Re-renders every `ms` so relative times ("2 min ago") stay true while the view is open. */
export function useNow(ms = 30_000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms)
    return () => clearInterval(timer)
  }, [ms])
  return now
}

/** Older than this, cached data says quietly how old it is. */
export const STALE_AFTER_MS = 60_000

/**
 * Offline: "Offline · as of 14:02" (the cached data stays on screen). Stale: a quiet "updated 2 min ago". Fresh: a
 * muted "updated just now". `syncedAt` is what main said about this very answer.
 */
export function Freshness({ syncedAt }: { syncedAt: string | null | undefined }) {
  const status = useSync((s) => s.status)
  const now = useNow()
  const title = syncedAt ? `${syncedAt} (${TIME_ZONE})` : undefined
  if (status === 'offline') {
    return (
      <span className="freshness offline-note" role="status" title={title}>
        Offline · {syncedAt ? `as of ${formatClock(syncedAt)}` : 'never synced on this machine'}
      </span>
    )
  }
  if (!syncedAt) {
    return (
      <span className="freshness muted" role="status">
        Not synced yet
      </span>
    )
  }
  const stale = now - new Date(syncedAt).getTime() > STALE_AFTER_MS
  return (
    <span className={stale ? 'freshness freshness-stale' : 'freshness muted'} role="status" title={title}>
      updated {formatRelative(syncedAt, now)}
    </span>
  )
}

/** A result line of an action: green when it worked, red with the code beside the sentence when it did not. */
export function ActionResult(props: { ok: boolean; children: ReactNode; code?: string | undefined }) {
  return (
    <p className={props.ok ? 'result result-ok' : 'result result-bad'} role={props.ok ? 'status' : 'alert'}>
      {props.children}
      {props.code && <code className="code">{props.code}</code>}
    </p>
  )
}
