/**
 * Browsers cap an element's height (Chromium near 33.5 million px, Firefox near 17.9 million): at a million rows of
 * 34 px the list's last rows would be out of scroll reach. Past `MAX_SCROLL_HEIGHT`, the scroll area stays that tall
 * and one pixel of scrolling moves several pixels through the rows, so the top and bottom of the scroll bar still
 * meet the first and the last row. Below it, nothing is scaled.
 */
export const MAX_SCROLL_HEIGHT = 10_000_000

export interface ScrollScale {
  /** Height the scroll area is given, in real pixels. */
  domHeight: number
  /** Virtual pixels (row positions) per real pixel of scrolling; 1 when the rows fit. */
  factor: number
}

/** `rowsHeight` is every row's height together; `viewport` the visible height of the scroll area. */
export function scrollScale(rowsHeight: number, viewport: number): ScrollScale {
  if (rowsHeight <= MAX_SCROLL_HEIGHT) return { domHeight: rowsHeight, factor: 1 }
  // Maps the last scroll position (domHeight - viewport) onto the last row offset (rowsHeight - viewport).
  const travel = Math.max(1, MAX_SCROLL_HEIGHT - viewport)
  return { domHeight: MAX_SCROLL_HEIGHT, factor: Math.max(1, rowsHeight - viewport) / travel }
}

/**
 * Where the drawn rows go in the scroll area: rows are laid out at their virtual position shifted so that the
 * virtual offset under the viewport's top lands at the real scrollTop. Returns the spacer heights before and after.
 */
export function spacers(
  scale: ScrollScale,
  scrollTop: number,
  firstRowStart: number,
  drawnHeight: number
): { before: number; after: number } {
  const shift = scrollTop * (scale.factor - 1)
  const before = Math.max(0, Math.min(scale.domHeight - drawnHeight, firstRowStart - shift))
  return { before, after: Math.max(0, scale.domHeight - before - drawnHeight) }
}

/** The rows to draw for a scroll position (real px) and the spacers around them; -1..-1 when there are none. */
export function rowsOnScreen(options: {
  count: number
  rowHeight: number
  scrollTop: number
  viewport: number
  overscan: number
}): { first: number; last: number; before: number; after: number; scale: ScrollScale } {
  const { count, rowHeight, scrollTop, viewport, overscan } = options
  const scale = scrollScale(count * rowHeight, viewport)
  if (count === 0) return { first: -1, last: -1, before: 0, after: 0, scale }
  const top = scrollTop * scale.factor
  const first = Math.max(0, Math.min(count - 1, Math.floor(top / rowHeight) - overscan))
  const last = Math.max(first, Math.min(count - 1, Math.ceil((top + viewport) / rowHeight) - 1 + overscan))
  return { first, last, ...spacers(scale, scrollTop, first * rowHeight, (last - first + 1) * rowHeight), scale }
}

/** The real scrollTop that brings row `index` fully into view with the least movement (null: it is in view). */
export function scrollTopToShow(options: {
  index: number
  rowHeight: number
  scrollTop: number
  viewport: number
  scale: ScrollScale
}): number | null {
  const { index, rowHeight, scrollTop, viewport, scale } = options
  const top = scrollTop * scale.factor
  const start = index * rowHeight
  if (start < top) return start / scale.factor
  if (start + rowHeight > top + viewport) return (start + rowHeight - viewport) / scale.factor
  return null
}
