import { z } from 'zod'
import { channel, IpcErrorCode, NoInput } from '../define'
import { ProfileId } from '../../profile'

/**
 * live: polling normally; syncing: a first full sync is running; offline: the service cannot be reached (cached data
 * only); paused: the machine sleeps; error: the service answers with errors (backing off); idle: no credentials.
 */
const SYNC_STATES = ['live', 'syncing', 'offline', 'paused', 'error', 'idle'] as const

/**
 * What the top bar says about the connection, exactly one of these (main's ConnectionMonitor decides, with hysteresis):
 * connecting: nothing answered or failed yet; live; slow: an answer took over SLOW_ANSWER_MS; notResponding: a request
 * has waited NOT_RESPONDING_MS with no answer, or timed out; offline: the service cannot be reached (no network,
 * refused, DNS); signedOut: 401/403, or no client secret; serviceError: the service answers, with 5xx/429;
 * sandboxStopped: the Local sandbox's process is not running (the top bar offers Restart).
 */
export const ConnectionState = z.enum([
  'connecting',
  'live',
  'slow',
  'serviceError',
  'notResponding',
  'offline',
  'signedOut',
  'sandboxStopped'
])
export type ConnectionState = z.infer<typeof ConnectionState>

/** An answer slower than this makes the connection Slow (see connection-state.ts for why 3 s). */
export const SLOW_ANSWER_MS = 3_000
/** A request unanswered this long makes the connection Not responding. */
export const NOT_RESPONDING_MS = 10_000

export const ConnectionView = z.object({
  state: ConnectionState,
  /** When this state began to be shown (ISO). */
  since: z.string(),
  /** The last time the service answered anything (ISO), for "Not responding · last answer 40 s ago". */
  lastAnswerAt: z.string().nullable(),
  /** Slow: how long the slowest answer of this slow spell took. */
  slowAnswerMs: z.number().int().nonnegative().optional(),
  /** One sentence for the operator: what is wrong and what to do (the chip's tooltip). */
  detail: z.string()
})
export type ConnectionView = z.infer<typeof ConnectionView>

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
  progress: z.object({ done: z.number().int().min(0), total: z.number().int().min(0) }).optional(),
  /** The connection as the top bar shows it (always set by main; optional for older reports). */
  connection: ConnectionView.optional()
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
  'sync.now': channel(NoInput, SyncStatus, 'Poll the service now (no-op if a poll is running)'),
  'sync.restartLocalSandbox': channel(
    NoInput,
    SyncStatus,
    'Start the Local sandbox’s process again (after it stopped) and re-open the Local profile’s session'
  )
}

export const syncEvents = {
  'sync.status': SyncStatus,
  /** New transactions and status changes seen by a poll. */
  'transactions.changed': z.object({ profileId: ProfileId, changes: z.array(TransactionChange) })
}
