import { z } from 'zod'
import { US_ACCOUNT_CATEGORIES, XOF_REGIONS } from './account-types'
import { BeneficiaryInput } from './beneficiary'
import { closedEnum } from './enums'
import { formatField, xofRegionOfPhone, type FormatRuleId } from './format-rules'
import { nonBlank, requiredString, withoutSeparators } from './text'

/** accountInfo of requests for bank and mobile-money accounts, one schema per accountType (spec 2.6). */

const paymentRails = z
  .array(
    z.string().regex(/^[A-Z][A-Z0-9_]*$/, {
      error: 'Each payment rail must be an upper-case name such as ACH or WIRE'
    }),
    { error: 'Payment rails must be a list of rail names such as ["ACH", "WIRE"]' }
  )
  .min(1, { error: 'Payment rails, when given, must name at least one rail' })

/** Members every bank-account accountInfo may carry. bankName must be a value returned by GET /discoveries. */
const bankCommon = {
  bankName: nonBlank('Bank name').optional(),
  paymentRails: paymentRails.optional(),
  beneficiary: BeneficiaryInput.optional()
}
const bankNameRequired = (country: string) => ({
  ...bankCommon,
  bankName: nonBlank('Bank name', `Choose the bank: required for ${country} accounts, from the service’s bank list`)
})

/** An account that is a number at a bank named from the service's list (NGN, PHP, ZAR): no other code says which. */
function numberAtNamedBank<const T extends string>(accountType: T, rule: FormatRuleId, country: string) {
  return z.strictObject({
    accountType: z.literal(accountType),
    accountNumber: formatField(rule),
    ...bankNameRequired(country)
  })
}

const usCommon = {
  accountNumber: formatField('usAccountNumber'),
  routingNumber: formatField('usRoutingNumber'),
  ...bankCommon
}

/**
 * USD_ACCOUNT in the published shape: checking or savings is `bankAccountType` (OpenAPI example of
 * POST /customers/external-accounts), optional as the published `UsdAccountInfoBase` has it (the service then takes
 * CHECKING; the official CLI has no flag for it). The spec's `accountCategory` is still accepted so old requests and
 * data read; when both are given they must agree (docs/real-service.md).
 */
export const UsdAccountInfoInput = z
  .strictObject({
    accountType: z.literal('USD_ACCOUNT'),
    ...usCommon,
    bankAccountType: closedEnum(US_ACCOUNT_CATEGORIES, 'Checking or savings').optional(),
    accountCategory: closedEnum(US_ACCOUNT_CATEGORIES, 'Account category').optional()
  })
  .superRefine((a, ctx) => {
    if (a.bankAccountType !== undefined && a.accountCategory !== undefined && a.bankAccountType !== a.accountCategory)
      ctx.addIssue({
        code: 'custom',
        path: ['accountCategory'],
        message: 'Account category and checking-or-savings disagree; give only checking or savings'
      })
  })

/** What a USD_ACCOUNT without bankAccountType (or accountCategory) is taken to be, as the published API does. */
export const DEFAULT_USD_BANK_ACCOUNT_TYPE = 'CHECKING' satisfies (typeof US_ACCOUNT_CATEGORIES)[number]

function mobileMoney<const T extends string>(accountType: T, rule: FormatRuleId) {
  return z.strictObject({
    accountType: z.literal(accountType),
    phoneNumber: formatField(rule),
    provider: nonBlank('Mobile-money provider', 'Enter the mobile-money provider, such as M-PESA'),
    paymentRails: paymentRails.optional(),
    beneficiary: BeneficiaryInput.optional()
  })
}

/** The spec's US_ACCOUNT (accountCategory required): still accepted, but Paydesk itself sends USD_ACCOUNT. */
export const UsAccountInfoInput = z.strictObject({
  accountType: z.literal('US_ACCOUNT'),
  ...usCommon,
  accountCategory: closedEnum(US_ACCOUNT_CATEGORIES, 'Account category')
})
export const GbpAccountInfoInput = z.strictObject({
  accountType: z.literal('GBP_ACCOUNT'),
  sortCode: formatField('gbpSortCode'),
  accountNumber: formatField('gbpAccountNumber'),
  ...bankCommon
})
export const MxnAccountInfoInput = z.strictObject({
  accountType: z.literal('MXN_ACCOUNT'),
  clabeNumber: formatField('mxnClabe'),
  ...bankCommon
})
export const BRL_PIX_KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] as const
export const BrlAccountInfoInput = z.strictObject({
  accountType: z.literal('BRL_ACCOUNT'),
  pixKey: nonBlank('PIX key', 'Enter the PIX key'),
  pixKeyType: closedEnum(BRL_PIX_KEY_TYPES, 'PIX key type').optional(),
  // A CPF or CNPJ is written with dots, a dash and a slash (123.456.789-09); the service takes its digits.
  taxId: requiredString('Tax id', 'Enter the tax id (CPF or CNPJ)')
    .overwrite((s) => s.replace(/[\s./-]+/g, ''))
    .regex(/^[0-9]{11,14}$/, { error: 'Tax id (CPF or CNPJ) must be 11 to 14 digits' }),
  ...bankCommon
})
const swiftCode = z
  .string()
  .overwrite((s) => withoutSeparators(s).toUpperCase())
  .regex(/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/, {
    error: 'SWIFT/BIC code must be 8 or 11 letters or digits (bank, country, location, optional branch)'
  })
/**
 * An IBAN as printed ("DE89 3704 0044 0532 0130 00") or typed in lower case: spaces (and dashes) out, upper case, so
 * the electronic form the service publishes is what is checked and sent.
 */
const iban = (pattern: RegExp, message: string) =>
  requiredString('IBAN', 'Enter the IBAN')
    .overwrite((s) => withoutSeparators(s).toUpperCase())
    .regex(pattern, { error: message })
export const EurAccountInfoInput = z.strictObject({
  accountType: z.literal('EUR_ACCOUNT'),
  iban: iban(
    /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/,
    'IBAN must be a country code, 2 check digits and 11 to 30 letters or digits, such as DE89 3704 0044 0532 0130 00'
  ),
  swiftCode: swiftCode.optional(),
  ...bankCommon
})
/** AED (UAE) account: the spec names the type; fields from the reference (IBAN AE + 21 digits). */
export const AedAccountInfoInput = z.strictObject({
  accountType: z.literal('AED_ACCOUNT'),
  iban: iban(/^AE[0-9]{21}$/, 'UAE (AED) IBAN must be AE followed by 21 digits'),
  swiftCode: swiftCode.optional(),
  ...bankCommon
})
export const NgnAccountInfoInput = numberAtNamedBank('NGN_ACCOUNT', 'ngnAccountNumber', 'Nigerian (NGN)')
export const CadAccountInfoInput = z.strictObject({
  accountType: z.literal('CAD_ACCOUNT'),
  bankCode: formatField('cadBankCode'),
  branchCode: formatField('cadBranchCode'),
  accountNumber: formatField('cadAccountNumber'),
  ...bankCommon
})
export const PhpAccountInfoInput = numberAtNamedBank('PHP_ACCOUNT', 'phpAccountNumber', 'Philippine (PHP)')
export const ZarAccountInfoInput = numberAtNamedBank('ZAR_ACCOUNT', 'zarAccountNumber', 'South African (ZAR)')
export const KesAccountInfoInput = mobileMoney('KES_ACCOUNT', 'kesPhone')
export const TzsAccountInfoInput = mobileMoney('TZS_ACCOUNT', 'tzsPhone')
export const ZmwAccountInfoInput = mobileMoney('ZMW_ACCOUNT', 'zmwPhone')
export const RwfAccountInfoInput = mobileMoney('RWF_ACCOUNT', 'rwfPhone')
export const MwkAccountInfoInput = mobileMoney('MWK_ACCOUNT', 'mwkPhone')
export const UgxAccountInfoInput = mobileMoney('UGX_ACCOUNT', 'ugxPhone')
export const XofAccountInfoInput = mobileMoney('XOF_ACCOUNT', 'xofPhone')
  .extend({ region: closedEnum(XOF_REGIONS, 'Country') })
  .superRefine((info, ctx) => {
    const phoneRegion = xofRegionOfPhone(info.phoneNumber)
    if (phoneRegion !== null && phoneRegion !== info.region) {
      ctx.addIssue({
        code: 'custom',
        path: ['region'],
        message: `The country (${info.region}) does not match the phone number, which is from ${phoneRegion}`
      })
    }
  })
