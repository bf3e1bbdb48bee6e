import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { useCallback } from 'react'
import type { ChannelInput, ChannelName, ChannelOutput } from '../../../shared/ipc/contract'
import type { IpcError, IpcResult } from '../../../shared/ipc/define'
import { paydesk } from '../bridge/paydesk'
import { channelKey, invalidateChannels } from './query-client'
import { withRowNames } from './row-names'

export interface ChannelQuery<T> {
  data: T | null
  error: IpcError | null
  /** True only before the first answer: views show skeleton rows then, never a spinner over old data. */
  loading: boolean
  reload(): void
}

/** One read of a channel, its failure thrown (as react-query expects of a query function). */
export async function read<K extends ChannelName>(channel: K, input: ChannelInput<K>): Promise<ChannelOutput<K>> {
  const result = withRowNames(await paydesk.invoke(channel, input))
  if (!result.ok) throw result.error
  return result.value
}

/**
 * Reads a channel through the shared cache, keeping the last good data on screen while a new answer (a changed input,
 * or main saying the data changed) is on its way.
 */
export function useChannelQuery<K extends ChannelName>(
  channel: K,
  input: ChannelInput<K>,
  options: {
    enabled?: boolean
    /** Asks again this often (ms) while set: for what main follows at the service. */ every?: number | false
  } = {}
): ChannelQuery<ChannelOutput<K>> {
  const query = useQuery<ChannelOutput<K>, IpcError>({
    queryKey: channelKey(channel, input),
    queryFn: () => read(channel, input),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
    refetchInterval: options.every ?? false
  })
  const { refetch } = query
  const reload = useCallback(() => void refetch(), [refetch])
  return { data: query.data ?? null, error: query.error ?? null, loading: query.isPending, reload }
}

export interface ChannelMutation<K extends ChannelName> {
  /** Sends the write; resolves with main's result envelope (never throws). */
  run(input: ChannelInput<K>): Promise<IpcResult<ChannelOutput<K>>>
  busy: boolean
  /** The last run's failure, until the next run or `clear()`. */
  error: IpcError | null
  /** The last run's whole answer, until the next run or `clear()`. */
  last: IpcResult<ChannelOutput<K>> | null
  clear(): void
}

/**
 * A write to main. While it runs `busy` holds; its failure is kept for the form to show. `invalidates` names reads of
 * this page that the write changes, re-queried once it settles (main's change events cover the rest).
 */
export function useChannelMutation<K extends ChannelName>(
  channel: K,
  options: { invalidates?: readonly ChannelName[] } = {}
): ChannelMutation<K> {
  const mutation = useMutation<IpcResult<ChannelOutput<K>>, never, ChannelInput<K>>({
    mutationFn: (input) => paydesk.invoke(channel, input),
    onSettled: () => (options.invalidates ? invalidateChannels(options.invalidates) : undefined)
  })
  const { mutateAsync, reset } = mutation
  const result = mutation.data
  return {
    run: mutateAsync,
    busy: mutation.isPending,
    error: result && !result.ok ? result.error : null,
    last: result ?? null,
    clear: reset
  }
}
