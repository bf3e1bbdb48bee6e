import { z } from 'zod'
import { AddressInput } from './address'
import { countryCode, IsoDate } from './country'
import { closedEnum, openEnum } from './enums'
import { personMembers } from './person'
import { nonBlank, withoutSeparators } from './text'

export const BENEFICIARY_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const

/** Beneficiary of responses: unknown members kept, unknown beneficiaryType accepted. */
export const Beneficiary = z.looseObject({
  beneficiaryType: openEnum(BENEFICIARY_TYPES),
  ...personMembers,
  phoneNumber: z.string().optional(),
  countryOfResidence: z.string().optional(),
  /** Published BusinessBeneficiary members (top level); the spec nests them in businessInfo. */
  legalName: z.string().optional(),
  registrationNumber: z.string().optional(),
  taxId: z.string().optional(),
  businessInfo: z.looseObject({ legalName: z.string().optional(), taxId: z.string().optional() }).optional()
})
export type Beneficiary = z.infer<typeof Beneficiary>

const BusinessInfoInput = z.strictObject({
  legalName: nonBlank('Legal name', 'Enter the business’s legal name'),
  taxId: nonBlank('Business tax id').optional()
})
type BusinessInfoInput = z.infer<typeof BusinessInfoInput>

/** What the business-only members are called on screen. */
const BUSINESS_ONLY = {
  businessInfo: 'Business information',
  legalName: 'A legal name',
  registrationNumber: 'A registration number'
} as const

/** E.164 phone number: "+", country code and subscriber number, 8 to 15 digits in all. */
const E164_PATTERN = /^\+[1-9][0-9]{7,14}$/

/**
 * Beneficiary of requests (spec 2.6). Per-type rules: an INDIVIDUAL needs fullName; a BUSINESS needs
 * businessInfo.legalName, and businessInfo is only for BUSINESS. Per-currency minimums are checked separately by
 * `beneficiaryMinimumIssues`, because they depend on the account's currency.
 */
export const BeneficiaryInput = z
  .strictObject({
    beneficiaryType: closedEnum(BENEFICIARY_TYPES, 'Beneficiary type'),
    fullName: nonBlank('Full name').optional(),
    birthDate: IsoDate.optional(),
    nationality: countryCode('Nationality').optional(),
    email: z.email({ error: 'Email must be an email address such as jane@example.com' }).optional(),
    phoneNumber: z
      .string()
      // Spaces and dashes between digit groups are how numbers are written; E.164 itself has none.
      .overwrite(withoutSeparators)
      .regex(E164_PATTERN, {
        error: 'Phone must be "+", the country code and the number, 8 to 15 digits in all, e.g. +1 415 555 0123'
      })
      .optional(),
    countryOfResidence: countryCode('Country of residence').optional(),
    address: AddressInput.optional(),
    /** The published BusinessBeneficiary shape: legalName (and taxId, registrationNumber) at the top level. */
    legalName: nonBlank('Legal name').optional(),
    registrationNumber: nonBlank('Registration number').optional(),
    taxId: nonBlank('Business tax id').optional(),
    /** The spec's shape, still accepted so old requests and data read. */
    businessInfo: BusinessInfoInput.optional()
  })
  .superRefine((b, ctx) => {
    if (b.beneficiaryType === 'INDIVIDUAL') {
      if (b.fullName === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['fullName'],
          message: 'Enter the beneficiary’s full name'
        })
      }
      for (const member of ['businessInfo', 'legalName', 'registrationNumber'] as const) {
        if (b[member] !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [member],
            message: `${BUSINESS_ONLY[member]} is only for a business beneficiary, not an individual`
          })
        }
      }
    } else if (b.beneficiaryType === 'BUSINESS') {
      if (b.legalName === undefined && b.businessInfo === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['legalName'],
          message: 'Enter the business’s legal name'
        })
      } else if (
        b.legalName !== undefined &&
        b.businessInfo !== undefined &&
        b.businessInfo.legalName !== b.legalName
      ) {
        ctx.addIssue({
          code: 'custom',
          path: ['businessInfo', 'legalName'],
          message: 'The two legal names given disagree; give only one'
        })
      }
    }
  })
export type BeneficiaryInput = z.infer<typeof BeneficiaryInput>

type BeneficiaryField = 'beneficiaryType' | 'fullName' | 'address'
type BeneficiaryAddressField = 'line1' | 'city' | 'postalCode' | 'country'

interface BeneficiaryMinimum {
  /** Country the row of the table is about (spec 2.6 "Country (currency)"). */
  country: string
  /** Fields the beneficiary object must carry. */
  requiredFields: readonly BeneficiaryField[]
  /** Address members that must be present (non-empty). Non-empty means an address is required. */
  requiredAddressFields: readonly BeneficiaryAddressField[]
}

const ADDRESS_FIELDS = ['line1', 'city', 'postalCode', 'country'] as const
/** The address members as the forms label them, for messages. */
const ADDRESS_WORDS: Record<BeneficiaryAddressField, string> = {
  line1: 'address line 1',
  city: 'city',
  postalCode: 'postal code',
  country: 'country'
}
/** "(required for a USD account)" after what to enter, when the requirement comes from the currency. */
const needed = (where: string) => (where ? ` (required${where})` : '')

/**
 * Minimum beneficiary fields for individual beneficiaries, by account currency (spec 2.6). A row with required address
 * fields requires an address (the US row lists address members without listing "address" itself; we read that as
 * "address required", since the members cannot be present without it).
 */
export const BENEFICIARY_MINIMUMS = {
  USD: { country: 'US', requiredFields: ['beneficiaryType', 'fullName'], requiredAddressFields: ADDRESS_FIELDS },
  MXN: { country: 'MX', requiredFields: ['beneficiaryType', 'fullName'], requiredAddressFields: [] },
  BRL: { country: 'BR', requiredFields: ['beneficiaryType', 'fullName'], requiredAddressFields: [] },
  PHP: { country: 'PH', requiredFields: ['beneficiaryType', 'fullName'], requiredAddressFields: [] },
  GBP: {
    country: 'GB',
    requiredFields: ['beneficiaryType', 'fullName', 'address'],
    requiredAddressFields: ADDRESS_FIELDS
  },
  EUR: {
    country: 'EU',
    requiredFields: ['beneficiaryType', 'fullName', 'address'],
    requiredAddressFields: ADDRESS_FIELDS
  }
} as const satisfies Record<string, BeneficiaryMinimum>

/** For currencies outside the table: what every beneficiary needs anyway. */
const DEFAULT_BENEFICIARY_MINIMUM: BeneficiaryMinimum = {
  country: '',
  requiredFields: ['beneficiaryType', 'fullName'],
  requiredAddressFields: []
}

interface BeneficiaryIssue {
  /** Path inside the beneficiary object, e.g. ['address', 'city']. */
  path: (string | number)[]
  message: string
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function present(v: unknown): boolean {
  return typeof v === 'string' ? v.trim().length > 0 : v !== undefined && v !== null
}

/**
 * The per-currency minimum beneficiary fields that `beneficiary` lacks for an account in `currency` (spec 2.6), as
 * issues with a path relative to the beneficiary. Works on any input (a partial form, a stored record). The table is
 * about individuals; for a BUSINESS beneficiary the minimum is beneficiaryType and businessInfo.legalName.
 */
export function beneficiaryMinimumIssues(currency: string, beneficiary: unknown): BeneficiaryIssue[] {
  const minimum: BeneficiaryMinimum =
    (BENEFICIARY_MINIMUMS as Record<string, BeneficiaryMinimum>)[currency] ?? DEFAULT_BENEFICIARY_MINIMUM
  const where = minimum.country ? ` for a ${currency} account` : ''
  if (!isRecord(beneficiary)) {
    return [
      { path: [], message: `Enter the beneficiary, who receives the money${needed(where || ' for a bank account')}` }
    ]
  }
  const issues: BeneficiaryIssue[] = []
  const type = beneficiary.beneficiaryType
  if (!present(type)) {
    issues.push({ path: ['beneficiaryType'], message: `Choose the beneficiary type${needed(where)}` })
  }
  if (type === 'BUSINESS') {
    // legalName at the top level (published shape) or in businessInfo (spec shape): either one names the business.
    const info = beneficiary.businessInfo
    if (!present(beneficiary.legalName) && (!isRecord(info) || !present(info.legalName))) {
      issues.push({
        path: ['legalName'],
        message: `Enter the business’s legal name${needed(where)}`
      })
    }
    return issues
  }
  if (minimum.requiredFields.includes('fullName') && !present(beneficiary.fullName)) {
    issues.push({ path: ['fullName'], message: `Enter the beneficiary’s full name${needed(where)}` })
  }
  const needsAddress = minimum.requiredFields.includes('address') || minimum.requiredAddressFields.length > 0
  const address = beneficiary.address
  if (needsAddress && !isRecord(address)) {
    const members = minimum.requiredAddressFields.map((f) => ADDRESS_WORDS[f])
    const list = `${members.slice(0, -1).join(', ')} and ${members[members.length - 1] ?? ''}`
    issues.push({
      path: ['address'],
      message: `Enter the beneficiary’s address: ${list}${needed(where)}`
    })
    return issues
  }
  if (isRecord(address)) {
    for (const field of minimum.requiredAddressFields) {
      if (!present(address[field])) {
        issues.push({
          path: ['address', field],
          message: `Enter the beneficiary’s ${ADDRESS_WORDS[field]}${needed(where)}`
        })
      }
    }
  }
  return issues
}
