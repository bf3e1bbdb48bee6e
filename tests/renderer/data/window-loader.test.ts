import { describe, expect, it } from 'vitest'
import type { IpcResult } from '../../../src/shared/ipc/define'
import { WindowLoader, type WindowAnswer } from '../../../src/renderer/src/data/window-loader'

const TOTAL = 10_000

/** A fake main: records every window asked for and answers only when the test says so. */
function fakeMain(total = TOTAL, tag = '') {
  const pending: { offset: number; limit: number; answer(): void; fail(): void }[] = []
  const fetch = (offset: number, limit: number) =>
    new Promise<IpcResult<WindowAnswer<string>>>((resolve) => {
      pending.push({
        offset,
        limit,
        answer: () => {
          const end = Math.min(total, offset + limit)
          const rows = Array.from({ length: Math.max(0, end - offset) }, (_, i) => `${tag}row-${offset + i}`)
          resolve({ ok: true, value: { rows, total, offset, syncedAt: null } })
        },
        fail: () => resolve({ ok: false, error: { code: 'OFFLINE', message: 'No connection' } })
      })
    })
  return { fetch, pending }
}

const settle = () => new Promise((r) => setTimeout(r, 0))

function loaderOver(main: ReturnType<typeof fakeMain>) {
  const loader = new WindowLoader<string>({ windowSize: 200, prefetch: 60 })
  loader.setViewport(0, 20)
  loader.setQuery(main.fetch)
  return loader
}

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
    expect(after.pending).toHaveLength(0) // one in flight at a time: the new query waits for the old answer
    stale.answer()
    await settle()
    expect(loader.getState().data?.rows[0]).toBe('old-row-0')
    expect(after.pending).toHaveLength(1)
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
