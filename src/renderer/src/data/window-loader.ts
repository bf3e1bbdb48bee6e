import type { IpcError, IpcResult } from '../../../shared/ipc/define'

export interface WindowAnswer<Row> {
  rows: Row[]
  total: number
  offset: number
  syncedAt: string | null
}

export interface WindowLoaderState<Row> {
  data: WindowAnswer<Row> | null
  error: IpcError | null
  /** True only before the first answer: views show skeleton rows then, never a spinner over old data. */
  loading: boolean
}

export type FetchWindow<Row> = (offset: number, limit: number) => Promise<IpcResult<WindowAnswer<Row>>>

/**
 * Keeps the rows around the viewport of a long list loaded, asking main for one window at a time.
 *
 * - A new window is asked for as soon as the viewport comes within `prefetch` rows of the loaded window's edge, so
 *   rows are there before they scroll into view.
 * - At most one request is in flight. While it is, later viewports only update what to ask for next; when the answer
 *   lands, the latest wish is asked for (if the answer does not already cover it).
 * - An answer for the current query is applied whenever it still overlaps the viewport (a slightly stale window beats
 *   an empty one); only answers for a query that has since changed are dropped.
 *
 * Plain TypeScript with no React, so the policy is tested directly; `useWindowQuery` binds it to a view.
 */
export class WindowLoader<Row> {
  private state: WindowLoaderState<Row> = { data: null, error: null, loading: true }
  private listeners = new Set<() => void>()
  private viewport = { first: 0, last: 0 }
  /** Bumped whenever the query or its data changes: answers of an older generation are stale. */
  private generation = 0
  private dataGeneration = -1
  private inFlight: { offset: number; generation: number } | null = null
  /** A window that failed in this generation is not asked for again until reload(), so errors never loop. */
  private failed: { offset: number; generation: number } | null = null

  /** Null until the view names its query: nothing is asked before that. */
  private fetchWindow: FetchWindow<Row> | null = null

  constructor(private readonly options: { windowSize: number; prefetch: number }) {}

  getState = (): WindowLoaderState<Row> => this.state

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The rows on screen (indexes into the whole list); asks for a window if they come near the loaded one's edge. */
  setViewport(first: number, last: number): void {
    this.viewport = { first: Math.max(0, first), last: Math.max(first, last) }
    this.pump()
  }

  /**
   * A new query (another filter) or new data behind the same one: the next answer replaces what is shown. A new filter
   * starts at the top (`fromTop`), where the table is about to scroll, so the first window asked for is the one shown.
   */
  setQuery(fetchWindow: FetchWindow<Row>, options: { fromTop?: boolean } = {}): void {
    this.fetchWindow = fetchWindow
    if (options.fromTop) this.viewport = { first: 0, last: this.viewport.last - this.viewport.first }
    this.invalidate()
  }

  invalidate(): void {
    this.generation += 1
    this.failed = null
    this.pump()
  }

  reload = (): void => this.invalidate()

  /** The first row of the window to ask for now, or null when the loaded (or coming) window already covers it. */
  private wanted(): number | null {
    const { windowSize, prefetch } = this.options
    const total = this.state.data?.total
    const first = Math.max(0, this.viewport.first - prefetch)
    const last =
      total === undefined ? this.viewport.last + prefetch : Math.min(total - 1, this.viewport.last + prefetch)
    const data = this.state.data
    if (data && this.dataGeneration === this.generation) {
      const end = data.offset + data.rows.length - 1
      const coversTail = end >= last || data.offset + data.rows.length >= data.total
      if (data.offset <= first && coversTail) return null
    }
    const visible = this.viewport.last - this.viewport.first + 1
    let offset = Math.max(0, this.viewport.first - Math.floor((windowSize - visible) / 2))
    if (total !== undefined) offset = Math.max(0, Math.min(offset, total - windowSize))
    if (this.failed && this.failed.generation === this.generation && this.failed.offset === offset) return null
    return offset
  }

  private pump(): void {
    if (this.inFlight || !this.fetchWindow) return
    const offset = this.wanted()
    if (offset === null) return
    const request = { offset, generation: this.generation }
    this.inFlight = request
    this.fetchWindow(offset, this.options.windowSize).then(
      (result) => this.settle(request, result),
      (error: unknown) => this.settle(request, { ok: false, error: { code: 'INTERNAL', message: String(error) } })
    )
  }

  private settle(request: { offset: number; generation: number }, result: IpcResult<WindowAnswer<Row>>): void {
    this.inFlight = null
    if (request.generation === this.generation) {
      if (result.ok) this.apply(result.value)
      else {
        this.failed = request
        this.set({ ...this.state, error: result.error, loading: false })
      }
    }
    this.pump()
  }

  private apply(answer: WindowAnswer<Row>): void {
    const fresh = this.dataGeneration !== this.generation
    const end = answer.offset + answer.rows.length - 1
    const overlaps = answer.offset <= this.viewport.last && end >= this.viewport.first
    // A window of the current query is kept if it shows any row on screen, or if nothing of this query is shown yet.
    if (!fresh && !overlaps && answer.rows.length > 0) return
    this.dataGeneration = this.generation
    this.set({ data: answer, error: null, loading: false })
  }

  private set(state: WindowLoaderState<Row>): void {
    this.state = state
    for (const listener of this.listeners) listener()
  }
}
