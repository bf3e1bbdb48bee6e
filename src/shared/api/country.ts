import { z } from 'zod'

/** ISO 3166-1 alpha-2 country code: two upper-case letters. */
export function countryCode(what = 'Country code', missing = `${what} is required`) {
  return z
    .string({
      error: (issue) => (issue.input === undefined ? missing : `${what} must be a string such as "US"`)
    })
    .regex(/^[A-Z]{2}$/, { error: `${what} must be a two-letter country code, such as US or GB` })
}
export const CountryCode = countryCode()
export type CountryCode = z.infer<typeof CountryCode>

/** True when `s` is `YYYY-MM-DD` and names a real calendar date (no 2023-02-29). */
export function isRealIsoDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s)
  if (!m) return false
  const year = Number(m[1])
  const month = Number(m[2])
  const day = Number(m[3])
  if (month < 1 || month > 12 || day < 1) return false
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0
  return day <= daysInMonth
}

/** ISO 8601 calendar date `YYYY-MM-DD` that exists. */
export const IsoDate = z.string({ error: 'Date must be a string in the form YYYY-MM-DD' }).check(
  z.refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s), {
    error: 'Date must be in the form YYYY-MM-DD',
    abort: true
  }),
  z.refine(isRealIsoDate, { error: 'Date must be a real calendar date (YYYY-MM-DD)' })
)
export type IsoDate = z.infer<typeof IsoDate>

/** ISO 8601 date-time with a time zone (`Z` or an offset), e.g. 2025-10-03T12:30:00Z. */
export const IsoDateTime = z.iso.datetime({
  offset: true,
  error: 'Timestamp must be an ISO 8601 date-time with a time zone, e.g. 2025-10-03T12:30:00Z'
})
export type IsoDateTime = z.infer<typeof IsoDateTime>

/** Either a date (YYYY-MM-DD) or a date-time; used by inclusive date filters. */
export const IsoDateOrDateTime = z.union([IsoDate, IsoDateTime], {
  error: 'Must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone (e.g. 2025-10-03T12:30:00Z)'
})
export type IsoDateOrDateTime = z.infer<typeof IsoDateOrDateTime>
