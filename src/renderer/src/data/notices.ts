import { queryOptions, useQuery } from '@tanstack/react-query'
import type { IpcError } from '../../../shared/ipc/define'
import type { Notice } from '../../../shared/notice'
import { read } from './channel-query'
import { channelKey, queryClient } from './query-client'

const NOTICES_KEY = channelKey('notices.list', null)

/**
 * Damaged or orphaned state main told us about, until the operator dismisses it: read once, then kept by main's
 * `notices.changed` events (bridge/events.ts) and a dismissal's answer.
 */
const noticesQuery = queryOptions<Notice[], IpcError>({
  queryKey: NOTICES_KEY,
  queryFn: () => read('notices.list', null),
  staleTime: Infinity
})

/** A list told by main (its event, or a dismissal's answer). */
export const applyNotices = (notices: Notice[]): void => void queryClient.setQueryData(NOTICES_KEY, notices)

/** Asks main for the notices now (the page's start). */
export const loadNotices = (): Promise<void> => queryClient.prefetchQuery(noticesQuery)

const NONE: Notice[] = []

export const useNotices = (): Notice[] => useQuery(noticesQuery).data ?? NONE
