import { z } from 'zod'
import { channel, IpcErrorCode, NoInput } from '../define'
import { ProfileId } from '../../profile'

/**
 * live: polling normally; syncing: a first full sync is running; offline: the service cannot be reached (cached data
 * only); paused: the machine sleeps; error: the service answers with errors (backing off); idle: no credentials.
 */
export const SYNC_STATES = ['live', 'syncing', 'offline', 'paused', 'error', 'idle'] as const
export const SyncStatus = z.object({
  profileId: ProfileId,
  state: z.enum(SYNC_STATES),
  lastSyncedAt: z.string().nullable(),
  offlineSince: z.string().nullable(),
  /** Current polling interval in ms (what the scheduler chose and why). */
  intervalMs: z.number().int().nonnegative(),
  reason: z.string(),
  message: z.string().optional(),
  code: IpcErrorCode.optional(),
  /** While a long history is read: transactions in the cache so far, of the total the service reported. */
  progress: z.object({ done: z.number().int().min(0), total: z.number().int().min(0) }).optional()
})
export type SyncStatus = z.infer<typeof SyncStatus>

export const TransactionChange = z.object({
  id: z.string(),
  type: z.string(),
  status: z.string(),
  previousStatus: z.string().nullable()
})
export type TransactionChange = z.infer<typeof TransactionChange>

export const syncChannels = {
  'sync.status': channel(NoInput, SyncStatus, 'Live sync state of the active profile'),
  'sync.now': channel(NoInput, SyncStatus, 'Poll the service now (no-op if a poll is running)')
}

export const syncEvents = {
  'sync.status': SyncStatus,
  /** New transactions and status changes seen by a poll. */
  'transactions.changed': z.object({ profileId: ProfileId, changes: z.array(TransactionChange) })
}
