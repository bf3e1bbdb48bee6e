import { z } from 'zod'
import { AddressInput } from './address'
import { countryCode, IsoDate, IsoDateTime } from './country'
import { closedEnum, openEnum } from './enums'
import { CustomerRef, UmaAddress } from './ids'
import { QueryCursor, QueryLimit, queryBoolean } from './list'
import { currencyCode } from './money'
import { personMembers } from './person'
import { nonBlank } from './text'

export const KYC_STATUSES = ['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED'] as const
export const KycStatus = openEnum(KYC_STATUSES)
export type KycStatus = z.infer<typeof KycStatus>

/** Customer types of the spec (only INDIVIDUAL); the service also has BUSINESS, shown verbatim. */
const CUSTOMER_TYPES = ['INDIVIDUAL'] as const

/** Customer of responses (spec 2.4). */
export const Customer = z.looseObject({
  id: CustomerRef,
  platformCustomerId: z.string(),
  customerType: openEnum(CUSTOMER_TYPES),
  region: z.string().optional(),
  currencies: z.array(z.string()).optional(),
  umaAddress: z.string(),
  kycStatus: KycStatus.optional(),
  ...personMembers,
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  isDeleted: z.boolean().optional()
})
export type Customer = z.infer<typeof Customer>

/** Today's date as YYYY-MM-DD in UTC. */
function todayIso(): string {
  return new Date().toISOString().slice(0, 10)
}

const BirthDate = IsoDate.refine((d) => d <= todayIso(), { error: 'Birth date must not be in the future' })

const currencies = z
  .array(currencyCode('Each currency'), { error: 'Currencies must be a list of currency codes' })
  .min(1, { error: 'Currencies, when given, must list at least one currency code' })
  .refine((list) => new Set(list).size === list.length, { error: 'Currencies must not list a currency twice' })

/** The published API's `email` (format: email) on customer create and update; the spec does not show it. */
const Email = z.email({
  error: (issue) =>
    issue.input === undefined ? 'Enter the email address' : 'Email must be an email address such as jane@example.com'
})

/** Fields a request may set on an individual customer. */
const individualFields = {
  email: Email.optional(),
  platformCustomerId: nonBlank('Platform customer id').optional(),
  currencies: currencies.optional(),
  umaAddress: UmaAddress.optional(),
  kycStatus: closedEnum(KYC_STATUSES, 'KYC status').optional(),
  fullName: nonBlank('Full name', 'Enter the customer’s full name').optional(),
  birthDate: BirthDate.optional(),
  nationality: countryCode('Nationality').optional(),
  address: AddressInput.optional()
}

/** POST /customers body (spec 4.15): customerType INDIVIDUAL is the only required field. */
export const CustomerCreateRequest = z.strictObject({
  customerType: closedEnum(CUSTOMER_TYPES, 'Customer type'),
  region: countryCode('Region').optional(),
  ...individualFields
})
export type CustomerCreateRequest = z.infer<typeof CustomerCreateRequest>

/**
 * PATCH /customers/{id} body (reference). region is immutable after creation (spec 2.4); customerType may be
 * repeated (the reference sends it) but cannot change. At least one field to change.
 */
export const CustomerUpdateRequest = z
  .strictObject({
    customerType: closedEnum(CUSTOMER_TYPES, 'Customer type').optional(),
    region: z.undefined({ error: 'Region cannot be changed after the customer is created' }).optional(),
    ...individualFields
  })
  .refine((u) => Object.keys(u).some((k) => k !== 'customerType' && u[k as keyof typeof u] !== undefined), {
    error: 'Give at least one customer field to change'
  })
export type CustomerUpdateRequest = z.infer<typeof CustomerUpdateRequest>

/** GET /customers query (reference filters, spec paging). */
export const CustomerListQuery = z
  .strictObject({
    platformCustomerId: z.string().min(1).optional(),
    customerType: closedEnum(CUSTOMER_TYPES, 'customerType').optional(),
    createdAfter: IsoDateTime.optional(),
    createdBefore: IsoDateTime.optional(),
    updatedAfter: IsoDateTime.optional(),
    updatedBefore: IsoDateTime.optional(),
    region: countryCode('region').optional(),
    currency: currencyCode('currency').optional(),
    umaAddress: z.string().min(1).optional(),
    isIncludingDeleted: queryBoolean('isIncludingDeleted').optional(),
    limit: QueryLimit,
    cursor: QueryCursor.optional()
  })
  .superRefine((q, ctx) => {
    for (const [after, before] of [
      ['createdAfter', 'createdBefore'],
      ['updatedAfter', 'updatedBefore']
    ] as const) {
      const from = q[after]
      const to = q[before]
      if (from !== undefined && to !== undefined && Date.parse(to) < Date.parse(from)) {
        ctx.addIssue({ code: 'custom', path: [before], message: `${before} must not be before ${after}` })
      }
    }
  })
export type CustomerListQuery = z.infer<typeof CustomerListQuery>
