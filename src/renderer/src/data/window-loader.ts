import { replaceEqualDeep, type QueryClient } from '@tanstack/react-query'
import type { IpcError, IpcResult } from '../../../shared/ipc/define'
import { WindowCache, type FetchWindow, type WindowAnswer } from './window-cache'

export type { FetchWindow, WindowAnswer } from './window-cache'

export interface WindowLoaderState<Row> {
  data: WindowAnswer<Row> | null
  error: IpcError | null
  /** True only before the first answer: views show skeleton rows then, never a spinner over old data. */
  loading: boolean
}

export interface QueryOptions<Row> {
  /** A new filter: the table is about to scroll to the top, so the first window asked for is the top. */
  fromTop?: boolean
  /**
   * Names the query: its filter and sort as JSON, the input of the channel's read without offset and limit. Given, the
   * same key set again is already being answered, and nothing is done: a view may ask for its next query in the input
   * event (so main works while the page draws the key), and its effect then asks for the same query again.
   */
  key?: string
  /**
   * The rows of this query, derived exactly from the whole answer of another query in the cache (its key given), or
   * null when they cannot be. Shown at once, and still asked of main.
   */
  narrow?(fromKey: string, rows: Row[]): Row[] | null
}

/**
 * A viewport farther than this many rows from the rows loaded has jumped there (a dragged scroll bar, a fast fling):
 * scrolling by wheel or keys moves a few rows a frame, and the prefetch keeps the rows ahead of it loaded.
 */
export const JUMP_ROWS = 200
/**
 * How long a jumped viewport must rest before its window is asked for. A fling across a million rows then asks for
 * the rows where it stops, not for each window it passes: at a million rows each of those was a deep read on main,
 * whose CPU the page's own tasks waited for (long tasks of 65-67 ms while scrolling to the bottom).
 */
export const JUMP_REST_MS = 100

/**
 * How long a new query's first rows stand before the rest of its window is asked for, unless the viewport moves (a
 * scroll asks at once): the operator may still be typing. The reader answers one query at a time, and at a million
 * rows the 200-row window of a three-character search took it 100-570 ms, which the next keystroke's query waited
 * behind (measured: a four-character key's rows came 380 ms after the key, 62 ms of them its own). Keys come faster
 * than this while typing; a whole small result is still loaded at once, since longer searches narrow it in the page.
 */
export const TYPING_REST_MS = 400

interface Request {
  offset: number
  limit: number
  generation: number
  key: string | null
}

/**
 * Keeps the rows around the viewport of a long list loaded, asking main for one window at a time. Each window is a
 * query of the shared cache (window-cache.ts): this class is the policy of which window's key is asked for, and when.
 *
 * - A new window is asked for as soon as the viewport comes within `prefetch` rows of the loaded window's edge, so
 *   rows are there before they scroll into view.
 * - At most one request of the current query is in flight. While it is, later viewports only update what to ask for
 *   next; when the answer lands, the latest wish is asked for (if the answer does not already cover it). A new query
 *   asks at once: the answer to an old one is not waited for.
 * - A new query's first window is just what is on screen (`firstMargin` rows more): the smaller the answer, the sooner
 *   it is there. The full window follows as a prefetch.
 * - A viewport that jumped (more than JUMP_ROWS from the rows loaded) is asked for once it rested JUMP_REST_MS: a drag
 *   or a fling asks for where it stops. Smaller moves ask at once.
 * - An answer for the current query is applied whenever it still overlaps the viewport (a slightly stale window beats
 *   an empty one); only answers for a query that has since changed are dropped.
 * - A result of at most `wholeUpTo` rows is then loaded whole, in the background: a longer search typed next is
 *   narrowed from it at once (`narrow`), rows and count exact, where it would otherwise wait for main.
 * - The first windows of recent queries stay in the cache (until its gcTime, or another profile). Going back to one
 *   (the search box cleared) shows it at once; narrowing one whose whole result was there shows the derived rows at
 *   once (`narrow`). Either way main is asked, and its answer replaces what is shown where it differs: rows main
 *   answers unchanged keep their objects, so memoised rows are not drawn again and the screen does not flicker.
 * - Main saying the channel's data changed (its reads invalidated), or the window on screen dropped from the cache
 *   (another profile), re-reads the rows on screen, keeping them shown meanwhile.
 *
 * Plain TypeScript with no React, so the policy is tested directly; `useWindowQuery` binds it to a view.
 */
export class WindowLoader<Row> {
  private state: WindowLoaderState<Row> = { data: null, error: null, loading: true }
  private listeners = new Set<() => void>()
  private viewport = { first: 0, last: 0 }
  /** Bumped whenever the query or its data changes: answers of an older generation are stale. */
  private generation = 0
  /** The generation whose answer from main is shown (a remembered or derived answer does not count). */
  private dataGeneration = -1
  private inFlight: Request | null = null
  private pumpScheduled = false
  /** When the viewport last moved (Date.now()). */
  private movedAt = 0
  /** The wait for a rest (a jump's, or typing's), if one is set, and when it ends (Date.now()). */
  private restTimer: ReturnType<typeof setTimeout> | null = null
  private restAt = 0
  /** When the first rows main answered for the current query were shown (Date.now()). */
  private firstShownAt = 0
  /** A window that failed in this generation is not asked for again until reload(), so errors never loop. */
  private failed: { offset: number; generation: number } | null = null
  private readonly cache: WindowCache<Row>
  private key: string | null = null
  /** The key of the query whose answer from main was last applied. */
  private confirmedKey: string | null | undefined = undefined
  /** The key of the query whose rows are shown (from main, remembered or derived). */
  private shownKey: string | null | undefined = undefined
  private narrow: QueryOptions<Row>['narrow'] = undefined

  /** Null until the view names its query: nothing is asked before that. */
  private fetchWindow: FetchWindow<Row> | null = null
  private readonly firstMargin: number | null
  private readonly wholeUpTo: number
  private readonly typingRestMs: number

  constructor(
    private readonly options: {
      /** The cache the windows are queries of, and the channel they read. */
      client: QueryClient
      channel: string
      windowSize: number
      prefetch: number
      /** Set: a new query's first window is the rows on screen and this many more (unset: a full window). */
      firstMargin?: number
      /**
       * A result of at most this many rows is loaded whole once main said how many there are: a longer search is then
       * narrowed from it at once, rows and count, instead of waiting for main (unset: never).
       */
      wholeUpTo?: number
      /**
       * Names a row. Given, an answer's rows keep the objects of the rows shown with the same name (not the same
       * position): rows that only moved (a longer search dropped the ones above) are not drawn again, and a new row
       * costs no deep comparison with whatever row was at its place.
       */
      rowId?(row: Row): string
      /**
       * Set: a new query's first rows stand this long, or until the viewport moves, before the rest of the window is
       * asked for (TYPING_REST_MS says why; unset: at once).
       */
      typingRestMs?: number
    }
  ) {
    this.firstMargin = options.firstMargin ?? null
    this.cache = new WindowCache(options.client, options.channel)
    this.wholeUpTo = options.wholeUpTo ?? 0
    this.typingRestMs = options.typingRestMs ?? 0
  }

  getState = (): WindowLoaderState<Row> => this.state

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Follows the cache's invalidations of the channel while the list is shown; returns how to stop. */
  connect(): () => void {
    return this.cache.watch(() => this.invalidate())
  }

  /** The rows on screen (indexes into the whole list); asks for a window if they come near the loaded one's edge. */
  setViewport(first: number, last: number): void {
    const viewport = { first: Math.max(0, first), last: Math.max(first, last) }
    // Rows just drawn report the viewport they were drawn for again: only a change is a move.
    if (viewport.first !== this.viewport.first || viewport.last !== this.viewport.last) this.movedAt = Date.now()
    this.viewport = viewport
    // Rows just drawn report their viewport from the same task: the request waits for the pump already scheduled.
    if (!this.pumpScheduled) this.pump()
  }

  /**
   * A new query (another filter) or new data behind the same one: the next answer replaces what is shown. A new filter
   * starts at the top (`fromTop`), where the table is about to scroll, so the first window asked for is the one shown.
   */
  setQuery(fetchWindow: FetchWindow<Row>, options: QueryOptions<Row> = {}): void {
    const key = options.key ?? null
    if (key !== null && key === this.key && this.fetchWindow) return
    this.fetchWindow = fetchWindow
    if (options.fromTop) this.viewport = { first: 0, last: this.viewport.last - this.viewport.first }
    this.generation += 1
    this.failed = null
    this.narrow = options.narrow
    const instant = key !== null && key !== this.key ? this.rememberedAnswer(key, options.narrow) : null
    this.key = key
    if (instant) {
      this.show(instant, key)
      // Main is asked to confirm in the next task, once the rows are drawn: a request costs the page a few ms to send
      // (more under load), which would otherwise hold back the drawing of rows the operator already has.
      this.pumpSoon()
    } else this.pump()
  }

  /** Asks main for what is wanted in the next task, after the view has drawn what it was just given. */
  private pumpSoon(): void {
    if (this.pumpScheduled) return
    this.pumpScheduled = true
    setTimeout(() => {
      this.pumpScheduled = false
      this.pump()
    }, 0)
  }

  invalidate(): void {
    this.generation += 1
    this.failed = null
    this.pump()
  }

  reload = (): void => this.invalidate()

  /** The rows of `key` the cache can show at once: its own first window, or one narrowed from a whole answer. */
  private rememberedAnswer(key: string, narrow: QueryOptions<Row>['narrow']): WindowAnswer<Row> | null {
    const exact = this.cache.firstWindows(key)[0]
    if (exact) return exact[1]
    if (!narrow) return null
    for (const [from, answer] of this.cache.firstWindows()) {
      if (answer.offset !== 0 || answer.rows.length < answer.total) continue
      const rows = narrow(from, answer.rows)
      if (rows) return { rows, total: rows.length, offset: 0, syncedAt: answer.syncedAt }
    }
    return null
  }

  /** The window to ask for now, or null when the loaded (or coming) window already covers the viewport. */
  private wanted(): { offset: number; limit: number } | null {
    const { windowSize, prefetch } = this.options
    const total = this.state.data?.total
    const first = Math.max(0, this.viewport.first - prefetch)
    const last =
      total === undefined ? this.viewport.last + prefetch : Math.min(total - 1, this.viewport.last + prefetch)
    const data = this.state.data
    const confirmed = data !== null && this.dataGeneration === this.generation
    if (data && confirmed && data.total <= this.wholeUpTo) {
      // Small enough to hold whole: one request for all of it (then nothing more to ask while the query stands).
      if (data.offset === 0 && data.rows.length >= data.total) return null
      if (this.failed && this.failed.generation === this.generation && this.failed.offset === 0) return null
      return { offset: 0, limit: data.total }
    }
    if (data && confirmed) {
      const end = data.offset + data.rows.length - 1
      const coversTail = end >= last || data.offset + data.rows.length >= data.total
      if (data.offset <= first && coversTail) return null
    }
    const visible = this.viewport.last - this.viewport.first + 1
    let offset = Math.max(0, this.viewport.first - Math.floor((windowSize - visible) / 2))
    if (total !== undefined) offset = Math.max(0, Math.min(offset, total - windowSize))
    if (this.failed && this.failed.generation === this.generation && this.failed.offset === offset) return null
    // A query whose rows from main are not on screen yet (none, or remembered or derived ones) first gets just the rows
    // on screen: a smaller answer comes back sooner, and the full window follows as a prefetch. Where main answers
    // the same rows, they keep their objects, so nothing on screen is drawn again.
    const limit =
      this.firstMargin === null || (data !== null && this.confirmedKey === this.key)
        ? windowSize
        : Math.min(windowSize, Math.max(1, this.viewport.last - offset + 1 + this.firstMargin))
    return { offset, limit }
  }

  private pump(): void {
    if (!this.fetchWindow) return
    if (this.inFlight && this.inFlight.generation === this.generation) return
    const window = this.wanted()
    if (window === null) return
    const rest = this.jumped()
      ? this.movedAt + JUMP_REST_MS - Date.now()
      : this.aheadOfTyping(window)
        ? this.firstShownAt + this.typingRestMs - Date.now()
        : 0
    if (rest > 0) {
      this.waitForRest(rest)
      return
    }
    const request: Request = { ...window, generation: this.generation, key: this.key }
    this.inFlight = request
    void this.cache
      .fetch({ list: this.key, offset: window.offset, limit: window.limit }, this.fetchWindow)
      .then((result) => this.settle(request, result))
  }

  /**
   * Whether the viewport is more than JUMP_ROWS from the rows main answered for this query and data. A new query or
   * new data is never a jump: its rows are asked for at once, wherever the old ones were.
   */
  private jumped(): boolean {
    const data = this.state.data
    if (!data || this.dataGeneration !== this.generation) return false
    const end = data.offset + Math.max(0, data.rows.length - 1)
    return Math.max(data.offset - this.viewport.last, this.viewport.first - end) > JUMP_ROWS
  }

  /**
   * Whether `window` only reads ahead of a new query's first rows, all on screen, while the operator may still be
   * typing: the viewport has not moved since they were shown, and it is not a small result's whole answer.
   */
  private aheadOfTyping(window: { offset: number; limit: number }): boolean {
    const data = this.state.data
    if (this.typingRestMs <= 0 || !data || this.dataGeneration !== this.generation) return false
    if (data.total <= this.wholeUpTo && window.offset === 0 && window.limit === data.total) return false
    const end = data.offset + data.rows.length - 1
    const onScreen = data.offset <= this.viewport.first && (end >= this.viewport.last || end >= data.total - 1)
    return onScreen && this.movedAt <= this.firstShownAt
  }

  /**
   * Asks again once the viewport may have rested (pump then waits on if it moved meanwhile). A shorter rest replaces a
   * longer one already set: a jump made while typing rested is asked for after the jump's rest, not the typing's.
   */
  private waitForRest(ms: number): void {
    const at = Date.now() + ms
    if (this.restTimer !== null) {
      if (this.restAt <= at) return
      clearTimeout(this.restTimer)
    }
    this.restAt = at
    this.restTimer = setTimeout(() => {
      this.restTimer = null
      this.pump()
    }, ms)
  }

  private settle(request: Request, result: IpcResult<WindowAnswer<Row>>): void {
    if (this.inFlight === request) this.inFlight = null
    if (result.ok && result.value.offset === 0 && request.key !== null) {
      // The whole answer of a wider search, landing after a longer one was typed (while main is still busy with it):
      // the longer one's rows are derived from it now, rather than after main's own answer, which queues behind it.
      if (request.key !== this.key && this.key !== null && this.shownKey !== this.key) {
        const derived = this.rememberedAnswer(this.key, this.narrow)
        if (derived) this.show(derived, this.key)
      }
    }
    const current = request.generation === this.generation
    if (current) {
      if (result.ok) this.apply(result.value, request)
      else {
        this.failed = request
        this.set({ ...this.state, error: result.error, loading: false })
      }
    }
    // After an answer of the current query, the next window is asked once the view has drawn it: the request (and
    // main's work on it) would otherwise compete with drawing the rows the operator is waiting for.
    if (current && result.ok) this.pumpSoon()
    else this.pump()
  }

  private apply(answer: WindowAnswer<Row>, { key, offset, limit }: Request): void {
    const fresh = this.dataGeneration !== this.generation
    const end = answer.offset + answer.rows.length - 1
    const overlaps = answer.offset <= this.viewport.last && end >= this.viewport.first
    // A window of the current query is kept if it shows any row on screen, or if nothing of this query is shown yet.
    if (!fresh && !overlaps && answer.rows.length > 0) return
    if (key !== this.confirmedKey) this.firstShownAt = Date.now()
    this.dataGeneration = this.generation
    this.confirmedKey = key
    this.cache.hold({ list: key, offset, limit })
    this.show(answer, key)
  }

  /** Shows an answer, keeping the objects of what is already shown wherever it is equal (nothing to redraw there). */
  private show(answer: WindowAnswer<Row>, key: string | null): void {
    this.shownKey = key
    this.set({ data: this.merged(answer), error: null, loading: false })
  }

  private merged(answer: WindowAnswer<Row>): WindowAnswer<Row> {
    const now = this.state.data
    const rowId = this.options.rowId
    if (!now || !rowId) return replaceEqualDeep(now, answer)
    const shown = new Map(now.rows.map((row) => [rowId(row), row]))
    const rows = answer.rows.map((row) => {
      const before = shown.get(rowId(row))
      return before === undefined ? row : replaceEqualDeep(before, row)
    })
    const sameRows = rows.length === now.rows.length && rows.every((row, i) => row === now.rows[i])
    const { rows: _answerRows, ...answerRest } = answer
    const { rows: _nowRows, ...nowRest } = now
    if (sameRows && replaceEqualDeep(nowRest, answerRest) === nowRest) return now
    return { ...answer, rows: sameRows ? now.rows : rows }
  }

  private set(state: WindowLoaderState<Row>): void {
    const now = this.state
    if (now.data === state.data && now.error === state.error && now.loading === state.loading) return
    this.state = state
    for (const listener of this.listeners) listener()
  }
}
