import { queryOptions, useQuery } from '@tanstack/react-query'
import type { IpcError } from '../../../shared/ipc/define'
import { read } from './channel-query'
import { useProfiles } from './profiles'
import { queryClient } from './query-client'

/** Each profile's count of payments its approval gate holds for a person, under the profile it came from. */
type Counts = Record<string, number>

/** Not a channel's key: main's change events for `gate.prompts` must not re-read the counts (events tell them). */
const COUNTS_KEY = ['pendingApprovals'] as const

/**
 * Counts shown in the sidebar, Home and Approvals, fed by main's `gate.promptsChanged` events (bridge/events.ts). Each
 * count is kept under the profile it came from, so a screen can only ever show the active profile's: a switch shows
 * the new profile's count, never the previous profile's. A read (the start, and a switch re-querying) asks the active
 * profile's gate and adds its count to the others.
 */
export const countsQuery = queryOptions<Counts, IpcError>({
  queryKey: COUNTS_KEY,
  queryFn: async () => {
    const { profileId, prompts } = await read('gate.prompts', null)
    return { ...queryClient.getQueryData<Counts>(COUNTS_KEY), [profileId]: prompts.length }
  },
  staleTime: Infinity
})

/** A profile's count as its gate told it. */
export const setPendingApprovals = (profileId: string, n: number): void =>
  void queryClient.setQueryData<Counts>(COUNTS_KEY, (counts) => ({ ...counts, [profileId]: n }))

/** Asks the active profile's gate now (the page's start). */
export const loadPendingApprovals = (): Promise<void> => queryClient.prefetchQuery(countsQuery)

/** A profile's count of payments waiting for a person (0 until its gate tells one, and with no profile). */
export const pendingApprovalsOf = (counts: Counts | undefined, profileId: string | undefined): number =>
  profileId ? (counts?.[profileId] ?? 0) : 0

/** Payments the active profile's approval gate holds for a person (0 when unknown). */
export function usePendingApprovals(): number {
  const active = useProfiles((list) => list?.activeProfileId)
  return useQuery({ ...countsQuery, select: (counts) => pendingApprovalsOf(counts, active) }).data ?? 0
}
