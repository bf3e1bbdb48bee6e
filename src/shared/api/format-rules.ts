import { z } from 'zod'
import type { InputAccountType, XofRegion } from './account-types'
import { withoutSeparators } from './text'

interface FormatRule {
  /** Stable id, used by tests and UI hints. */
  id: string
  /** The row of the spec's format table, also the value's name in messages ("Enter the US routing number"). */
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
    message: 'UK (GBP) sort code must be 6 digits, such as 12-34-56'
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

/**
 * The schema of the member a format rule governs: required, a string, matching the rule once the spaces and dashes
 * people write inside numbers ("12-34-56", "+254 712 345 678") are taken out; what passes on is the bare published
 * form. Every rule of the table is digits (with a leading + for phones), so no separator belongs to a value.
 */
export function formatField(id: FormatRuleId) {
  const rule = ruleById(id)
  return z
    .string({
      error: (issue) => (issue.input === undefined ? `Enter the ${rule.item}` : `${rule.message} (got a non-string)`)
    })
    .overwrite(withoutSeparators)
    .regex(rule.pattern, { error: rule.message })
}

/** Which XOF region a phone number belongs to, from its country calling code. */
export function xofRegionOfPhone(phone: string): XofRegion | null {
  if (phone.startsWith('+221')) return 'SN'
  if (phone.startsWith('+225')) return 'CI'
  if (phone.startsWith('+229')) return 'BJ'
  return null
}
