/**
 * Measurements of the `ui` bench that run inside the page (Playwright `page.evaluate`), timed with the page's own
 * clock so the round trip to Playwright is not counted. Each function is self-contained: it is serialised into the page.
 */
import type { Page } from '@playwright/test'

/*
 * Bench code is typechecked with Node's types only (no DOM, which must not leak into src/main). The page globals these
 * functions use are declared loosely here, in this module only.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any
declare const requestAnimationFrame: (callback: (time: number) => void) => number
declare const MutationObserver: any
declare const HTMLInputElement: any
/** The page's PerformanceObserver, which knows 'longtask' entries (Node's does not). */
declare const PerformanceObserver: any
type HTMLElement = any
type HTMLButtonElement = any
type HTMLInputElement = any

const TABLE = 'table[aria-label="Transactions"]'

/** Clicks Transactions in the sidebar; ms until its first rows and the total are on screen. */
export function openTransactions(page: Page): Promise<number> {
  return page.evaluate(async (table) => {
    const nav = [...document.querySelectorAll('nav[aria-label="Sections"] button')].find((b: HTMLElement) =>
      b.textContent?.startsWith('Transactions')
    ) as HTMLButtonElement | undefined
    if (!nav) throw new Error('no Transactions button in the sidebar')
    const shown = () =>
      !!document.querySelector(`${table} tbody tr[aria-rowindex]`) &&
      /\d[\d,.\s]* transactions/.test(document.querySelector('.list-meta')?.textContent ?? '')
    const start = performance.now()
    nav.click()
    return new Promise<number>((resolve) => {
      const check = () => (shown() ? resolve(performance.now() - start) : requestAnimationFrame(check))
      check()
    })
  }, TABLE)
}

/**
 * Types each string into the filter one key at a time (clearing it first). A keystroke's latency is the time until
 * the list (count and rows) last changed before 250 ms of quiet; keystrokes that changed nothing on screen are counted
 * apart, since there is no update to time. So are keys that leave fewer than `minChars` characters in the box: the
 * list does not search for those (it keeps what it shows), so they are not a query to time; one that did change the
 * list is timed all the same.
 */
export function typeInFilter(
  page: Page,
  texts: string[],
  minChars: number
): Promise<{ latencies: number[]; lengths: number[]; unchanged: number; belowMin: number }> {
  return page.evaluate(
    async ({ texts, minChars }) => {
      const input = document.querySelector('input[aria-label="Filter transactions"]') as HTMLInputElement | null
      const pane = document.querySelector('.list-pane')
      // The filter controls are not the list: React sets their inputs' attributes again on every render, which would
      // time a key that changed nothing in the list as if it had. Nor is the freshness note ("updated 12 s ago"): it
      // follows the sync's polls and the clock, so an answer carrying a newer sync time (or a clock tick) would time
      // a key whose rows and count were already on screen by when the note changed.
      const notList = () => [
        ...document.querySelectorAll('.list-pane .filters, .list-pane .workbench, .list-pane .freshness')
      ]
      if (!input || !pane || notList().length === 0) throw new Error('no transactions filter on screen')
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!
      let lastChange = 0
      const observer = new MutationObserver((records: { target: unknown }[]) => {
        const skipped = notList()
        if (records.some((r) => !skipped.some((c) => c.contains(r.target)))) lastChange = performance.now()
      })
      observer.observe(pane, { subtree: true, childList: true, characterData: true, attributes: true })
      const latencies: number[] = []
      /** The search's length for each timed key (0: the box cleared), to say which kind of key costs what. */
      const lengths: number[] = []
      let unchanged = 0
      let belowMin = 0
      const key = async (value: string) => {
        lastChange = 0
        const start = performance.now()
        setValue.call(input, value)
        input.dispatchEvent(new Event('input', { bubbles: true }))
        for (;;) {
          await new Promise((r) => setTimeout(r, 25))
          const now = performance.now()
          if (lastChange > 0 && now - lastChange > 250) break
          if (lastChange === 0 && now - start > 3000) break
        }
        const length = [...value.trim()].length
        if (lastChange > 0) {
          latencies.push(lastChange - start)
          lengths.push(length)
        } else if (length > 0 && length < minChars) belowMin += 1
        else unchanged += 1
      }
      for (const text of texts) {
        await key('')
        for (let i = 1; i <= text.length; i++) await key(text.slice(0, i))
      }
      await key('')
      observer.disconnect()
      return { latencies, lengths, unchanged, belowMin }
    },
    { texts, minChars }
  )
}

/**
 * Scrolls the list from top to bottom in `steps` frames; the longest task (Long Tasks API) and frame gap seen, and
 * whether the list's last row is then on screen (browsers cap an element's height: a million rows must still end).
 *
 * The list's end moves while the scroll runs: the Local sandbox keeps adding transactions, which the newest-first list
 * counts at once (a row longer each), and a line may appear above the list (its scroll area shorter). Seen in one scroll
 * of 5,000 rows: 5,021 rows and 40 px less at its end. A bottom measured before a scroll of several seconds was then
 * short of the end (every run said "no"), so the last step goes to the bottom as it is then, and again whenever it has
 * moved before the last row is found; `lastRowNote` says what was seen when the row is not shown.
 */
export function scrollTopToBottom(
  page: Page,
  steps: number
): Promise<{ longestTask: number; longestFrame: number; lastRowShown: boolean; lastRowNote: string }> {
  return page.evaluate(async (steps) => {
    const scroller = document.querySelector('.windowed') as HTMLElement
    scroller.scrollTop = 0
    let longestTask = 0
    const observer = new PerformanceObserver((list: { getEntries(): { duration: number }[] }) => {
      for (const entry of list.getEntries()) longestTask = Math.max(longestTask, entry.duration)
    })
    observer.observe({ type: 'longtask', buffered: false })
    const table = scroller.querySelector('table') as HTMLElement
    const rowCount = () => table.getAttribute('aria-rowcount')
    const countAtStart = rowCount()
    const step = (scroller.scrollHeight - scroller.clientHeight) / steps
    let longestFrame = 0
    let last = performance.now()
    for (let i = 1; i <= steps; i++) {
      await new Promise(requestAnimationFrame)
      const now = performance.now()
      longestFrame = Math.max(longestFrame, now - last)
      last = now
      scroller.scrollTop = i === steps ? scroller.scrollHeight : Math.round(step * i)
    }
    await new Promise((r) => setTimeout(r, 300))
    observer.disconnect()
    const lastRow = () => scroller.querySelector(`tr[aria-rowindex="${rowCount()}"]`)
    const atBottom = () => scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1
    for (let waited = 0; !(lastRow() && atBottom()) && waited < 3000; waited += 100) {
      if (!atBottom()) scroller.scrollTop = scroller.scrollHeight
      await new Promise((r) => setTimeout(r, 100))
    }
    const box = lastRow()?.getBoundingClientRect()
    const view = scroller.getBoundingClientRect()
    const lastRowShown = !!box && box.bottom <= view.bottom + 1 && box.top >= view.top
    const lastRowNote =
      `rows ${countAtStart} at the start, ${rowCount()} at the end${atBottom() ? '' : ', not at the bottom'}; ` +
      (box
        ? `last row at ${box.top.toFixed(0)}-${box.bottom.toFixed(0)} px, list ${view.top.toFixed(0)}-${view.bottom.toFixed(0)} px`
        : 'last row not drawn')
    return { longestTask, longestFrame, lastRowShown, lastRowNote }
  }, steps)
}

/**
 * Scrolls at `pxPerSecond` for `seconds`, by the frame clock; in each frame checks whether the top, middle and bottom
 * of the viewport show loaded rows (not placeholders or blank space). Returns the share of such frames.
 */
export function scrollAtSpeed(
  page: Page,
  pxPerSecond: number,
  seconds: number
): Promise<{ frames: number; drawn: number }> {
  return page.evaluate(
    async ({ pxPerSecond, seconds }) => {
      const scroller = document.querySelector('.windowed') as HTMLElement
      scroller.scrollTop = 0
      await new Promise((r) => setTimeout(r, 300))
      const box = scroller.getBoundingClientRect()
      const header = scroller.querySelector('thead')?.getBoundingClientRect().height ?? 0
      const x = box.left + box.width / 2
      const points = [box.top + header + 6, box.top + box.height / 2, box.bottom - 6]
      const loadedAt = (y: number) => {
        const row = document.elementFromPoint(x, y)?.closest('tr')
        return !!row?.hasAttribute('aria-rowindex')
      }
      let frames = 0
      let drawn = 0
      const start = performance.now()
      let last = start
      let position = 0
      while (performance.now() - start < seconds * 1000) {
        const now = await new Promise<number>(requestAnimationFrame)
        frames += 1
        if (points.every(loadedAt)) drawn += 1
        position += (pxPerSecond * (now - last)) / 1000
        last = now
        scroller.scrollTop = Math.round(position)
      }
      return { frames, drawn }
    },
    { pxPerSecond, seconds }
  )
}
