import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import type { ChannelInput, ChannelOutput } from '../../../shared/ipc/contract'
import { paydesk } from '../bridge/paydesk'
import { WindowLoader, type WindowLoaderState } from './window-loader'
import { useWindowGeneration } from './window-generations'

/** Rows asked of main per window: a few screens, so prefetching stays ahead of fast scrolling. */
export const WINDOW_SIZE = 200
/** Ask for the next window once the viewport is this many rows from the loaded window's edge. */
export const PREFETCH_ROWS = 60
export const ROW_HEIGHT = 34

type WindowChannel = 'transactions.query' | 'customers.query' | 'externalAccounts.query'
type RowOf<K extends WindowChannel> = ChannelOutput<K>['rows'][number]

export interface WindowQuery<Row> extends WindowLoaderState<Row> {
  reload(): void
  /** The table reports the rows on screen; the loader keeps windows around them loaded. */
  setViewport(first: number, last: number): void
}

/**
 * A windowed list query: `input` is the filter and sort (compared by value); it asks again when the cache invalidates
 * its channel (main said the data changed). The window offset is the loader's business, driven by the viewport the table reports.
 */
export function useWindowQuery<K extends WindowChannel>(
  channel: K,
  input: Omit<ChannelInput<K>, 'offset' | 'limit'>,
  initialScrollTop = 0
): WindowQuery<RowOf<K>> {
  const generation = useWindowGeneration(channel)
  const key = JSON.stringify(input)
  const [loader] = useState(() => {
    const created = new WindowLoader<RowOf<K>>({ windowSize: WINDOW_SIZE, prefetch: PREFETCH_ROWS })
    const first = Math.floor(initialScrollTop / ROW_HEIGHT)
    created.setViewport(first, first + 30)
    return created
  })
  const queriedKey = useRef<string | null>(null)
  useEffect(() => {
    const base = JSON.parse(key) as ChannelInput<K>
    // The first query keeps the restored scroll position; a changed filter starts at the top.
    const fromTop = queriedKey.current !== null && queriedKey.current !== key
    queriedKey.current = key
    loader.setQuery(
      (offset, limit) =>
        paydesk.invoke(channel, { ...base, offset, limit } as ChannelInput<K>) as ReturnType<
          Parameters<typeof loader.setQuery>[0]
        >,
      { fromTop }
    )
  }, [loader, channel, key, generation])
  const state = useSyncExternalStore(loader.subscribe, loader.getState)
  const [setViewport] = useState(() => loader.setViewport.bind(loader))
  return { ...state, reload: loader.reload, setViewport }
}
