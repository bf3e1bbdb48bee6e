/** "14:02" in the operator's own time zone. */
export function formatClock(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
}

/** "3 min ago" within the last day, an absolute date after that. The ISO time belongs in the title attribute. */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const time = new Date(iso).getTime()
  if (Number.isNaN(time)) return iso
  const seconds = Math.round((now - time) / 1000)
  if (Math.abs(seconds) < 45) return 'just now'
  if (Math.abs(seconds) < 86_400) {
    const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })
    const minutes = Math.round(seconds / 60)
    return Math.abs(minutes) < 60 ? rtf.format(-minutes, 'minute') : rtf.format(-Math.round(minutes / 60), 'hour')
  }
  return new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })
}

export const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone
