import { z } from 'zod'
import { Beneficiary, BeneficiaryInput } from './beneficiary'
import { closedEnum, openEnum } from './enums'
import { sparkAddressProblem } from './spark'
import { nonBlank } from './text'

/**
 * Account types known to Paydesk: the spec's values (US_ACCOUNT, USD_ACCOUNT, GBP_ACCOUNT, SPARK_WALLET) plus the
 * reference's ExternalAccountType values. A response may carry any other string.
 */
export const ACCOUNT_TYPES = [
  'US_ACCOUNT',
  'USD_ACCOUNT',
  'GBP_ACCOUNT',
  'SPARK_WALLET',
  'AED_ACCOUNT',
  'BRL_ACCOUNT',
  'MXN_ACCOUNT',
  'EUR_ACCOUNT',
  'NGN_ACCOUNT',
  'CAD_ACCOUNT',
  'PHP_ACCOUNT',
  'ZAR_ACCOUNT',
  'KES_ACCOUNT',
  'TZS_ACCOUNT',
  'ZMW_ACCOUNT',
  'RWF_ACCOUNT',
  'MWK_ACCOUNT',
  'UGX_ACCOUNT',
  'XOF_ACCOUNT',
  'BWP_ACCOUNT',
  'DKK_ACCOUNT',
  'HKD_ACCOUNT',
  'IDR_ACCOUNT',
  'INR_ACCOUNT',
  'MYR_ACCOUNT',
  'SGD_ACCOUNT',
  'THB_ACCOUNT',
  'VND_ACCOUNT',
  'XAF_ACCOUNT',
  'BDT_ACCOUNT',
  'COP_ACCOUNT',
  'EGP_ACCOUNT',
  'GHS_ACCOUNT',
  'GTQ_ACCOUNT',
  'HTG_ACCOUNT',
  'JMD_ACCOUNT',
  'PKR_ACCOUNT',
  'LIGHTNING',
  'SOLANA_WALLET',
  'TRON_WALLET',
  'POLYGON_WALLET',
  'BASE_WALLET',
  'ETHEREUM_WALLET'
] as const
export type AccountType = (typeof ACCOUNT_TYPES)[number]

/** Account types that are crypto wallets: no beneficiary, cryptoNetwork required on create. */
export const WALLET_ACCOUNT_TYPES = [
  'SPARK_WALLET',
  'LIGHTNING',
  'SOLANA_WALLET',
  'TRON_WALLET',
  'POLYGON_WALLET',
  'BASE_WALLET',
  'ETHEREUM_WALLET'
] as const satisfies readonly AccountType[]
export type WalletAccountType = (typeof WALLET_ACCOUNT_TYPES)[number]

export function isWalletAccountType(accountType: string): boolean {
  return (WALLET_ACCOUNT_TYPES as readonly string[]).includes(accountType)
}

/** Account types a request may use (each has a schema in AccountInfoInput). */
export const INPUT_ACCOUNT_TYPES = [
  'US_ACCOUNT',
  'USD_ACCOUNT',
  'GBP_ACCOUNT',
  'MXN_ACCOUNT',
  'BRL_ACCOUNT',
  'EUR_ACCOUNT',
  'AED_ACCOUNT',
  'NGN_ACCOUNT',
  'CAD_ACCOUNT',
  'PHP_ACCOUNT',
  'ZAR_ACCOUNT',
  'KES_ACCOUNT',
  'TZS_ACCOUNT',
  'ZMW_ACCOUNT',
  'RWF_ACCOUNT',
  'MWK_ACCOUNT',
  'UGX_ACCOUNT',
  'XOF_ACCOUNT',
  'SPARK_WALLET',
  'SOLANA_WALLET',
  'BASE_WALLET',
  'ETHEREUM_WALLET'
] as const satisfies readonly AccountType[]
export type InputAccountType = (typeof INPUT_ACCOUNT_TYPES)[number]

/** The only currency a bank account type can hold (the format table ties each row to a currency). */
export const ACCOUNT_TYPE_CURRENCY = {
  US_ACCOUNT: 'USD',
  USD_ACCOUNT: 'USD',
  GBP_ACCOUNT: 'GBP',
  MXN_ACCOUNT: 'MXN',
  BRL_ACCOUNT: 'BRL',
  EUR_ACCOUNT: 'EUR',
  AED_ACCOUNT: 'AED',
  NGN_ACCOUNT: 'NGN',
  CAD_ACCOUNT: 'CAD',
  PHP_ACCOUNT: 'PHP',
  ZAR_ACCOUNT: 'ZAR',
  KES_ACCOUNT: 'KES',
  TZS_ACCOUNT: 'TZS',
  ZMW_ACCOUNT: 'ZMW',
  RWF_ACCOUNT: 'RWF',
  MWK_ACCOUNT: 'MWK',
  UGX_ACCOUNT: 'UGX',
  XOF_ACCOUNT: 'XOF'
} as const satisfies Partial<Record<InputAccountType, string>>

export const US_ACCOUNT_CATEGORIES = ['CHECKING', 'SAVINGS'] as const
export type UsAccountCategory = (typeof US_ACCOUNT_CATEGORIES)[number]

/** Payment rails named by the spec (ACH, WIRE) and the reference. */
export const PAYMENT_RAILS = [
  'ACH',
  'WIRE',
  'RTP',
  'FEDNOW',
  'SPEI',
  'PIX',
  'SEPA',
  'SEPA_INSTANT',
  'BANK_TRANSFER',
  'FAST',
  'FASTER_PAYMENTS',
  'MOBILE_MONEY',
  'PAYNOW'
] as const

/** XOF regions whose phone format the spec gives (Senegal, Ivory Coast, Benin). */
export const XOF_REGIONS = ['SN', 'CI', 'BJ'] as const
export type XofRegion = (typeof XOF_REGIONS)[number]

export interface FormatRule {
  /** Stable id, used by tests and UI hints. */
  id: string
  /** The row of the spec's format table. */
  item: string
  accountTypes: readonly InputAccountType[]
  /** accountInfo member that carries the value (named by the reference). */
  field: string
  pattern: RegExp
  message: string
}

/** The format table of spec 2.6 as data; the accountInfo schemas below are built from it. */
export const FORMAT_RULES = [
  {
    id: 'usRoutingNumber',
    item: 'US routing number',
    accountTypes: ['US_ACCOUNT', 'USD_ACCOUNT'],
    field: 'routingNumber',
    pattern: /^[0-9]{9}$/,
    message: 'US routing number must be exactly 9 digits'
  },
  {
    id: 'usAccountNumber',
    item: 'US account number',
    accountTypes: ['US_ACCOUNT', 'USD_ACCOUNT'],
    field: 'accountNumber',
    pattern: /^[0-9]{4,17}$/,
    message: 'US account number must be 4 to 17 digits'
  },
  {
    id: 'mxnClabe',
    item: 'Mexican CLABE',
    accountTypes: ['MXN_ACCOUNT'],
    field: 'clabeNumber',
    pattern: /^[0-9]{18}$/,
    message: 'Mexican CLABE must be exactly 18 digits'
  },
  {
    id: 'ngnAccountNumber',
    item: 'NGN account number',
    accountTypes: ['NGN_ACCOUNT'],
    field: 'accountNumber',
    pattern: /^[0-9]{10}$/,
    message: 'Nigerian (NGN) account number must be exactly 10 digits'
  },
  {
    id: 'cadBankCode',
    item: 'CAD bank code',
    accountTypes: ['CAD_ACCOUNT'],
    field: 'bankCode',
    pattern: /^[0-9]{3}$/,
    message: 'Canadian (CAD) bank code must be exactly 3 digits'
  },
  {
    id: 'cadBranchCode',
    item: 'CAD branch code',
    accountTypes: ['CAD_ACCOUNT'],
    field: 'branchCode',
    pattern: /^[0-9]{5}$/,
    message: 'Canadian (CAD) branch code must be exactly 5 digits'
  },
  {
    id: 'cadAccountNumber',
    item: 'CAD account number',
    accountTypes: ['CAD_ACCOUNT'],
    field: 'accountNumber',
    pattern: /^[0-9]{7,12}$/,
    message: 'Canadian (CAD) account number must be 7 to 12 digits'
  },
  {
    id: 'phpAccountNumber',
    item: 'PHP account number',
    accountTypes: ['PHP_ACCOUNT'],
    field: 'accountNumber',
    pattern: /^[0-9]{8,16}$/,
    message: 'Philippine (PHP) account number must be 8 to 16 digits'
  },
  {
    id: 'gbpSortCode',
    item: 'GBP sort code',
    accountTypes: ['GBP_ACCOUNT'],
    field: 'sortCode',
    pattern: /^[0-9]{6}$/,
    message: 'UK (GBP) sort code must be exactly 6 digits, without dashes'
  },
  {
    id: 'gbpAccountNumber',
    item: 'GBP account number',
    accountTypes: ['GBP_ACCOUNT'],
    field: 'accountNumber',
    pattern: /^[0-9]{8}$/,
    message: 'UK (GBP) account number must be exactly 8 digits'
  },
  {
    id: 'zarAccountNumber',
    item: 'ZAR account number',
    accountTypes: ['ZAR_ACCOUNT'],
    field: 'accountNumber',
    pattern: /^[0-9]{9,13}$/,
    message: 'South African (ZAR) account number must be 9 to 13 digits'
  },
  {
    id: 'kesPhone',
    item: 'KES mobile-money phone number',
    accountTypes: ['KES_ACCOUNT'],
    field: 'phoneNumber',
    pattern: /^\+254[0-9]{9}$/,
    message: 'Kenyan (KES) mobile-money phone number must be +254 followed by 9 digits'
  },
  {
    id: 'tzsPhone',
    item: 'TZS mobile-money phone number',
    accountTypes: ['TZS_ACCOUNT'],
    field: 'phoneNumber',
    pattern: /^\+255[0-9]{9}$/,
    message: 'Tanzanian (TZS) mobile-money phone number must be +255 followed by 9 digits'
  },
  {
    id: 'zmwPhone',
    item: 'ZMW mobile-money phone number',
    accountTypes: ['ZMW_ACCOUNT'],
    field: 'phoneNumber',
    pattern: /^\+260[0-9]{9}$/,
    message: 'Zambian (ZMW) mobile-money phone number must be +260 followed by 9 digits'
  },
  {
    id: 'rwfPhone',
    item: 'RWF mobile-money phone number',
    accountTypes: ['RWF_ACCOUNT'],
    field: 'phoneNumber',
    pattern: /^\+250[0-9]{9}$/,
    message: 'Rwandan (RWF) mobile-money phone number must be +250 followed by 9 digits'
  },
  {
    id: 'mwkPhone',
    item: 'MWK mobile-money phone number',
    accountTypes: ['MWK_ACCOUNT'],
    field: 'phoneNumber',
    pattern: /^\+265[0-9]{9}$/,
    message: 'Malawian (MWK) mobile-money phone number must be +265 followed by 9 digits'
  },
  {
    id: 'ugxPhone',
    item: 'UGX mobile-money phone number',
    accountTypes: ['UGX_ACCOUNT'],
    field: 'phoneNumber',
    pattern: /^\+256[0-9]{9}$/,
    message: 'Ugandan (UGX) mobile-money phone number must be +256 followed by 9 digits'
  },
  {
    id: 'xofPhone',
    item: 'XOF phone number',
    accountTypes: ['XOF_ACCOUNT'],
    field: 'phoneNumber',
    pattern: /^(\+221[0-9]{9}|\+225[0-9]{10}|\+229[0-9]{8,9})$/,
    message:
      'XOF phone number must be +221 and 9 digits (Senegal), +225 and 10 digits (Ivory Coast) or +229 and 8 or 9 digits (Benin)'
  }
] as const satisfies readonly FormatRule[]
export type FormatRuleId = (typeof FORMAT_RULES)[number]['id']

function ruleById(id: FormatRuleId): FormatRule {
  const rule = FORMAT_RULES.find((r) => r.id === id)
  if (!rule) throw new Error(`unknown format rule ${id}`)
  return rule
}

/** The schema of the member a format rule governs: required, a string, matching the rule. */
export function formatField(id: FormatRuleId) {
  const rule = ruleById(id)
  return z
    .string({
      error: (issue) =>
        issue.input === undefined ? `${rule.item} (${rule.field}) is required` : `${rule.message} (got a non-string)`
    })
    .regex(rule.pattern, { error: rule.message })
}

/** Which XOF region a phone number belongs to, from its country calling code. */
export function xofRegionOfPhone(phone: string): XofRegion | null {
  if (phone.startsWith('+221')) return 'SN'
  if (phone.startsWith('+225')) return 'CI'
  if (phone.startsWith('+229')) return 'BJ'
  return null
}

const paymentRails = z
  .array(
    z.string().regex(/^[A-Z][A-Z0-9_]*$/, {
      error: 'Each payment rail must be an upper-case name such as ACH or WIRE'
    }),
    { error: 'paymentRails must be a list of rail names such as ["ACH", "WIRE"]' }
  )
  .min(1, { error: 'paymentRails, when given, must name at least one rail' })

/** Members every bank-account accountInfo may carry. bankName must be a value returned by GET /discoveries. */
const bankCommon = {
  bankName: nonBlank('bankName').optional(),
  paymentRails: paymentRails.optional(),
  beneficiary: BeneficiaryInput.optional()
}
const bankNameRequired = (country: string) => ({
  ...bankCommon,
  bankName: nonBlank(`bankName (required for ${country} accounts; use a bankName from the discovery endpoint)`)
})

const literal = <const T extends string>(value: T) => z.literal(value)

const usCommon = {
  accountNumber: formatField('usAccountNumber'),
  routingNumber: formatField('usRoutingNumber'),
  ...bankCommon
}

/**
 * USD_ACCOUNT in the published shape: checking or savings is `bankAccountType` (OpenAPI example of
 * POST /customers/external-accounts). The spec's `accountCategory` is still accepted so old requests and data read;
 * one of the two is required, and when both are given they must agree (docs/real-service.md).
 */
export const UsdAccountInfoInput = z
  .strictObject({
    accountType: literal('USD_ACCOUNT'),
    ...usCommon,
    bankAccountType: closedEnum(US_ACCOUNT_CATEGORIES, 'USD bankAccountType').optional(),
    accountCategory: closedEnum(US_ACCOUNT_CATEGORIES, 'US accountCategory').optional()
  })
  .superRefine((a, ctx) => {
    if (a.bankAccountType === undefined && a.accountCategory === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['bankAccountType'],
        message: 'USD bankAccountType is required (CHECKING or SAVINGS)'
      })
    else if (
      a.bankAccountType !== undefined &&
      a.accountCategory !== undefined &&
      a.bankAccountType !== a.accountCategory
    )
      ctx.addIssue({
        code: 'custom',
        path: ['accountCategory'],
        message: 'accountCategory and bankAccountType disagree; send only bankAccountType'
      })
  })

function mobileMoney<const T extends string>(accountType: T, rule: FormatRuleId) {
  return z.strictObject({
    accountType: literal(accountType),
    phoneNumber: formatField(rule),
    provider: nonBlank('Mobile-money provider'),
    paymentRails: paymentRails.optional(),
    beneficiary: BeneficiaryInput.optional()
  })
}

/** The spec's US_ACCOUNT (accountCategory required): still accepted, but Paydesk itself sends USD_ACCOUNT. */
export const UsAccountInfoInput = z.strictObject({
  accountType: literal('US_ACCOUNT'),
  ...usCommon,
  accountCategory: closedEnum(US_ACCOUNT_CATEGORIES, 'US accountCategory')
})
export const GbpAccountInfoInput = z.strictObject({
  accountType: literal('GBP_ACCOUNT'),
  sortCode: formatField('gbpSortCode'),
  accountNumber: formatField('gbpAccountNumber'),
  ...bankCommon
})
export const MxnAccountInfoInput = z.strictObject({
  accountType: literal('MXN_ACCOUNT'),
  clabeNumber: formatField('mxnClabe'),
  ...bankCommon
})
export const BRL_PIX_KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] as const
export const BrlAccountInfoInput = z.strictObject({
  accountType: literal('BRL_ACCOUNT'),
  pixKey: nonBlank('Brazilian pixKey'),
  pixKeyType: closedEnum(BRL_PIX_KEY_TYPES, 'Brazilian pixKeyType').optional(),
  taxId: z
    .string({
      error: (i) => (i.input === undefined ? 'Brazilian taxId is required' : 'Brazilian taxId must be a string')
    })
    .regex(/^[0-9]{11,14}$/, { error: 'Brazilian taxId (CPF or CNPJ) must be 11 to 14 digits, without punctuation' }),
  ...bankCommon
})
const swiftCode = z.string().regex(/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/, {
  error: 'SWIFT/BIC code must be 8 or 11 upper-case letters or digits (bank, country, location, optional branch)'
})
export const EurAccountInfoInput = z.strictObject({
  accountType: literal('EUR_ACCOUNT'),
  iban: z
    .string({ error: (i) => (i.input === undefined ? 'IBAN is required' : 'IBAN must be a string') })
    .regex(/^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$/, {
      error: 'IBAN must be a country code, 2 check digits and 11 to 30 letters or digits, without spaces'
    }),
  swiftCode: swiftCode.optional(),
  ...bankCommon
})
/** AED (UAE) account: the spec names the type; fields from the reference (IBAN AE + 21 digits). */
export const AedAccountInfoInput = z.strictObject({
  accountType: literal('AED_ACCOUNT'),
  iban: z
    .string({ error: (i) => (i.input === undefined ? 'IBAN is required' : 'IBAN must be a string') })
    .regex(/^AE[0-9]{21}$/, { error: 'UAE (AED) IBAN must be AE followed by 21 digits, without spaces' }),
  swiftCode: swiftCode.optional(),
  ...bankCommon
})
export const NgnAccountInfoInput = z.strictObject({
  accountType: literal('NGN_ACCOUNT'),
  accountNumber: formatField('ngnAccountNumber'),
  ...bankNameRequired('Nigerian (NGN)')
})
export const CadAccountInfoInput = z.strictObject({
  accountType: literal('CAD_ACCOUNT'),
  bankCode: formatField('cadBankCode'),
  branchCode: formatField('cadBranchCode'),
  accountNumber: formatField('cadAccountNumber'),
  ...bankCommon
})
export const PhpAccountInfoInput = z.strictObject({
  accountType: literal('PHP_ACCOUNT'),
  accountNumber: formatField('phpAccountNumber'),
  ...bankNameRequired('Philippine (PHP)')
})
export const ZarAccountInfoInput = z.strictObject({
  accountType: literal('ZAR_ACCOUNT'),
  accountNumber: formatField('zarAccountNumber'),
  ...bankNameRequired('South African (ZAR)')
})
export const KesAccountInfoInput = mobileMoney('KES_ACCOUNT', 'kesPhone')
export const TzsAccountInfoInput = mobileMoney('TZS_ACCOUNT', 'tzsPhone')
export const ZmwAccountInfoInput = mobileMoney('ZMW_ACCOUNT', 'zmwPhone')
export const RwfAccountInfoInput = mobileMoney('RWF_ACCOUNT', 'rwfPhone')
export const MwkAccountInfoInput = mobileMoney('MWK_ACCOUNT', 'mwkPhone')
export const UgxAccountInfoInput = mobileMoney('UGX_ACCOUNT', 'ugxPhone')
export const XofAccountInfoInput = z
  .strictObject({
    accountType: literal('XOF_ACCOUNT'),
    phoneNumber: formatField('xofPhone'),
    provider: nonBlank('Mobile-money provider'),
    region: closedEnum(XOF_REGIONS, 'XOF region'),
    paymentRails: paymentRails.optional(),
    beneficiary: BeneficiaryInput.optional()
  })
  .superRefine((info, ctx) => {
    const phoneRegion = xofRegionOfPhone(info.phoneNumber)
    if (phoneRegion !== null && phoneRegion !== info.region) {
      ctx.addIssue({
        code: 'custom',
        path: ['region'],
        message: `XOF region ${info.region} does not match the phone number, which is from ${phoneRegion}`
      })
    }
  })

export const SparkWalletInfoInput = z.strictObject({
  accountType: literal('SPARK_WALLET'),
  address: z
    .string({
      error: (i) =>
        i.input === undefined ? 'Spark wallet address is required' : 'Spark wallet address must be a string'
    })
    .superRefine((s, ctx) => {
      const problem = sparkAddressProblem(s)
      if (problem !== null) ctx.addIssue({ code: 'custom', message: problem })
    })
})
export const SolanaWalletInfoInput = z.strictObject({
  accountType: literal('SOLANA_WALLET'),
  address: z
    .string({
      error: (i) =>
        i.input === undefined ? 'Solana wallet address is required' : 'Solana wallet address must be a string'
    })
    .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, { error: 'Solana wallet address must be 32 to 44 base58 characters' })
})
const evmAddress = (what: string) =>
  z
    .string({ error: (i) => (i.input === undefined ? `${what} is required` : `${what} must be a string`) })
    .regex(/^0x[0-9a-fA-F]{40}$/, { error: `${what} must be 0x followed by 40 hexadecimal characters` })
export const BaseWalletInfoInput = z.strictObject({
  accountType: literal('BASE_WALLET'),
  address: evmAddress('Base wallet address')
})
export const EthereumWalletInfoInput = z.strictObject({
  accountType: literal('ETHEREUM_WALLET'),
  address: evmAddress('Ethereum wallet address')
})

/** accountInfo of requests (spec 2.6), discriminated by accountType; every format rule enforced. */
export const AccountInfoInput = z.discriminatedUnion(
  'accountType',
  [
    UsAccountInfoInput,
    UsdAccountInfoInput,
    GbpAccountInfoInput,
    MxnAccountInfoInput,
    BrlAccountInfoInput,
    EurAccountInfoInput,
    AedAccountInfoInput,
    NgnAccountInfoInput,
    CadAccountInfoInput,
    PhpAccountInfoInput,
    ZarAccountInfoInput,
    KesAccountInfoInput,
    TzsAccountInfoInput,
    ZmwAccountInfoInput,
    RwfAccountInfoInput,
    MwkAccountInfoInput,
    UgxAccountInfoInput,
    XofAccountInfoInput,
    SparkWalletInfoInput,
    SolanaWalletInfoInput,
    BaseWalletInfoInput,
    EthereumWalletInfoInput
  ],
  {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? `accountType must be one of ${INPUT_ACCOUNT_TYPES.join(', ')}`
        : 'accountInfo must be an object with an accountType'
  }
)
export type AccountInfoInput = z.infer<typeof AccountInfoInput>

/** accountInfo of responses: any accountType string, every member optional, unknown members kept. */
export const AccountInfo = z.looseObject({
  accountType: openEnum(ACCOUNT_TYPES),
  accountNumber: z.string().optional(),
  routingNumber: z.string().optional(),
  accountCategory: z.string().optional(),
  /** Published name of checking/savings on USD accounts (the spec's accountCategory). */
  bankAccountType: z.string().optional(),
  bankName: z.string().optional(),
  clabeNumber: z.string().optional(),
  sortCode: z.string().optional(),
  iban: z.string().optional(),
  swiftCode: z.string().optional(),
  bankCode: z.string().optional(),
  branchCode: z.string().optional(),
  pixKey: z.string().optional(),
  pixKeyType: z.string().optional(),
  taxId: z.string().optional(),
  phoneNumber: z.string().optional(),
  provider: z.string().optional(),
  region: z.string().optional(),
  paymentRails: z.array(z.string()).optional(),
  /** Wallet address (SPARK_WALLET and other wallets). */
  address: z.string().optional(),
  beneficiary: Beneficiary.partial({ beneficiaryType: true }).optional()
})
export type AccountInfo = z.infer<typeof AccountInfo>

/**
 * The identifier whose last digits pick a sandbox outcome (account number, CLABE, IBAN, phone number, wallet
 * address...), or undefined when the accountInfo has none.
 */
export function accountInfoIdentifier(info: Record<string, unknown>): string | undefined {
  for (const key of ['accountNumber', 'clabeNumber', 'iban', 'phoneNumber', 'address', 'pixKey', 'invoice']) {
    const v = info[key]
    if (typeof v === 'string' && v.length > 0) return v
  }
  return undefined
}
