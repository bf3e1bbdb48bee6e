/** Currencies the sandbox knows: Currency objects (spec 2.2) and a fixed USD value for conversions. */

export interface CurrencyInfo {
  code: string
  name: string
  symbol: string
  decimals: number
}

interface Entry extends CurrencyInfo {
  /** Value of one major unit in USD (fixed sandbox rate). */
  usd: number
  crypto?: boolean
  /** Region whose KYC rules govern the currency (fiat only; USD is accepted with any). */
  kycRegion?: string
}

const TABLE: Entry[] = [
  { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2, usd: 1, kycRegion: 'US' },
  { code: 'EUR', name: 'Euro', symbol: '€', decimals: 2, usd: 1.08, kycRegion: 'EU' },
  { code: 'GBP', name: 'Pound Sterling', symbol: '£', decimals: 2, usd: 1.27, kycRegion: 'GB' },
  { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2, usd: 0.055, kycRegion: 'MX' },
  { code: 'BRL', name: 'Brazilian Real', symbol: 'R$', decimals: 2, usd: 0.18, kycRegion: 'BR' },
  { code: 'PHP', name: 'Philippine Peso', symbol: '₱', decimals: 2, usd: 0.017, kycRegion: 'PH' },
  { code: 'NGN', name: 'Nigerian Naira', symbol: '₦', decimals: 2, usd: 0.00065, kycRegion: 'NG' },
  { code: 'CAD', name: 'Canadian Dollar', symbol: '$', decimals: 2, usd: 0.73, kycRegion: 'CA' },
  { code: 'INR', name: 'Indian Rupee', symbol: '₹', decimals: 2, usd: 0.012, kycRegion: 'IN' },
  { code: 'ZAR', name: 'South African Rand', symbol: 'R', decimals: 2, usd: 0.054, kycRegion: 'ZA' },
  { code: 'KES', name: 'Kenyan Shilling', symbol: 'KSh', decimals: 2, usd: 0.0077, kycRegion: 'KE' },
  { code: 'TZS', name: 'Tanzanian Shilling', symbol: 'TSh', decimals: 2, usd: 0.00038, kycRegion: 'TZ' },
  { code: 'UGX', name: 'Ugandan Shilling', symbol: 'USh', decimals: 0, usd: 0.00027, kycRegion: 'UG' },
  { code: 'RWF', name: 'Rwandan Franc', symbol: 'FRw', decimals: 0, usd: 0.00073, kycRegion: 'RW' },
  { code: 'ZMW', name: 'Zambian Kwacha', symbol: 'ZK', decimals: 2, usd: 0.037, kycRegion: 'ZM' },
  { code: 'MWK', name: 'Malawian Kwacha', symbol: 'MK', decimals: 2, usd: 0.00058, kycRegion: 'MW' },
  { code: 'XOF', name: 'West African CFA Franc', symbol: 'CFA', decimals: 0, usd: 0.0017, kycRegion: 'SN' },
  { code: 'AED', name: 'UAE Dirham', symbol: 'د.إ', decimals: 2, usd: 0.27, kycRegion: 'AE' },
  { code: 'DKK', name: 'Danish Krone', symbol: 'kr', decimals: 2, usd: 0.145, kycRegion: 'DK' },
  { code: 'HKD', name: 'Hong Kong Dollar', symbol: 'HK$', decimals: 2, usd: 0.128, kycRegion: 'HK' },
  { code: 'SGD', name: 'Singapore Dollar', symbol: 'S$', decimals: 2, usd: 0.74, kycRegion: 'SG' },
  { code: 'BTC', name: 'Bitcoin', symbol: '₿', decimals: 8, usd: 65_000, crypto: true },
  { code: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6, usd: 1, crypto: true },
  { code: 'USDB', name: 'USDB', symbol: 'USDB', decimals: 6, usd: 1, crypto: true }
]

const BY_CODE = new Map(TABLE.map((e) => [e.code, e]))

export function isKnownCurrency(code: string): boolean {
  return BY_CODE.has(code)
}

export function isCrypto(code: string): boolean {
  return BY_CODE.get(code)?.crypto === true
}

/** Currency object for a code; unknown codes get a generic 2-decimal description. */
export function currency(code: string): CurrencyInfo {
  const e = BY_CODE.get(code)
  if (!e) return { code, name: code, symbol: code, decimals: 2 }
  return { code: e.code, name: e.name, symbol: e.symbol, decimals: e.decimals }
}

export function amountOf(amount: number, code: string): { amount: number; currency: CurrencyInfo } {
  return { amount, currency: currency(code) }
}

export function kycRegionOf(code: string): string | undefined {
  return BY_CODE.get(code)?.kycRegion
}

/** Sending-currency major units per receiving-currency major unit. */
export function exchangeRate(sending: string, receiving: string): number {
  const s = BY_CODE.get(sending)?.usd ?? 1
  const r = BY_CODE.get(receiving)?.usd ?? 1
  return r / s
}

/** Convert minor units of `from` into minor units of `to` at the sandbox rate, rounding down. */
export function convertMinor(amount: number, from: string, to: string): number {
  if (from === to) return amount
  const f = BY_CODE.get(from)
  const t = BY_CODE.get(to)
  const fd = f?.decimals ?? 2
  const td = t?.decimals ?? 2
  const usd = (amount / 10 ** fd) * (f?.usd ?? 1)
  return Math.floor((usd / (t?.usd ?? 1)) * 10 ** td + 1e-9)
}

const EURO_COUNTRIES = new Set([
  'AT',
  'BE',
  'CY',
  'DE',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PT',
  'SI',
  'SK'
])

const REGION_CURRENCY: Record<string, string> = {
  US: 'USD',
  GB: 'GBP',
  MX: 'MXN',
  BR: 'BRL',
  PH: 'PHP',
  NG: 'NGN',
  CA: 'CAD',
  IN: 'INR',
  ZA: 'ZAR',
  KE: 'KES',
  TZ: 'TZS',
  UG: 'UGX',
  RW: 'RWF',
  ZM: 'ZMW',
  MW: 'MWK',
  SN: 'XOF',
  CI: 'XOF',
  BJ: 'XOF',
  AE: 'AED',
  DK: 'DKK',
  HK: 'HKD',
  SG: 'SGD'
}

/** Currencies inferred from a region when a customer is created without `currencies`. */
export function currenciesForRegion(region: string | undefined): string[] {
  if (!region) return ['USD']
  if (EURO_COUNTRIES.has(region)) return ['EUR']
  return [REGION_CURRENCY[region] ?? 'USD']
}

/** KYC region of a country (euro countries share one). */
export function kycRegionOfCountry(country: string): string {
  return EURO_COUNTRIES.has(country) ? 'EU' : country
}
