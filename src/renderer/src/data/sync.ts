import { queryOptions, useQuery } from '@tanstack/react-query'
import type { ConnectionView, SyncStatus } from '../../../shared/ipc/channels/sync'
import type { IpcError } from '../../../shared/ipc/define'
import { read } from './channel-query'
import { activeProfileId } from './profiles'
import { channelKey, queryClient } from './query-client'

/** What the top bar's sync chip says; main's `SyncStatus` is the report it is drawn from. */
export type SyncChipState = 'live' | 'syncing' | 'offline' | 'error' | 'paused' | 'unknown'

export interface SyncView {
  status: SyncChipState
  /** When the profile's data was last confirmed with the service (ISO). */
  lastSyncedAt: string | null
  /** Since when the service has been unreachable (ISO), for "Offline since 14:02". */
  offlineSince: string | null
  message: string | null
  /** While a long history is read: how many of how many transactions are in. */
  progress: { done: number; total: number } | null
  /** The connection as main's ConnectionMonitor decided it (null until main has said). */
  connection: ConnectionView | null
}

/** Main's report → what the chip shows: an idle sync has said nothing yet, so the chip says "unknown". */
export function syncViewOf(status: SyncStatus): SyncView {
  return {
    status: status.state === 'idle' ? 'unknown' : status.state,
    lastSyncedAt: status.lastSyncedAt,
    offlineSince: status.offlineSince,
    message: status.message ?? status.reason,
    progress: status.progress ?? null,
    connection: status.connection ?? null
  }
}

/**
 * The top bar's words for the connection, exactly one state. `clock` formats a time of day (the operator's time zone);
 * `now` makes "last answer 40 s ago" true at each render. Local sandbox stopped is followed by its Restart button.
 */
export function connectionLabel(c: ConnectionView, now: number, clock: (iso: string) => string): string {
  switch (c.state) {
    case 'connecting':
      return 'Connecting…'
    case 'live':
      return 'Live'
    case 'slow':
      return `Slow · an answer took ${seconds(c.slowAnswerMs ?? 0)}`
    case 'serviceError':
      return 'Service error'
    case 'notResponding':
      return `Not responding · ${c.lastAnswerAt ? `last answer ${ago(c.lastAnswerAt, now, clock)}` : 'no answer yet'}`
    case 'offline':
      return `Offline since ${clock(c.since)}`
    case 'signedOut':
      return 'Signed out'
    case 'sandboxStopped':
      return 'Local sandbox stopped'
  }
}

/** A list's connection words beside "as of 14:02" when its data is not live: null while the service answers. */
export function notLiveLabel(c: ConnectionView | null): string | null {
  switch (c?.state) {
    case 'offline':
      return 'Offline'
    case 'notResponding':
      return 'Not responding'
    case 'signedOut':
      return 'Signed out'
    case 'sandboxStopped':
      return 'Local sandbox stopped'
    case 'serviceError':
      return 'Service error'
    default:
      return null
  }
}

/** Why a list that never matched the service has no rows to show: "Not synced yet — <this>". */
export function neverSyncedWhy(c: ConnectionView | null): string {
  switch (c?.state) {
    case 'offline':
      return 'Paydesk cannot reach the service.'
    case 'notResponding':
      return 'the service has not answered.'
    case 'signedOut':
      return 'the service refused the credentials, or none are set (Settings).'
    case 'sandboxStopped':
      return 'the Local sandbox stopped: restart it from the top bar.'
    case 'serviceError':
      return 'the service answers with errors.'
    default:
      return 'the first sync is running.'
  }
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`
}

/** "12 s ago", "3 min ago", or "at 14:02" past an hour: a seconds count is what tells a hung service from a slow one. */
function ago(iso: string, now: number, clock: (iso: string) => string): string {
  const s = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000))
  if (s < 60) return `${s} s ago`
  if (s < 3_600) return `${Math.floor(s / 60)} min ago`
  return `at ${clock(iso)}`
}

const SYNC_KEY = channelKey('sync.status', null)

/** The active profile's sync.status events applied so far. */
let told = 0

/** A report of another profile than the active one is not for the top bar (before the list is known, any is). */
function forActive(status: SyncStatus): boolean {
  const active = activeProfileId()
  return !active || status.profileId === active
}

/** What main last said of the active profile's sync (null: nothing yet), kept by its `sync.status` events. */
const syncQuery = queryOptions<SyncStatus | null, IpcError>({
  queryKey: SYNC_KEY,
  queryFn: async () => {
    const asked = told
    const status = await read('sync.status', null)
    // An event that arrived meanwhile is newer than the answer (main computed the answer before it, the event stream
    // only delivered it first): the answer is then dropped, or a top bar that had said Offline went back to
    // Connecting… and flickered. So is an answer about the profile the operator has just left.
    if (told !== asked || !forActive(status)) return queryClient.getQueryData<SyncStatus | null>(SYNC_KEY) ?? null
    return status
  },
  staleTime: Infinity
})

/** Main's `sync.status` event (bridge/events.ts). */
export function applySyncStatus(status: SyncStatus): void {
  if (!forActive(status)) return
  told++
  queryClient.setQueryData(SYNC_KEY, status)
}

/** Asks main for the sync status now (the page's start). */
export const loadSyncStatus = (): Promise<void> => queryClient.prefetchQuery(syncQuery)

const UNKNOWN: SyncView = {
  status: 'unknown',
  lastSyncedAt: null,
  offlineSince: null,
  message: null,
  progress: null,
  connection: null
}

/** What the sync chip shows, or part of it (`pick` keeps a view from drawing again when the rest changes). */
export function useSync(): SyncView
export function useSync<T>(pick: (view: SyncView) => T): T
export function useSync<T>(pick: (view: SyncView) => T = (view) => view as T): T {
  const select = (status: SyncStatus | null) => pick(status ? syncViewOf(status) : UNKNOWN)
  return useQuery({ ...syncQuery, select }).data ?? pick(UNKNOWN)
}
