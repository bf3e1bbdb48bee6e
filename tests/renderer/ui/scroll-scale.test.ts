import { describe, expect, it } from 'vitest'
import { MAX_SCROLL_HEIGHT, scrollScale, spacers } from '../../../src/renderer/src/ui/scroll-scale'

const ROW = 34
const VIEWPORT = 600

/** Where a row's top lands in the scroll area, given the real scrollTop, as the table lays it out. */
function rowTopInArea(rows: number, scrollTop: number, index: number) {
  const scale = scrollScale(rows * ROW, VIEWPORT)
  const virtualTop = scrollTop * scale.factor
  const first = Math.max(0, Math.floor(virtualTop / ROW) - 12)
  const last = Math.min(rows - 1, Math.ceil((virtualTop + VIEWPORT) / ROW) + 12)
  const { before, after } = spacers(scale, scrollTop, first * ROW, (last - first + 1) * ROW)
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
