import { z } from 'zod'
import { countryCode } from './country'
import { nonBlank } from './text'

/** Address of responses (spec 2.3): every member optional, unknown members kept. */
export const Address = z.looseObject({
  line1: z.string().optional(),
  line2: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  postalCode: z.string().optional(),
  country: z.string().optional()
})
export type Address = z.infer<typeof Address>

/**
 * Address of requests. The spec leaves general requirements "not shown"; the reference requires line1, postalCode and
 * country. Per-country extra requirements (city) come from the beneficiary minimums (beneficiary.ts).
 */
export const AddressInput = z.strictObject({
  line1: nonBlank('Address line 1', 'Enter address line 1 (street and number)'),
  line2: nonBlank('Address line 2').optional(),
  city: nonBlank('City').optional(),
  state: nonBlank('State').optional(),
  postalCode: nonBlank('Postal code', 'Enter the postal code'),
  country: countryCode('Country', 'Enter the country, as a two-letter code such as US')
})
export type AddressInput = z.infer<typeof AddressInput>
