/**
 * The account types Paydesk knows and what each implies (currency, wallet or bank, the rails and regions named with
 * them). Changes when the spec or the service adds an account type.
 */

/** The only currency a bank account type a request may use can hold (the format table ties each row to a currency). */
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
} as const
type BankInputAccountType = keyof typeof ACCOUNT_TYPE_CURRENCY

/** Wallet types a request may use (each has a schema in AccountInfoInput). */
const INPUT_WALLET_TYPES = ['SPARK_WALLET', 'SOLANA_WALLET', 'BASE_WALLET', 'ETHEREUM_WALLET'] as const

/** Account types a request may use (each has a schema in AccountInfoInput): the bank types, then the wallets. */
export const INPUT_ACCOUNT_TYPES = [
  ...(Object.keys(ACCOUNT_TYPE_CURRENCY) as BankInputAccountType[]),
  ...INPUT_WALLET_TYPES
] as const
export type InputAccountType = (typeof INPUT_ACCOUNT_TYPES)[number]

/** Wallet types the reference names that Paydesk can show but not create. */
const SHOWN_ONLY_WALLET_TYPES = ['LIGHTNING', 'TRON_WALLET', 'POLYGON_WALLET'] as const

/** Currencies of the reference's bank account types (<CUR>_ACCOUNT) that Paydesk shows but has no request schema for. */
// prettier-ignore
const SHOWN_ONLY_BANK_CURRENCIES = [
  'BWP', 'DKK', 'HKD', 'IDR', 'INR', 'MYR', 'SGD', 'THB', 'VND',
  'XAF', 'BDT', 'COP', 'EGP', 'GHS', 'GTQ', 'HTG', 'JMD', 'PKR'
] as const

/**
 * Account types known to Paydesk: the spec's values (US_ACCOUNT, USD_ACCOUNT, GBP_ACCOUNT, SPARK_WALLET) plus the
 * reference's ExternalAccountType values. A response may carry any other string.
 */
export const ACCOUNT_TYPES = [
  ...INPUT_ACCOUNT_TYPES,
  ...SHOWN_ONLY_WALLET_TYPES,
  ...SHOWN_ONLY_BANK_CURRENCIES.map((c) => `${c}_ACCOUNT` as const)
] as const

/** Account types that are crypto wallets: no beneficiary, cryptoNetwork required on create. */
export const WALLET_ACCOUNT_TYPES = [...INPUT_WALLET_TYPES, ...SHOWN_ONLY_WALLET_TYPES] as const

export function isWalletAccountType(accountType: string): boolean {
  return (WALLET_ACCOUNT_TYPES as readonly string[]).includes(accountType)
}

export const US_ACCOUNT_CATEGORIES = ['CHECKING', 'SAVINGS'] as const

/** XOF regions whose phone format the spec gives (Senegal, Ivory Coast, Benin). */
export const XOF_REGIONS = ['SN', 'CI', 'BJ'] as const
export type XofRegion = (typeof XOF_REGIONS)[number]
