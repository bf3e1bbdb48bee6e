import type { InternalAccount } from '../../../shared/api'
import { HOME_DAYS } from '../../../shared/home-days'
import type { CurrencyBalance, CurrencyVolume } from '../../../shared/ipc/channels/home'
import type { SqliteDatabase } from './sqlite'

/**
 * Home's charts from the cache, one statement each, summed by SQLite over the creation-time index: the renderer gets
 * 30 numbers per currency, never the rows. Days are cut in the zone the operator reads times in, at that zone's real
 * midnights (a day across a DST change is 23 or 25 hours long).
 */

const DAY_MS = 86_400_000
/** The Transactions list's "Last 30 days": the failed count is the one its filtered list shows. */
export const FAILED_WINDOW_MS = 30 * DAY_MS

/** Statuses of an outgoing payment whose money went back, or never left (spec 3.2): no flow for the balances. */
const OUTGOING_UNDONE = ['FAILED', 'REJECTED', 'REFUNDED', 'EXPIRED']

export interface HomeWindow {
  /** "2026-11-28", oldest first. */
  days: string[]
  /** Each day's [start, end) in epoch ms. */
  bounds: [number, number][]
}

const dayFormats = new Map<string, Intl.DateTimeFormat>()

/** The calendar day an instant falls on in `zone`. */
export function dayOf(ms: number, zone: string): string {
  let format = dayFormats.get(zone)
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' })
    dayFormats.set(zone, format)
  }
  return format.format(ms)
}

/** How far `zone`'s wall clock is ahead of UTC at an instant, in ms. */
function offsetAt(ms: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric'
  }).formatToParts(ms)
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'))
  return wall - (ms - (ms % 1000))
}

/** The instant a calendar day ("2026-03-29") begins in `zone`. */
export function startOfDay(day: string, zone: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  const wallMidnight = Date.UTC(y, m - 1, d)
  // Twice: the offset at the first guess may be the other side of a DST change that night.
  const guess = wallMidnight - offsetAt(wallMidnight, zone)
  return wallMidnight - offsetAt(guess, zone)
}

/** The HOME_DAYS days ending today in `zone`, with their bounds. */
export function homeWindow(now: number, zone: string): HomeWindow {
  const [y, m, d] = dayOf(now, zone).split('-').map(Number) as [number, number, number]
  const calendar = (back: number) => new Date(Date.UTC(y, m - 1, d - back)).toISOString().slice(0, 10)
  const days = Array.from({ length: HOME_DAYS }, (_, i) => calendar(HOME_DAYS - 1 - i))
  const starts = [...days, calendar(-1)].map((day) => startOfDay(day, zone))
  return { days, bounds: days.map((_, i) => [starts[i]!, starts[i + 1]!]) }
}

export interface HomeRows {
  /** [day index, type, currency, sum] of completed payments. */
  volume: [number, string, string, number][]
  /** [day index, account id, net flow] of the given accounts. */
  flows: [number, string, number][]
  failed: number
}

export interface HomeRequest {
  bounds: [number, number][]
  accountIds: string[]
  failedFrom: number
}

const BOUNDS = `bounds (k, lo, hi) AS (
  SELECT CAST(key AS INTEGER), json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?)
)`

/**
 * The three figures in one snapshot (the caller runs it in a read transaction). The volume walks the day's range of
 * the status index once per day (CROSS JOIN keeps the days outside: the other way round every completed payment ever
 * was read and tried against 30 days); the flows read the account indexes; the count, a range of the status index.
 */
export function readHomeRows(db: SqliteDatabase, request: HomeRequest): HomeRows {
  const bounds = JSON.stringify(request.bounds)
  const volume = db
    .prepare(
      `WITH ${BOUNDS}
       SELECT bounds.k, tx.type, tx.currency, sum(tx.amount) FROM bounds
       CROSS JOIN tx ON tx.created_at >= bounds.lo AND tx.created_at < bounds.hi
       WHERE tx.status = 'COMPLETED' AND tx.type IN ('INCOMING', 'OUTGOING')
       GROUP BY bounds.k, tx.type, tx.currency`
    )
    .raw()
    .all(bounds) as HomeRows['volume']
  // What each platform account gained or lost per day: money in once it arrived, money out from the moment it left
  // (the service takes it when the payment starts) unless it came back.
  const undone = OUTGOING_UNDONE.map((s) => `'${s}'`).join(', ')
  const flows = db
    .prepare(
      `WITH ${BOUNDS}, accounts (id) AS (SELECT value FROM json_each(?))
       SELECT bounds.k, accounts.id, sum(
         CASE WHEN tx.source_account = accounts.id THEN -tx.amount ELSE tx.amount END
       ) FROM accounts
       JOIN tx ON (tx.source_account = accounts.id AND tx.type = 'OUTGOING' AND tx.status NOT IN (${undone}))
         OR (tx.destination_account = accounts.id AND tx.type = 'INCOMING' AND tx.status = 'COMPLETED')
       JOIN bounds ON tx.created_at >= bounds.lo AND tx.created_at < bounds.hi
       GROUP BY bounds.k, accounts.id`
    )
    .raw()
    .all(bounds, JSON.stringify(request.accountIds)) as HomeRows['flows']
  const failed = db
    .prepare(`SELECT count(*) FROM tx WHERE status = 'FAILED' AND created_at >= ?`)
    .pluck()
    .get(request.failedFrom) as number
  return { volume, flows, failed }
}

const zeros = () => new Array<number>(HOME_DAYS).fill(0)
const byCode = (a: { currency: string }, b: { currency: string }) => a.currency.localeCompare(b.currency)

/** Each currency's days, a day without payments being 0; currencies in code order. */
export function volumeByCurrency(rows: HomeRows['volume']): CurrencyVolume[] {
  const out = new Map<string, CurrencyVolume>()
  for (const [day, type, currency, sum] of rows) {
    let series = out.get(currency)
    if (!series) out.set(currency, (series = { currency, incoming: zeros(), outgoing: zeros() }))
    series[type === 'INCOMING' ? 'incoming' : 'outgoing'][day] = sum
  }
  return [...out.values()].sort(byCode)
}

/**
 * The platform's balance per currency at the end of each day: today's is the accounts' balance as last read, and each
 * day before is the next day's less what that day's payments moved. Movements the service lists as no transaction
 * (sandbox funding, for one) are not walked back: before one, the line shows what the balance would have been without it.
 */
export function balancesByCurrency(accounts: InternalAccount[], flows: HomeRows['flows']): CurrencyBalance[] {
  const currencyOf = new Map(accounts.map((a) => [a.id, a.balance.currency.code]))
  const out = new Map<string, CurrencyBalance & { net: number[] }>()
  for (const a of accounts) {
    const currency = a.balance.currency.code
    let series = out.get(currency)
    if (!series) out.set(currency, (series = { currency, current: 0, endOfDay: zeros(), net: zeros() }))
    series.current += a.balance.amount
  }
  for (const [day, accountId, net] of flows) {
    const series = out.get(currencyOf.get(accountId) ?? '')
    if (series) series.net[day]! += net
  }
  return [...out.values()].sort(byCode).map(({ net, ...series }) => {
    let balance = series.current
    for (let day = HOME_DAYS - 1; day >= 0; day--) {
      series.endOfDay[day] = balance
      balance -= net[day]!
    }
    return series
  })
}
