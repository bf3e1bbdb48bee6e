import { QueryObserver, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import type { IpcError, IpcResult } from '../../../shared/ipc/define'
import { queryClient } from './query-client'

export interface WindowAnswer<Row> {
  rows: Row[]
  total: number
  offset: number
  syncedAt: string | null
}

export type FetchWindow<Row> = (offset: number, limit: number) => Promise<IpcResult<WindowAnswer<Row>>>

/** A window's place in the list: which rows of which query. `list` is the filter and sort, as JSON (null: none). */
interface WindowOf {
  list: string | null
  offset: number
  limit: number
}

/**
 * The key of one window: the channel's read with the window's offset and limit, as any other read of the channel is
 * keyed (`channelKey`), so the channel's invalidations and a profile's removal reach windows like every other read.
 */
const windowKey = (channel: string, { list, offset, limit }: WindowOf): QueryKey => [
  channel,
  { ...(list === null ? {} : (JSON.parse(list) as object)), offset, limit }
]

/** The filter and sort a window's key reads, as JSON (the key's input without offset and limit). */
function listOf(query: Query): string | null {
  const input = query.queryKey[1]
  if (typeof input !== 'object' || input === null || !('offset' in input) || !('limit' in input)) return null
  const { offset: _offset, limit: _limit, ...rest } = input as Record<string, unknown>
  return JSON.stringify(rest)
}

/**
 * A windowed list's answers in the shared query cache. The loader (window-loader.ts) decides which windows to ask for
 * and when; every answer lands here as the query of its key, so there is one cache in the renderer: the first windows
 * of recent filters are there to show again at once, the channel's invalidations reach them, and another profile's
 * removal drops them.
 */
export class WindowCache<Row> {
  /**
   * Holds the window on screen in the cache: a query with no observer is collected once its gcTime passes, and the
   * list's next invalidation would then find nothing of it to invalidate. Disabled, so react-query never refetches it
   * itself: the loader decides what is read, one window at a time.
   */
  private observer: QueryObserver<WindowAnswer<Row>> | null = null
  private unsubscribe: (() => void) | null = null

  constructor(
    private readonly client: QueryClient,
    private readonly channel: string
  ) {}

  /**
   * Asks main for a window through the cache. The loader asks again for a key it already asked only after a change (or
   * a reload): an answer still on its way for that key may predate the change, so it is cancelled and asked again,
   * never joined. (react-query's `cancelRefetch` would join it while the key has no answer yet, and the cache's second
   * invalidation of a first read does not help here: it only waits for queries a view observes.)
   */
  fetch(window: WindowOf, fetchWindow: FetchWindow<Row>): Promise<IpcResult<WindowAnswer<Row>>> {
    const options = this.client.defaultQueryOptions({
      queryKey: windowKey(this.channel, window),
      queryFn: async () => {
        const result = await fetchWindow(window.offset, window.limit)
        if (!result.ok) throw result.error
        return result.value
      },
      // A first window is what a filter shows at once when the operator comes back to it; a window further down is
      // only useful while it is on screen (then held by the observer), so a long scroll leaves nothing behind.
      ...(window.offset === 0 ? {} : { gcTime: 0 }),
      // The loader keeps the objects of unchanged rows itself, by row id (a row that moved keeps its object too): a
      // deep comparison here as well would only cost the page time on each answer.
      structuralSharing: false,
      retry: false
    })
    const query = this.client.getQueryCache().build(this.client, options)
    // Silently: the cancelled read's caller is handed the new read's answer.
    if (query.state.fetchStatus !== 'idle') void query.cancel({ silent: true })
    return query.fetch(options).then(
      (value) => ({ ok: true, value }) as const,
      (error: unknown) => ({ ok: false, error: asIpcError(error) }) as const
    )
  }

  /** Keeps the window on screen in the cache (see `observer`). */
  hold(window: WindowOf): void {
    const options = {
      queryKey: windowKey(this.channel, window),
      enabled: false,
      ...(window.offset === 0 ? {} : { gcTime: 0 })
    }
    if (this.observer) this.observer.setOptions(options)
    else this.observer = new QueryObserver<WindowAnswer<Row>>(this.client, options)
    if (this.unsubscribe && !this.observer.hasListeners()) this.observer.subscribe(() => undefined)
  }

  /** The answers at the top of a list held in the cache, the most recent first, by the list's filter and sort. */
  firstWindows(list?: string | null): [string, WindowAnswer<Row>][] {
    const found = this.client
      .getQueryCache()
      .findAll({ queryKey: [this.channel] })
      .filter((query) => query.state.data !== undefined && (query.state.data as WindowAnswer<Row>).offset === 0)
      .map((query) => [listOf(query), query.state.data as WindowAnswer<Row>, query.state.dataUpdatedAt] as const)
      .filter((found): found is [string, WindowAnswer<Row>, number] => found[0] !== null)
      .filter(([key]) => list === undefined || key === list)
    // Newest first; of two answered in the same millisecond, the later one in the cache.
    return found
      .reverse()
      .sort((a, b) => b[2] - a[2])
      .map(([key, answer]) => [key, answer])
  }

  /**
   * Calls `changed` (once per task) when main says the list's data changed (the channel's reads are invalidated) or
   * the window on screen, or one on its way, was dropped (another profile). Returns how to stop.
   */
  watch(changed: () => void): () => void {
    let scheduled = false
    const stop = this.client.getQueryCache().subscribe((event) => {
      if (event.query.queryKey[0] !== this.channel) return
      const invalidated = event.type === 'updated' && event.action.type === 'invalidate'
      // Dropped by the cache's owner (the cache never collects a query on its way), not scrolled past: another profile.
      const dropped =
        event.type === 'removed' &&
        (event.query === this.observer?.getCurrentQuery() || event.query.state.fetchStatus === 'fetching')
      if (!(invalidated || dropped) || scheduled) return
      scheduled = true
      queueMicrotask(() => {
        scheduled = false
        changed()
      })
    })
    this.unsubscribe = stop
    this.observer?.subscribe(() => undefined)
    return () => {
      stop()
      this.unsubscribe = null
      // Unsubscribing the observer's only listener takes it off its query, which the cache may then collect.
      this.observer?.destroy()
      this.observer = null
    }
  }
}

/** The query function throws main's error as it came; anything else (a cancelled read) is reported as internal. */
function asIpcError(error: unknown): IpcError {
  if (typeof error === 'object' && error !== null && 'code' in error && 'message' in error) return error as IpcError
  return { code: 'INTERNAL', message: String(error) }
}

/**
 * A number that changes whenever main says a channel's data changed (its reads are invalidated): what a view
 * derives from the time as well as the data (a preset like "last 7 days") is derived again then.
 */
export function useChannelChanges(channel: string, client: QueryClient = queryClient): number {
  const [changes, setChanges] = useState(0)
  useEffect(() => {
    let scheduled = false
    return client.getQueryCache().subscribe((event) => {
      // Only invalidations: a window scrolled past is removed from the cache too, which changes nothing.
      if (event.query.queryKey[0] !== channel || scheduled) return
      if (!(event.type === 'updated' && event.action.type === 'invalidate')) return
      scheduled = true
      queueMicrotask(() => {
        scheduled = false
        setChanges((n) => n + 1)
      })
    })
  }, [channel, client])
  return changes
}
