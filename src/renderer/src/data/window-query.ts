import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import type { ChannelInput, ChannelOutput } from '../../../shared/ipc/contract'
import { MAX_WINDOW_ROWS } from '../../../shared/ipc/wire'
import { paydesk } from '../bridge/paydesk'
import { queryClient } from './query-client'
import { withRowNames } from './row-names'
import { TYPING_REST_MS, WindowLoader, type WindowLoaderState } from './window-loader'

/** Rows asked of main per window: a few screens, so prefetching stays ahead of fast scrolling. */
export const WINDOW_SIZE = 200
/** Ask for the next window once the viewport is this many rows from the loaded window's edge. */
export const PREFETCH_ROWS = 60
export const ROW_HEIGHT = 34
/** A new filter's first window: the rows on screen and this many more (the full window follows as a prefetch). */
export const FIRST_WINDOW_MARGIN = 10
/**
 * A filter matching at most this many rows is loaded whole (one window, at most ~400 KB of rows), so a longer search
 * narrows it in the renderer, rows and count, without waiting for main. A three-character search over 100,000 ids
 * matches a few hundred rows, so from the fourth character on the list follows the keyboard at once.
 */
export const WHOLE_UP_TO = MAX_WINDOW_ROWS

type WindowChannel = 'transactions.query' | 'customers.query' | 'externalAccounts.query'
type RowOf<K extends WindowChannel> = ChannelOutput<K>['rows'][number]
type WindowInput<K extends WindowChannel> = Omit<ChannelInput<K>, 'offset' | 'limit'>

/**
 * The rows a query `to` answers, derived exactly from the whole answer (`rows`) of an earlier query `from`, or null
 * when they cannot be. Must follow main's rule to the letter: what it returns is shown until main's answer replaces it.
 */
export type Narrow<K extends WindowChannel> = (
  from: WindowInput<K>,
  to: WindowInput<K>,
  rows: RowOf<K>[]
) => RowOf<K>[] | null

/**
 * A windowed list's query, without its state: a component that draws the rows subscribes with `useWindowState`, so an
 * answer from main draws the list again, not the whole view around it (its search box, its filters).
 */
export interface WindowQuery<Row> {
  subscribe(listener: () => void): () => void
  getState(): WindowLoaderState<Row>
  reload(): void
  /** The table reports the rows on screen; the loader keeps windows around them loaded. */
  setViewport(first: number, last: number): void
}

export interface WindowQueryOf<K extends WindowChannel> extends WindowQuery<RowOf<K>> {
  /**
   * Asks for the query the view is about to render (`input` as it will pass it), from the event that changes it: main
   * then answers while the page draws the event, instead of after. The render that follows asks nothing more.
   */
  ask(input: WindowInput<K>): void
}

/**
 * A windowed list query: `input` is the filter and sort (compared by value). Each window is a query of the shared cache
 * keyed like any read of the channel ([channel, {...input, offset, limit}]), so the list asks again when the cache
 * invalidates its channel (main said the data changed) and forgets another profile's rows with the cache. Which window
 * is asked for, and when, is the loader's business, driven by the viewport the table reports.
 */
export function useWindowQuery<K extends WindowChannel>(
  channel: K,
  input: WindowInput<K>,
  initialScrollTop = 0,
  /** Stable (module level): how rows of a narrower query are derived from a wider one's whole answer. */
  narrow?: Narrow<K>
): WindowQueryOf<K> {
  const key = JSON.stringify(input)
  const [loader] = useState(() => {
    const created = new WindowLoader<RowOf<K>>({
      client: queryClient,
      channel,
      windowSize: WINDOW_SIZE,
      prefetch: PREFETCH_ROWS,
      firstMargin: FIRST_WINDOW_MARGIN,
      // Only a list that narrows has a use for a whole answer.
      wholeUpTo: narrow ? WHOLE_UP_TO : 0,
      rowId: (row) => row.id,
      typingRestMs: TYPING_REST_MS
    })
    const first = Math.floor(initialScrollTop / ROW_HEIGHT)
    created.setViewport(first, first + 30)
    return created
  })
  const queriedKey = useRef<string | null>(null)
  /** Sets the loader's query (once per key: the loader itself asks again when the data changes). */
  const ask = (key: string) => {
    const base = JSON.parse(key) as ChannelInput<K>
    // The first query keeps the restored scroll position; a changed filter starts at the top.
    const fromTop = queriedKey.current !== null && queriedKey.current !== key
    queriedKey.current = key
    loader.setQuery(
      (offset, limit) =>
        paydesk.invoke(channel, { ...base, offset, limit } as ChannelInput<K>).then(withRowNames) as ReturnType<
          Parameters<typeof loader.setQuery>[0]
        >,
      {
        fromTop,
        key,
        ...(narrow
          ? { narrow: (from: string, rows: RowOf<K>[]) => narrow(JSON.parse(from) as WindowInput<K>, base, rows) }
          : {})
      }
    )
  }
  // Declared before the query's effect, so the list follows invalidations from its first read on.
  useEffect(() => loader.connect(), [loader])
  // After every render: the loader then always answers the query on screen, whether or not an event asked for it first
  // (setting the query it already has does nothing).
  useEffect(() => ask(key))
  const [setViewport] = useState(() => loader.setViewport.bind(loader))
  return {
    subscribe: loader.subscribe,
    getState: loader.getState,
    reload: loader.reload,
    setViewport,
    ask: (input) => ask(JSON.stringify(input))
  }
}

/** The rows, total and error of a windowed query, drawn again whenever they change. */
export const useWindowState = <Row>(query: WindowQuery<Row>): WindowLoaderState<Row> =>
  useSyncExternalStore(query.subscribe, query.getState)
