import { z } from 'zod'

/**
 * One status a transaction was seen in by Paydesk's cache, and when: the service's own time of the change when it
 * stamped one (`service`), else when Paydesk's sync saw it (`paydesk`). A status that came and went between two
 * syncs is never seen, so it is not listed.
 */
export const StatusHistoryEntry = z.object({
  status: z.string(),
  at: z.iso.datetime(),
  source: z.enum(['service', 'paydesk'])
})
export type StatusHistoryEntry = z.infer<typeof StatusHistoryEntry>

/** Oldest first: a transaction's timeline ends with its current status. */
export const StatusHistory = z.array(StatusHistoryEntry)
