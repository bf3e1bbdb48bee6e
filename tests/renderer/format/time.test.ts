import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  currentTimeZone,
  formatClock,
  formatDateTime,
  formatRelative,
  setTimeZone
} from '../../../src/renderer/src/format/time'

afterEach(() => setTimeZone('local'))

const NOW = Date.parse('2026-03-10T12:00:00Z')

describe('formatRelative', () => {
  it('says "just now", minutes, hours, then the date', () => {
    expect(formatRelative('2026-03-10T11:59:40Z', NOW)).toBe('just now')
    expect(formatRelative('2026-03-10T11:57:00Z', NOW)).toBe(
      new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(-3, 'minute')
    )
    expect(formatRelative('2026-03-10T07:00:00Z', NOW)).toBe(
      new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(-5, 'hour')
    )
    expect(formatRelative('2025-12-24T08:00:00Z', NOW)).toBe(
      new Date('2025-12-24T08:00:00Z').toLocaleDateString(undefined, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        timeZoneName: 'short'
      })
    )
  })

  it('names the time zone of an absolute date', () => {
    const zone = new Date('2025-12-24T08:00:00Z')
      .toLocaleDateString(undefined, { timeZoneName: 'short' })
      .split(', ')
      .at(-1)!
    expect(formatRelative('2025-12-24T08:00:00Z', NOW)).toContain(zone)
  })

  it('gives the same text for every row however many rows are formatted, in any order', () => {
    const times = Array.from({ length: 200 }, (_, i) => new Date(NOW - i * 7_919_000).toISOString())
    const once = times.map((t) => formatRelative(t, NOW))
    expect([...times].reverse().map((t) => formatRelative(t, NOW))).toEqual([...once].reverse())
    expect(new Set(once).size).toBeGreaterThan(10)
  })

  it('builds its formatters once, not once per cell', () => {
    formatRelative('2026-03-10T11:00:00Z', NOW)
    formatRelative('2025-01-01T00:00:00Z', NOW)
    const relative = vi.spyOn(Intl, 'RelativeTimeFormat')
    const dates = vi.spyOn(Intl, 'DateTimeFormat')
    try {
      for (let i = 0; i < 300; i++) formatRelative(new Date(NOW - i * 600_000).toISOString(), NOW)
      expect(relative).not.toHaveBeenCalled()
      expect(dates).not.toHaveBeenCalled()
    } finally {
      relative.mockRestore()
      dates.mockRestore()
    }
  })

  it('shows an unreadable time as it came', () => {
    expect(formatRelative('not a date', NOW)).toBe('not a date')
  })
})

const CLOCK = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' } as const

describe('formatClock', () => {
  it('is a 24-hour clock with its time zone named', () => {
    const iso = '2026-03-10T14:02:00Z'
    expect(formatClock(iso)).toBe(new Date(iso).toLocaleTimeString(undefined, CLOCK))
    expect(formatClock(iso)).not.toMatch(/AM|PM/)
    expect(formatClock(iso)).toMatch(/(UTC|GMT|[A-Z]{3,4})/)
    expect(formatClock('garbage')).toBe('garbage')
  })
})

describe('the chosen time zone', () => {
  it('shows UTC times named as UTC, and the operator’s own zone again when chosen back', () => {
    setTimeZone('utc')
    expect(currentTimeZone()).toBe('utc')
    expect(formatClock('2026-03-10T14:05:00Z')).toMatch(/^14:05\sUTC$/)
    expect(formatDateTime('2026-03-10T14:05:09Z')).toMatch(/Mar.*10.*2026.*14:05:09\sUTC/)
    // An absolute date is the UTC day: 23:30 UTC stays the 24th whatever the machine's zone.
    expect(formatRelative('2025-12-24T23:30:00Z', NOW)).toMatch(/Dec.*24.*UTC/)

    setTimeZone('local')
    const iso = '2026-03-10T14:02:00Z'
    expect(formatClock(iso)).toBe(new Date(iso).toLocaleTimeString(undefined, CLOCK))
  })

  it('words a time in another zone than the machine’s when UTC is chosen', () => {
    // Under a zone other than UTC the two settings must differ; under UTC itself they agree on the clock.
    const iso = '2026-03-10T14:05:00Z'
    setTimeZone('utc')
    const utc = formatClock(iso)
    setTimeZone('local')
    const local = formatClock(iso)
    const offset = new Date(iso).getTimezoneOffset()
    if (offset !== 0) expect(local).not.toBe(utc)
    else expect(local.slice(0, 5)).toBe(utc.slice(0, 5))
  })

  it('keeps an unreadable time as it came, in either zone', () => {
    setTimeZone('utc')
    expect(formatClock('garbage')).toBe('garbage')
    expect(formatDateTime('garbage')).toBe('garbage')
    expect(formatRelative('garbage', NOW)).toBe('garbage')
  })
})
