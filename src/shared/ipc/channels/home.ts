import { z } from 'zod'
import { ProfileId } from '../../profile'
import { channel } from '../define'
import { SyncedAt } from './data'
import { HOME_DAYS } from '../../home-days'

/**
 * Home's figures: 30 days of completed volume and of platform balances, per currency, read from the active profile's
 * cache in one statement per chart, plus the failed payments of the last 30 days. Amounts are integer minor units of
 * their own currency: nothing here ever adds one currency to another.
 */

export { HOME_DAYS } from '../../home-days'

/** Whether Intl knows this zone ("UTC", "Europe/Berlin"). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

export const HomeFiguresInput = z.strictObject({
  /** The zone days are cut in: the one times are shown in (Settings, src/renderer/src/format/time.ts TIME_ZONE). */
  timeZone: z.string().min(1).max(64).refine(isTimeZone, { error: 'Not a time zone this system knows' })
})
export type HomeFiguresInput = z.infer<typeof HomeFiguresInput>

const Minor = z.number().int()
/** One value per day, oldest first, HOME_DAYS long. */
const Daily = z.array(Minor).length(HOME_DAYS)

export const CurrencyVolume = z.object({
  currency: z.string(),
  /** Completed incoming payments, by the day they were made. */
  incoming: Daily,
  /** Completed outgoing payments (what left the account, fees included), by the day they were made. */
  outgoing: Daily
})
export type CurrencyVolume = z.infer<typeof CurrencyVolume>

export const CurrencyBalance = z.object({
  currency: z.string(),
  /** The platform accounts' balance now, as last read from the service. */
  current: Minor,
  /** The balance at the end of each day, walked back from `current` through the payments in the cache. */
  endOfDay: Daily
})
export type CurrencyBalance = z.infer<typeof CurrencyBalance>

export const HomeFigures = z.object({
  profileId: ProfileId,
  timeZone: z.string(),
  /** The days, "2026-11-28", oldest first; the last is today in `timeZone`. */
  days: z.array(z.string()).length(HOME_DAYS),
  volume: z.array(CurrencyVolume),
  balances: z.array(CurrencyBalance),
  /** Payments with status FAILED created in the last 30 × 24 hours (the Transactions list's "Last 30 days"). */
  failed: z.number().int().min(0),
  /** When transactions, and the platform accounts' balances, last matched the service (null: never). */
  syncedAt: SyncedAt,
  balancesSyncedAt: SyncedAt
})
export type HomeFigures = z.infer<typeof HomeFigures>

export const homeChannels = {
  'home.figures': channel(
    HomeFiguresInput,
    HomeFigures,
    'Thirty days of completed volume and platform balances per currency, and failed payments, from the cache'
  )
}
