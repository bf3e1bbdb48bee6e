import { useEffect, useState, type ReactNode } from 'react'
import { formatClock, formatDateTime, formatRelative } from '../format/time'
import { neverSyncedWhy, notLiveLabel, useSync } from '../data/sync'

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
    // A faster tick asked for later (a count of seconds starting) starts from now, not from the last slow tick.
    const first = setTimeout(() => setNow(Date.now()), 0)
    const timer = setInterval(() => setNow(Date.now()), ms)
    return () => {
      clearTimeout(first)
      clearInterval(timer)
    }
  }, [ms])
  return now
}

/** Older than this, cached data says quietly how old it is. */
export const STALE_AFTER_MS = 60_000

/**
 * When this data last matched the service. Not live (offline, not responding, signed out, the Local sandbox stopped,
 * service errors): "Offline · as of 14:02", the cached data staying on screen. Never read: "Not synced yet — why".
 * Live: a muted "matched the service just now", quietly marked once older than a minute. `syncedAt` is what main said
 * about this very answer.
 */
export function Freshness({ syncedAt }: { syncedAt: string | null | undefined }) {
  const connection = useSync((s) => s.connection)
  const offline = useSync((s) => s.status === 'offline')
  const now = useNow()
  const title = syncedAt ? `Last matched the service: ${formatDateTime(syncedAt)}` : undefined
  const notLive = notLiveLabel(connection) ?? (offline ? 'Offline' : null)
  if (notLive) {
    return (
      <span className="freshness offline-note" role="status" title={title}>
        {notLive} · {syncedAt ? `as of ${formatClock(syncedAt)}` : 'never synced on this machine'}
      </span>
    )
  }
  if (!syncedAt) {
    return (
      <span className="freshness muted" role="status">
        Not synced yet — {neverSyncedWhy(connection)}
      </span>
    )
  }
  const stale = now - new Date(syncedAt).getTime() > STALE_AFTER_MS
  return (
    <span className={stale ? 'freshness freshness-stale' : 'freshness muted'} role="status" title={title}>
      matched the service {formatRelative(syncedAt, now)}
    </span>
  )
}

/**
 * The empty state of a list that has never matched the service: it says so and why, never "No transactions yet",
 * which would claim the service has none.
 */
export function NeverSynced() {
  const connection = useSync((s) => s.connection)
  return (
    <EmptyState title={`Not synced yet — ${neverSyncedWhy(connection)}`}>
      Paydesk has not read this list from the service yet: what the service has appears here once it has.
    </EmptyState>
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
