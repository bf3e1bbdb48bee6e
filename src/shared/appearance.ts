import { z } from 'zod'

/**
 * How Paydesk looks and tells time, chosen in Settings and kept by main (app-settings.json), so the desktop app and
 * browser mode both keep it across restarts. Holds nothing secret.
 */
export const ThemeChoice = z.enum(['system', 'light', 'dark'])
export type ThemeChoice = z.infer<typeof ThemeChoice>

/** Times are shown in the operator's own zone, or in UTC (the zone the service and the statements use). */
export const TimeZoneChoice = z.enum(['local', 'utc'])
export type TimeZoneChoice = z.infer<typeof TimeZoneChoice>

export const Appearance = z.strictObject({ theme: ThemeChoice, timeZone: TimeZoneChoice })
export type Appearance = z.infer<typeof Appearance>

/** A fresh install follows the operating system's theme and shows local times, as before these settings existed. */
export const DEFAULT_APPEARANCE: Appearance = { theme: 'system', timeZone: 'local' }
