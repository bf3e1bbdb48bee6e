/*
 * Intl formatters are expensive to build and cheap to use, and a scrolled list formats thousands of cells: each one
 * here is built once (the operator's locale does not change while the page lives) and reused.
 */
let clockFormat: Intl.DateTimeFormat | undefined
let dateFormat: Intl.DateTimeFormat | undefined
let relativeFormat: Intl.RelativeTimeFormat | undefined

/** "14:02 GMT+1": the operator's own time zone, named, so a time read next to another zone's is never mistaken. */
export function formatClock(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  clockFormat ??= new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', timeZoneName: 'short' })
  return clockFormat.format(date)
}

/**
 * "3 min ago" within the last day, after that an absolute date that names its time zone (a date differs by zone too).
 * The ISO time belongs in the title attribute.
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
  dateFormat ??= new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZoneName: 'short'
  })
  return dateFormat.format(time)
}

export const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone
