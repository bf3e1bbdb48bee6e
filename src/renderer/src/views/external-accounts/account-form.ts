import {
  ACCOUNT_TYPE_CURRENCY,
  type Customer,
  BRL_PIX_KEY_TYPES,
  INPUT_ACCOUNT_TYPES,
  isWalletAccountType,
  US_ACCOUNT_CATEGORIES,
  WALLET_NETWORKS,
  XOF_REGIONS,
  type InputAccountType
} from '../../../../shared/api'
import { nestFlat } from '../../ui/flat-form'

/** One box of the add-account form, keyed by the dotted request path it fills. */
export interface AccountField {
  name: string
  label: string
  hint?: string
  placeholder?: string
  /** A select with these values instead of a text box. */
  options?: readonly string[]
  /** Select with an empty first option ("not given"). */
  optional?: boolean
  numeric?: boolean
}

const ai = (member: string) => `accountInfo.${member}`
const MOBILE: AccountField[] = [
  { name: ai('phoneNumber'), label: 'Mobile-money phone number', placeholder: '+254712345678' },
  { name: ai('provider'), label: 'Provider', placeholder: 'M-PESA' }
]
const wallet = (what: string, placeholder: string): AccountField[] => [
  { name: ai('address'), label: `${what} address`, placeholder }
]

/** The account-detail boxes of each accountType AccountInfoInput supports (spec 2.6 plus the reference). */
export const ACCOUNT_FIELDS: Record<InputAccountType, AccountField[]> = {
  US_ACCOUNT: [
    { name: ai('routingNumber'), label: 'Routing number', hint: '9 digits', numeric: true },
    { name: ai('accountNumber'), label: 'Account number', hint: '4 to 17 digits', numeric: true },
    { name: ai('accountCategory'), label: 'Account category', options: US_ACCOUNT_CATEGORIES }
  ],
  USD_ACCOUNT: [
    { name: ai('routingNumber'), label: 'Routing number', hint: '9 digits', numeric: true },
    { name: ai('accountNumber'), label: 'Account number', hint: '4 to 17 digits', numeric: true },
    { name: ai('bankAccountType'), label: 'Checking or savings', options: US_ACCOUNT_CATEGORIES }
  ],
  GBP_ACCOUNT: [
    { name: ai('sortCode'), label: 'Sort code', hint: '6 digits, dashes optional', placeholder: '12-34-56' },
    { name: ai('accountNumber'), label: 'Account number', hint: '8 digits', numeric: true }
  ],
  MXN_ACCOUNT: [{ name: ai('clabeNumber'), label: 'CLABE', hint: '18 digits', numeric: true }],
  BRL_ACCOUNT: [
    { name: ai('pixKey'), label: 'PIX key' },
    { name: ai('pixKeyType'), label: 'PIX key type', options: BRL_PIX_KEY_TYPES, optional: true },
    { name: ai('taxId'), label: 'Tax id (CPF or CNPJ)', hint: '11 to 14 digits', numeric: true }
  ],
  EUR_ACCOUNT: [
    { name: ai('iban'), label: 'IBAN', placeholder: 'DE89 3704 0044 0532 0130 00', hint: 'Spaces optional' },
    { name: ai('swiftCode'), label: 'SWIFT/BIC', hint: 'Optional' }
  ],
  AED_ACCOUNT: [
    { name: ai('iban'), label: 'IBAN', placeholder: 'AE07 0331 2345 6789 0123 456', hint: 'Spaces optional' },
    { name: ai('swiftCode'), label: 'SWIFT/BIC', hint: 'Optional' }
  ],
  NGN_ACCOUNT: [{ name: ai('accountNumber'), label: 'Account number', hint: '10 digits', numeric: true }],
  CAD_ACCOUNT: [
    { name: ai('bankCode'), label: 'Bank code', hint: '3 digits', numeric: true },
    { name: ai('branchCode'), label: 'Branch code', hint: '5 digits', numeric: true },
    { name: ai('accountNumber'), label: 'Account number', hint: '7 to 12 digits', numeric: true }
  ],
  PHP_ACCOUNT: [{ name: ai('accountNumber'), label: 'Account number', hint: '8 to 16 digits', numeric: true }],
  ZAR_ACCOUNT: [{ name: ai('accountNumber'), label: 'Account number', hint: '9 to 13 digits', numeric: true }],
  KES_ACCOUNT: MOBILE,
  TZS_ACCOUNT: MOBILE,
  ZMW_ACCOUNT: MOBILE,
  RWF_ACCOUNT: MOBILE,
  MWK_ACCOUNT: MOBILE,
  UGX_ACCOUNT: MOBILE,
  XOF_ACCOUNT: [...MOBILE, { name: ai('region'), label: 'Country', options: XOF_REGIONS }],
  SPARK_WALLET: wallet('Spark', 'spark1…'),
  SOLANA_WALLET: wallet('Solana', 'base58, 32 to 44 characters'),
  BASE_WALLET: wallet('Base', '0x…'),
  ETHEREUM_WALLET: wallet('Ethereum', '0x…')
}

/**
 * Account types the add form offers: every request type except the spec's US_ACCOUNT, which the published API does
 * not know; US accounts are created as USD_ACCOUNT (docs/real-service.md).
 */
export const FORM_ACCOUNT_TYPES = INPUT_ACCOUNT_TYPES.filter((t) => t !== 'US_ACCOUNT')

/** Bank account types whose bankName is required and must come from the discovery endpoint. */
export const BANK_NAME_REQUIRED = new Set<string>(['NGN_ACCOUNT', 'PHP_ACCOUNT', 'ZAR_ACCOUNT'])
/** Mobile-money types have no bankName member. */
const MOBILE_TYPES = new Set<string>([
  'KES_ACCOUNT',
  'TZS_ACCOUNT',
  'ZMW_ACCOUNT',
  'RWF_ACCOUNT',
  'MWK_ACCOUNT',
  'UGX_ACCOUNT',
  'XOF_ACCOUNT'
])
export const hasBankName = (type: string) => !isWalletAccountType(type) && !MOBILE_TYPES.has(type)

/** Currencies a wallet can hold, for the currency select (the schema accepts any ticker). */
export const WALLET_CURRENCIES = ['BTC', 'USDC', 'USDT']

export const fixedCurrency = (type: string): string | undefined =>
  (ACCOUNT_TYPE_CURRENCY as Record<string, string>)[type]
export const networksOf = (type: string) => WALLET_NETWORKS[type] ?? []

const BENEFICIARY_COMMON = ['birthDate', 'nationality', 'email', 'phoneNumber', 'countryOfResidence'].map(
  (m) => `accountInfo.beneficiary.${m}`
)
export const BENEFICIARY_ADDRESS = ['line1', 'line2', 'city', 'state', 'postalCode', 'country'].map(
  (m) => `accountInfo.beneficiary.address.${m}`
)

/** Every box a person can see for this account type and beneficiary type, in order. */
export function relevantKeys(values: Record<string, string>): string[] {
  const type = (values['accountInfo.accountType'] ?? '') as InputAccountType
  const keys = ['owner', 'accountInfo.accountType', 'currency']
  if (values['owner'] === 'customer') keys.push('customerId', 'defaultUmaDepositAccount')
  keys.push(...(ACCOUNT_FIELDS[type] ?? []).map((f) => f.name))
  if (isWalletAccountType(type)) keys.push('cryptoNetwork')
  else {
    if (hasBankName(type)) keys.push('accountInfo.bankName')
    keys.push('accountInfo.beneficiary.beneficiaryType')
    if (values['accountInfo.beneficiary.beneficiaryType'] === 'BUSINESS') {
      keys.push('accountInfo.beneficiary.legalName', 'accountInfo.beneficiary.taxId')
    } else keys.push('accountInfo.beneficiary.fullName')
    keys.push(...BENEFICIARY_COMMON, ...BENEFICIARY_ADDRESS)
  }
  keys.push('platformAccountId')
  return keys
}

/** The boxes → ExternalAccountCreateRequest: only the boxes of the chosen type, empty ones left out. */
export function toCreateRequest(values: Record<string, string>): unknown {
  const picked: Record<string, string> = {}
  for (const key of relevantKeys(values)) {
    if (key === 'owner' || key === 'defaultUmaDepositAccount') continue
    picked[key] = values[key] ?? ''
  }
  const body = nestFlat(picked)
  if (values['owner'] === 'customer' && values['defaultUmaDepositAccount'] === 'true')
    body['defaultUmaDepositAccount'] = true
  return body
}

export const INITIAL_VALUES: Record<string, string> = {
  owner: 'customer',
  customerId: '',
  // USD_ACCOUNT with bankAccountType is the shape the published API accepts (docs/real-service.md).
  'accountInfo.accountType': 'USD_ACCOUNT',
  currency: 'USD',
  'accountInfo.accountCategory': 'CHECKING',
  'accountInfo.bankAccountType': 'CHECKING',
  'accountInfo.beneficiary.beneficiaryType': 'INDIVIDUAL',
  defaultUmaDepositAccount: 'false',
  'accountInfo.region': 'SN'
}

/** The customer members a beneficiary is prefilled from, by the box each fills. */
const PREFILL_FROM_CUSTOMER: Record<string, (c: Pick<Customer, 'fullName' | 'address'>) => string | undefined> = {
  'accountInfo.beneficiary.fullName': (c) => c.fullName,
  ...Object.fromEntries(
    ['line1', 'line2', 'city', 'state', 'postalCode', 'country'].map((m) => [
      `accountInfo.beneficiary.address.${m}`,
      (c: Pick<Customer, 'address'>) => c.address?.[m as keyof NonNullable<Customer['address']>]
    ])
  )
}

/**
 * The beneficiary boxes filled from the chosen customer (their name and address: most accounts a customer adds are
 * their own). A box the operator typed in is kept; one still holding what an earlier choice put there follows the
 * new customer. Returns the patch to apply, and what now came from the customer (to tell the next choice apart).
 */
export function beneficiaryFromCustomer(
  values: Record<string, string>,
  earlier: Record<string, string>,
  customer: Pick<Customer, 'fullName' | 'address'>
): { patch: Record<string, string>; filled: Record<string, string> } {
  const patch: Record<string, string> = {}
  const filled: Record<string, string> = {}
  for (const [key, read] of Object.entries(PREFILL_FROM_CUSTOMER)) {
    const current = values[key] ?? ''
    if (current !== '' && current !== earlier[key]) continue
    const next = read(customer)?.trim() ?? ''
    if (next !== current) patch[key] = next
    if (next !== '') filled[key] = next
  }
  return { patch, filled }
}

/** What the schema cannot know: an account for "a customer" needs that customer chosen. */
export function addFormChecks(values: Record<string, string>): Record<string, string | undefined> {
  return {
    customerId:
      values['owner'] === 'customer' && !values['customerId']
        ? 'Choose the customer this account belongs to'
        : undefined
  }
}
