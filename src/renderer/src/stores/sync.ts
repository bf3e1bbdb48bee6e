import { create } from 'zustand'
import type { SyncStatus } from '../../../shared/ipc/channels/sync'

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
}

/** Main's report → what the chip shows: an idle sync has said nothing yet, so the chip says "unknown". */
export function syncViewOf(status: SyncStatus): SyncView {
  return {
    status: status.state === 'idle' ? 'unknown' : status.state,
    lastSyncedAt: status.lastSyncedAt,
    offlineSince: status.offlineSince,
    message: status.message ?? status.reason,
    progress: status.progress ?? null
  }
}

export const useSync = create<SyncView & { apply(view: Partial<SyncView>): void }>((set) => ({
  status: 'unknown',
  lastSyncedAt: null,
  offlineSince: null,
  message: null,
  progress: null,
  apply: (view) => set(view)
}))
