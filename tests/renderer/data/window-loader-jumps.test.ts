import { afterEach, describe, expect, it, vi } from 'vitest'
import { JUMP_REST_MS } from '../../../src/renderer/src/data/window-loader'
import { fakeMain, loaderOver, settle } from './fake-main'

// A viewport that jumps far from the rows loaded (a dragged scroll bar, a fling) is asked for once it rests: a fling
// across a million rows asks main for the window where it stops, not for each one it passes.

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
