import { create } from 'zustand'

export type SyncStatus = 'live' | 'syncing' | 'offline' | 'error' | 'paused' | 'unknown'

export interface SyncView {
  status: SyncStatus
  /** When the profile's data was last confirmed with the service (ISO). */
  lastSyncedAt: string | null
  /** Since when the service has been unreachable (ISO), for "Offline since 14:02". */
  offlineSince: string | null
  message: string | null
  /** While a long history is read: how many of how many transactions are in. */
  progress: { done: number; total: number } | null
}

export const useSync = create<SyncView & { apply(view: Partial<SyncView>): void }>((set) => ({
  status: 'unknown',
  lastSyncedAt: null,
  offlineSince: null,
  message: null,
  progress: null,
  apply: (view) => set(view)
}))
