import { afterEach, describe, expect, it, vi } from 'vitest'
import { JUMP_REST_MS, TYPING_REST_MS } from '../../../src/renderer/src/data/window-loader'
import {
  fakeLists,
  fakeMain,
  keyedLoader,
  keyOf,
  loaderOver,
  newLoader,
  rest,
  rowsOf,
  settle,
  TOTAL
} from './fake-main'

// The loader's policy: which window of which query is asked of main, and when. What the cache keeps of the answers is
// window-cache.test.ts's.

describe('WindowLoader', () => {
  it('asks for the window before the viewport reaches its edge', async () => {
    const main = fakeMain()
    const loader = loaderOver(main)
    main.pending.shift()!.answer()
    await settle()
    expect(loader.getState().data?.rows[0]).toBe('row-0')
    loader.setViewport(100, 120) // still 79 rows from the edge at 199: nothing to ask
    expect(main.pending).toHaveLength(0)
    loader.setViewport(130, 150) // within 60 rows of the edge, still fully loaded on screen
    expect(main.pending).toHaveLength(1)
    expect(main.pending[0]!.offset).toBeLessThanOrEqual(130)
    expect(main.pending[0]!.offset + 200).toBeGreaterThan(150 + 60)
  })

  it('keeps one request in flight while scrolling fast, then asks for where the viewport is now', async () => {
    const main = fakeMain()
    const loader = loaderOver(main)
    main.pending.shift()!.answer()
    await settle()
    for (let first = 150; first < 5000; first += 40) loader.setViewport(first, first + 20)
    expect(main.pending).toHaveLength(1)
    main.pending.shift()!.answer()
    await settle()
    // Thousands of rows past the answer: the viewport jumped, and is asked for once it rests there.
    await rest()
    expect(main.pending).toHaveLength(1)
    const next = main.pending[0]!
    expect(next.offset).toBeLessThanOrEqual(4990)
    expect(next.offset + 200).toBeGreaterThan(5010)
    next.answer()
    await settle()
    expect(loader.getState().data?.rows).toContain('row-5000')
  })

  /** The first window is in; the next is asked for rows 180–200, and the viewport moves on before it arrives. */
  async function answerArrivingAfterScrollTo(first: number, last: number) {
    const main = fakeMain()
    const loader = loaderOver(main)
    main.pending.shift()!.answer()
    await settle()
    loader.setViewport(180, 200)
    const asked = main.pending.shift()!
    loader.setViewport(first, last)
    asked.answer()
    await settle()
    return { main, loader, asked }
  }

  it('applies an answer that still overlaps the viewport even if the viewport moved on', async () => {
    // Moved while the answer was on its way; part of it is still on screen.
    const { loader, asked } = await answerArrivingAfterScrollTo(260, 280)
    const data = loader.getState().data!
    expect(data.offset).toBe(asked.offset)
    expect(data.rows).toContain('row-270')
  })

  it('drops an answer that no longer overlaps the viewport and asks again', async () => {
    const { main, loader } = await answerArrivingAfterScrollTo(9000, 9020)
    expect(loader.getState().data?.rows[0]).toBe('row-0')
    await rest()
    expect(main.pending).toHaveLength(1)
    main.pending.shift()!.answer()
    await settle()
    expect(loader.getState().data?.rows).toContain('row-9010')
  })

  it('never applies an answer to an old filter, and keeps the old rows on screen until the new ones arrive', async () => {
    const before = fakeMain(TOTAL, 'old-')
    const loader = loaderOver(before)
    before.pending.shift()!.answer()
    await settle()
    loader.setViewport(150, 170)
    const stale = before.pending.shift()!
    const after = fakeMain(42, 'new-')
    loader.setViewport(0, 20) // a filter change scrolls to the top
    loader.setQuery(after.fetch)
    expect(after.pending).toHaveLength(1) // a new filter is asked at once, not after the old filter's answer
    stale.answer()
    await settle()
    expect(loader.getState().data?.rows[0]).toBe('old-row-0')
    after.pending.shift()!.answer()
    await settle()
    expect(loader.getState().data).toMatchObject({ total: 42, offset: 0 })
    expect(loader.getState().data?.rows[0]).toBe('new-row-0')
  })

  it('re-reads the rows on screen when the data changes, without blanking them meanwhile', async () => {
    const main = fakeMain()
    const loader = loaderOver(main)
    main.pending.shift()!.answer()
    await settle()
    loader.invalidate()
    expect(loader.getState().data?.rows[0]).toBe('row-0')
    expect(main.pending).toHaveLength(1)
    expect(main.pending[0]!.offset).toBe(0)
  })

  it('shows an error once instead of asking again in a loop, and asks again on reload', async () => {
    const main = fakeMain()
    const loader = loaderOver(main)
    main.pending.shift()!.fail()
    await settle()
    expect(loader.getState()).toMatchObject({ loading: false, data: null, error: { code: 'OFFLINE' } })
    expect(main.pending).toHaveLength(0)
    loader.reload()
    main.pending.shift()!.answer()
    await settle()
    expect(loader.getState()).toMatchObject({ error: null, data: { total: TOTAL } })
  })
})

describe('WindowLoader on a filter change', () => {
  it('asks for the top of the new result, not the window the old scroll position was at', async () => {
    const main = fakeMain()
    const loader = loaderOver(main)
    main.pending.shift()!.answer()
    await settle()
    loader.setViewport(5000, 5020)
    await rest()
    main.pending.shift()!.answer()
    await settle()
    const filtered = fakeMain(1000, 'new-')
    loader.setQuery(filtered.fetch, { fromTop: true })
    expect(filtered.pending).toHaveLength(1)
    expect(filtered.pending[0]!.offset).toBe(0)
    filtered.pending.shift()!.answer()
    await settle()
    expect(loader.getState().data?.rows[0]).toBe('new-row-0')
  })
})

describe('WindowLoader drawing answers', () => {
  it('sends the next request only after the answer is drawn, even when the drawn rows report their viewport at once', async () => {
    const main = fakeLists({ all: rowsOf('r', 1000) })
    const { loader, query } = keyedLoader(main)
    query('all')
    main.pending.shift()!.answer()
    // The answer is applied in microtasks (its way through the query cache's fetch); no task has ended yet.
    for (let i = 0; i < 20; i++) await Promise.resolve()
    expect(loader.getState().data?.rows).toHaveLength(31)
    loader.setViewport(0, 25) // the table, drawing those rows, reports where it is
    expect(main.pending).toHaveLength(0)
    await settle()
    expect(main.pending[0]).toMatchObject({ offset: 0, limit: 200 })
  })

  it('keeps the objects of rows that only moved, and takes a changed row as main answers it', async () => {
    type Row = { id: string; n: number }
    let rows: Row[] = [
      { id: 'a', n: 1 },
      { id: 'b', n: 2 },
      { id: 'c', n: 3 }
    ]
    // Main answers fresh copies, as a JSON answer is.
    const fetch = async (offset: number) => ({
      ok: true as const,
      value: { rows: rows.map((r) => ({ ...r })), total: rows.length, offset, syncedAt: null }
    })
    const loader = newLoader<Row>({ rowId: (r) => r.id })
    loader.setQuery(fetch, { key: keyOf('abc') })
    await settle()
    const [, b, c] = loader.getState().data!.rows
    rows = rows.slice(1) // a longer search: the first row drops out, the others move up
    loader.setQuery(fetch, { key: keyOf('bc') })
    await settle()
    expect(loader.getState().data!.rows[0]).toBe(b) // the same objects: memoised rows are not drawn again
    expect(loader.getState().data!.rows[1]).toBe(c)
    const shown = loader.getState().data
    loader.invalidate() // main answers the same again: nothing new to draw
    await settle()
    expect(loader.getState().data).toBe(shown)
    rows = [{ id: 'b', n: 5 }, rows[1]!]
    loader.invalidate()
    await settle()
    expect(loader.getState().data!.rows[0]).toEqual({ id: 'b', n: 5 })
    expect(loader.getState().data!.rows[1]).toBe(c)
  })
})

describe('WindowLoader when the viewport jumps', () => {
  afterEach(() => vi.useRealTimers())

  /** A million rows, the first window in, and the clock under the test's control from then on. */
  async function loadedTop() {
    const main = fakeMain(1_000_000)
    const loader = loaderOver(main)
    main.pending.shift()!.answer()
    await settle()
    vi.useFakeTimers()
    return { main, loader }
  }

  it('asks once, for where a fling across the list stops, after it rested there', async () => {
    const { main, loader } = await loadedTop()
    // A frame's worth of fling at a time, thousands of rows each, past hundreds of windows.
    let first = 0
    for (let frame = 0; frame < 60; frame++) {
      first += 15_000
      loader.setViewport(first, first + 20)
      vi.advanceTimersByTime(16)
    }
    expect(main.pending).toHaveLength(0)
    // Rows just drawn report the same viewport again: not a move, so the rest is not restarted.
    loader.setViewport(first, first + 20)
    vi.advanceTimersByTime(JUMP_REST_MS - 17)
    expect(main.pending).toHaveLength(0)
    vi.advanceTimersByTime(1)
    expect(main.pending).toHaveLength(1)
    const asked = main.pending[0]!
    expect(asked.offset).toBeLessThanOrEqual(first)
    expect(asked.offset + asked.limit).toBeGreaterThan(first + 20)
    vi.advanceTimersByTime(10 * JUMP_REST_MS)
    expect(main.pending).toHaveLength(1)
  })

  it('waits again while a dragged scroll bar keeps moving, and asks for where it is let go', async () => {
    const { main, loader } = await loadedTop()
    for (const first of [300_000, 310_000, 320_000]) {
      loader.setViewport(first, first + 20)
      vi.advanceTimersByTime(JUMP_REST_MS - 10)
    }
    expect(main.pending).toHaveLength(0)
    vi.advanceTimersByTime(10)
    expect(main.pending.map((p) => p.offset <= 320_000 && p.offset + p.limit > 320_020)).toEqual([true])
  })

  it('asks at once for a small move, and nothing for a place the viewport left before resting there', async () => {
    const { main, loader } = await loadedTop()
    loader.setViewport(130, 150) // within the prefetch distance of the loaded window's edge
    expect(main.pending).toHaveLength(1)
    main.pending.shift()!.answer()
    await vi.advanceTimersByTimeAsync(5)
    expect(loader.getState().data?.rows).toContain('row-150')
    expect(main.pending).toHaveLength(0)
    // Away and straight back before resting: nothing is asked for the place it left.
    loader.setViewport(500_000, 500_020)
    loader.setViewport(140, 160)
    await vi.advanceTimersByTimeAsync(10 * JUMP_REST_MS)
    expect(main.pending).toHaveLength(0)
  })
})

describe('WindowLoader while the operator types a search', () => {
  afterEach(() => vi.useRealTimers())

  /** A list that waits for typing to rest before reading ahead, as the app's lists do; the clock is the test's. */
  function typedLoader(lists: Record<string, string[]>) {
    vi.useFakeTimers()
    const main = fakeLists(lists)
    const loader = newLoader({ firstMargin: 10, wholeUpTo: 400, typingRestMs: TYPING_REST_MS })
    const query = (key: string) => loader.setQuery(main.fetchOf(key), { fromTop: true, key: keyOf(key) })
    /** Main answers the oldest request; the loader draws it and asks for what it wants next. */
    const answer = async () => {
      main.pending.shift()!.answer()
      await vi.advanceTimersByTimeAsync(5)
    }
    return { main, loader, query, answer }
  }

  it('shows a new search’s first rows, and reads the rest of the window only once typing rested', async () => {
    const { main, loader, query, answer } = typedLoader({ '41e': rowsOf('a', 2500) })
    query('41e')
    expect(main.pending[0]).toMatchObject({ offset: 0, limit: 31 })
    await answer()
    expect(loader.getState().data?.rows).toHaveLength(31)
    await vi.advanceTimersByTimeAsync(TYPING_REST_MS - 10)
    expect(main.pending).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(10)
    expect(main.pending).toMatchObject([{ key: '41e', offset: 0, limit: 200 }])
  })

  it('never reads ahead for a search the next key replaced: that key’s rows are the only question main gets', async () => {
    const { main, query, answer } = typedLoader({ '41e': rowsOf('a', 2500), '41e3': rowsOf('b', 900) })
    query('41e')
    await answer()
    await vi.advanceTimersByTimeAsync(TYPING_REST_MS / 2)
    query('41e3')
    expect(main.pending).toMatchObject([{ key: '41e3', offset: 0, limit: 31 }])
    await answer()
    await vi.advanceTimersByTimeAsync(TYPING_REST_MS)
    expect(main.pending.map((p) => p.key)).toEqual(['41e3'])
  })

  it('reads ahead at once when the operator scrolls the first rows', async () => {
    const { main, loader, query, answer } = typedLoader({ '41e': rowsOf('a', 2500) })
    query('41e')
    await answer()
    loader.setViewport(5, 25)
    expect(main.pending).toMatchObject([{ key: '41e', offset: 0, limit: 200 }])
  })

  it('asks for where the operator dragged the list after that move rested, not after typing would have', async () => {
    const { main, loader, query, answer } = typedLoader({ '41e': rowsOf('a', 2500) })
    query('41e')
    await answer()
    loader.setViewport(1500, 1520)
    await vi.advanceTimersByTimeAsync(JUMP_REST_MS)
    expect(main.pending.map((p) => p.offset <= 1500 && p.offset + p.limit > 1520)).toEqual([true])
  })

  it('still loads a small result whole at once, so the next key is narrowed in the page', async () => {
    const { main, query, answer } = typedLoader({ '9a3': rowsOf('c', 250) })
    query('9a3')
    await answer()
    expect(main.pending).toMatchObject([{ key: '9a3', offset: 0, limit: 250 }])
  })
})
