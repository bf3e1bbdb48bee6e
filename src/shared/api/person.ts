import { z } from 'zod'
import { Address } from './address'

/**
 * Who a person is, as responses say it of a customer and of an individual beneficiary alike (spec 2.4, 2.6): the
 * same members under the same names, every one optional.
 */
export const personMembers = {
  fullName: z.string().optional(),
  birthDate: z.string().optional(),
  nationality: z.string().optional(),
  email: z.string().optional(),
  address: Address.optional()
}
