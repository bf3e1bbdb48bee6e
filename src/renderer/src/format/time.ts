import type { TimeZoneChoice } from '../../../shared/appearance'

/*
 * Every time the page shows is worded here, in the zone the operator chose in Settings (their own, or UTC) and naming
 * it, so a time read next to another zone's is never mistaken. Intl formatters are expensive to build and cheap to
 * use, and a scrolled list formats thousands of cells: each is built once per zone and reused.
 */

let zone: TimeZoneChoice = 'local'
let clockFormat: Intl.DateTimeFormat | undefined
let dateFormat: Intl.DateTimeFormat | undefined
let dateTimeFormat: Intl.DateTimeFormat | undefined
let relativeFormat: Intl.RelativeTimeFormat | undefined

/** Switches every formatter here to the chosen zone; the page re-renders its times after (main.tsx). */
export function setTimeZone(choice: TimeZoneChoice): void {
  if (choice === zone) return
  zone = choice
  clockFormat = dateFormat = dateTimeFormat = undefined
}

export function currentTimeZone(): TimeZoneChoice {
  return zone
}

/** Intl's options for the chosen zone: none for the operator's own (Intl's default), else UTC. */
function inZone(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormatOptions {
  return zone === 'utc' ? { ...options, timeZone: 'UTC' } : options
}

/** A 24-hour clock whatever the locale: "14:05", never "02:05 PM", as statements and the service's times read. */
const CLOCK: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }

/** "14:05 UTC", or "15:05 GMT+1" in the operator's own zone. */
export function formatClock(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  clockFormat ??= new Intl.DateTimeFormat(undefined, inZone({ ...CLOCK, timeZoneName: 'short' }))
  return clockFormat.format(date)
}

/** "10 Mar 2026, 14:05:09 UTC": the exact moment, for a hover or a fact that needs the second. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  dateTimeFormat ??= new Intl.DateTimeFormat(
    undefined,
    inZone({
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      ...CLOCK,
      second: '2-digit',
      timeZoneName: 'short'
    })
  )
  return dateTimeFormat.format(date)
}

/**
 * "3 min ago" within the last day, after that an absolute date that names its time zone (a date differs by zone too).
 * The exact time (formatDateTime) belongs in the title attribute.
 */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const time = new Date(iso).getTime()
  if (Number.isNaN(time)) return iso
  const seconds = Math.round((now - time) / 1000)
  if (Math.abs(seconds) < 45) return 'just now'
  if (Math.abs(seconds) < 86_400) {
    relativeFormat ??= new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })
    const minutes = Math.round(seconds / 60)
    return Math.abs(minutes) < 60
      ? relativeFormat.format(-minutes, 'minute')
      : relativeFormat.format(-Math.round(minutes / 60), 'hour')
  }
  dateFormat ??= new Intl.DateTimeFormat(
    undefined,
    inZone({ year: 'numeric', month: 'short', day: 'numeric', timeZoneName: 'short' })
  )
  return dateFormat.format(time)
}
