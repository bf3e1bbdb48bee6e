import { z } from 'zod'
import { countryCode } from './country'
import { currencyCode } from './money'

/** Bank-name lookup entry (spec 2.9). */
export const DiscoveryEntry = z.looseObject({
  bankName: z.string(),
  displayName: z.string(),
  country: z.string(),
  currency: z.string()
})
export type DiscoveryEntry = z.infer<typeof DiscoveryEntry>

/** GET /discoveries query (spec 4.1). */
export const DiscoveryQuery = z.strictObject({
  country: countryCode('country').optional(),
  currency: currencyCode('currency').optional()
})
export type DiscoveryQuery = z.infer<typeof DiscoveryQuery>
