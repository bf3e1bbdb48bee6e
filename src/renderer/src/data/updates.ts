import { queryOptions, useQuery } from '@tanstack/react-query'
import type { UpdateStatus } from '../../../shared/ipc/channels/desktop'
import type { IpcError } from '../../../shared/ipc/define'
import { read } from './channel-query'
import { channelKey, queryClient } from './query-client'

const UPDATES_KEY = channelKey('updates.status', null)

/** Where the desktop app's update stands: read once, then kept by main's `updates.status` events. */
const updatesQuery = queryOptions<UpdateStatus, IpcError>({
  queryKey: UPDATES_KEY,
  queryFn: () => read('updates.status', null),
  staleTime: Infinity
})

/** Main's `updates.status` event (bridge/events.ts). */
export const applyUpdateStatus = (status: UpdateStatus): void => void queryClient.setQueryData(UPDATES_KEY, status)

/** Asks main now (the page's start). */
export const loadUpdateStatus = (): Promise<void> => queryClient.prefetchQuery(updatesQuery)

/** As main last said (null until it has). */
export const useUpdateStatus = (): UpdateStatus | null => useQuery(updatesQuery).data ?? null
