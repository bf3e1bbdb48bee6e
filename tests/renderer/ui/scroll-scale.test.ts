import { describe, expect, it } from 'vitest'
import {
  MAX_SCROLL_HEIGHT,
  rowsOnScreen,
  scrollScale,
  scrollTopToShow
} from '../../../src/renderer/src/ui/scroll-scale'

const ROW = 34
const VIEWPORT = 600

/** Where a row's top lands in the scroll area, given the real scrollTop, as the table lays it out. */
function rowTopInArea(rows: number, scrollTop: number, index: number) {
  const { first, last, before, after, scale } = rowsOnScreen({
    count: rows,
    rowHeight: ROW,
    scrollTop,
    viewport: VIEWPORT,
    overscan: 12
  })
  return { top: before + (index - first) * ROW, before, after, first, last, scale }
}

describe('the scroll area of a very long list', () => {
  it('is as tall as its rows when they fit under the browser limit (100,000 rows), with nothing scaled', () => {
    const scale = scrollScale(100_000 * ROW, VIEWPORT)
    expect(scale).toEqual({ domHeight: 100_000 * ROW, factor: 1 })
    const at = rowTopInArea(100_000, 50_000 * ROW, 50_000)
    expect(at.top).toBe(50_000 * ROW)
    expect(at.before + (at.last - at.first + 1) * ROW + at.after).toBe(100_000 * ROW)
  })

  it('stays under the limit at a million rows, yet the bottom of the scroll bar shows the last row', () => {
    const rows = 1_000_000
    const scale = scrollScale(rows * ROW, VIEWPORT)
    expect(scale.domHeight).toBeLessThanOrEqual(MAX_SCROLL_HEIGHT)
    const bottom = scale.domHeight - VIEWPORT
    const at = rowTopInArea(rows, bottom, rows - 1)
    expect(at.last).toBe(rows - 1)
    // The last row ends exactly at the bottom of the viewport.
    expect(at.top + ROW).toBeCloseTo(bottom + VIEWPORT, 6)
    expect(at.before + (at.last - at.first + 1) * ROW + at.after).toBeCloseTo(scale.domHeight, 6)
  })

  it('puts the row under the top of the viewport where the user scrolled, anywhere in a million rows', () => {
    const rows = 1_000_000
    const scale = scrollScale(rows * ROW, VIEWPORT)
    for (const fraction of [0, 0.1, 0.5, 0.9]) {
      const scrollTop = Math.round((scale.domHeight - VIEWPORT) * fraction)
      const index = Math.floor((scrollTop * scale.factor) / ROW)
      const at = rowTopInArea(rows, scrollTop, index)
      // The row that starts at the virtual offset sits at the viewport's top (within one row).
      expect(Math.abs(at.top - scrollTop)).toBeLessThan(ROW)
      expect(at.before).toBeGreaterThanOrEqual(0)
      expect(at.after).toBeGreaterThanOrEqual(0)
    }
  })
})

describe('the rows drawn', () => {
  it('are the rows on screen and a few beyond each edge, and none of an empty list', () => {
    const at = rowsOnScreen({ count: 1000, rowHeight: ROW, scrollTop: 100 * ROW, viewport: 10 * ROW, overscan: 2 })
    expect([at.first, at.last]).toEqual([98, 111])
    expect(at.before).toBe(98 * ROW)
    expect(rowsOnScreen({ count: 0, rowHeight: ROW, scrollTop: 0, viewport: 600, overscan: 2 })).toMatchObject({
      first: -1,
      last: -1
    })
  })

  it('scroll to a row only when it is not fully in view, by the least movement', () => {
    const scale = scrollScale(1000 * ROW, 10 * ROW)
    const view = { rowHeight: ROW, scrollTop: 100 * ROW, viewport: 10 * ROW, scale }
    expect(scrollTopToShow({ ...view, index: 105 })).toBeNull()
    expect(scrollTopToShow({ ...view, index: 90 })).toBe(90 * ROW)
    expect(scrollTopToShow({ ...view, index: 110 })).toBe(101 * ROW)
  })

  it('scroll to a row of a scaled list where it is drawn', () => {
    const rows = 1_000_000
    const scale = scrollScale(rows * ROW, VIEWPORT)
    const scrollTop = scrollTopToShow({ index: 700_000, rowHeight: ROW, scrollTop: 0, viewport: VIEWPORT, scale })!
    const at = rowTopInArea(rows, scrollTop, 700_000)
    expect(at.top).toBeGreaterThanOrEqual(scrollTop - 1e-6)
    expect(at.top + ROW).toBeLessThanOrEqual(scrollTop + VIEWPORT + 1e-6)
  })
})
