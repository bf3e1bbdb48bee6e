/** Currencies the sandbox knows: Currency objects (spec 2.2) and a fixed USD value for conversions. */

export interface CurrencyInfo {
  code: string
  name: string
  symbol: string
  decimals: number
}

interface Entry extends CurrencyInfo {
  /** Value of one major unit in millionths of a USD (fixed sandbox rate): an integer, so conversions stay exact. */
  usdMicro: number
  crypto?: boolean
  /** Region whose KYC rules govern the currency (fiat only; USD is accepted with any). */
  kycRegion?: string
}

const TABLE: Entry[] = [
  { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2, usdMicro: 1_000_000, kycRegion: 'US' },
  { code: 'EUR', name: 'Euro', symbol: '€', decimals: 2, usdMicro: 1_080_000, kycRegion: 'EU' },
  { code: 'GBP', name: 'Pound Sterling', symbol: '£', decimals: 2, usdMicro: 1_270_000, kycRegion: 'GB' },
  { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2, usdMicro: 55_000, kycRegion: 'MX' },
  { code: 'BRL', name: 'Brazilian Real', symbol: 'R$', decimals: 2, usdMicro: 180_000, kycRegion: 'BR' },
  { code: 'PHP', name: 'Philippine Peso', symbol: '₱', decimals: 2, usdMicro: 17_000, kycRegion: 'PH' },
  { code: 'NGN', name: 'Nigerian Naira', symbol: '₦', decimals: 2, usdMicro: 650, kycRegion: 'NG' },
  { code: 'CAD', name: 'Canadian Dollar', symbol: '$', decimals: 2, usdMicro: 730_000, kycRegion: 'CA' },
  { code: 'INR', name: 'Indian Rupee', symbol: '₹', decimals: 2, usdMicro: 12_000, kycRegion: 'IN' },
  { code: 'ZAR', name: 'South African Rand', symbol: 'R', decimals: 2, usdMicro: 54_000, kycRegion: 'ZA' },
  { code: 'KES', name: 'Kenyan Shilling', symbol: 'KSh', decimals: 2, usdMicro: 7_700, kycRegion: 'KE' },
  { code: 'TZS', name: 'Tanzanian Shilling', symbol: 'TSh', decimals: 2, usdMicro: 380, kycRegion: 'TZ' },
  { code: 'UGX', name: 'Ugandan Shilling', symbol: 'USh', decimals: 0, usdMicro: 270, kycRegion: 'UG' },
  { code: 'RWF', name: 'Rwandan Franc', symbol: 'FRw', decimals: 0, usdMicro: 730, kycRegion: 'RW' },
  { code: 'ZMW', name: 'Zambian Kwacha', symbol: 'ZK', decimals: 2, usdMicro: 37_000, kycRegion: 'ZM' },
  { code: 'MWK', name: 'Malawian Kwacha', symbol: 'MK', decimals: 2, usdMicro: 580, kycRegion: 'MW' },
  { code: 'XOF', name: 'West African CFA Franc', symbol: 'CFA', decimals: 0, usdMicro: 1_700, kycRegion: 'SN' },
  { code: 'AED', name: 'UAE Dirham', symbol: 'د.إ', decimals: 2, usdMicro: 270_000, kycRegion: 'AE' },
  { code: 'DKK', name: 'Danish Krone', symbol: 'kr', decimals: 2, usdMicro: 145_000, kycRegion: 'DK' },
  { code: 'HKD', name: 'Hong Kong Dollar', symbol: 'HK$', decimals: 2, usdMicro: 128_000, kycRegion: 'HK' },
  { code: 'SGD', name: 'Singapore Dollar', symbol: 'S$', decimals: 2, usdMicro: 740_000, kycRegion: 'SG' },
  { code: 'BTC', name: 'Bitcoin', symbol: '₿', decimals: 8, usdMicro: 65_000_000_000, crypto: true },
  { code: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6, usdMicro: 1_000_000, crypto: true },
  { code: 'USDB', name: 'USDB', symbol: 'USDB', decimals: 6, usdMicro: 1_000_000, crypto: true }
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
  const s = BY_CODE.get(sending)?.usdMicro ?? USD_MICRO
  const r = BY_CODE.get(receiving)?.usdMicro ?? USD_MICRO
  return r / s
}

const USD_MICRO = 1_000_000

/**
 * Minor units of `to` per minor unit of `from`, as an exact ratio of integers (numerator, denominator). Amounts are
 * converted with BigInt arithmetic on this ratio, never through a float.
 */
function minorRatio(from: string, to: string): [bigint, bigint] {
  const f = BY_CODE.get(from)
  const t = BY_CODE.get(to)
  const num = BigInt(f?.usdMicro ?? USD_MICRO) * 10n ** BigInt(t?.decimals ?? 2)
  const den = BigInt(t?.usdMicro ?? USD_MICRO) * 10n ** BigInt(f?.decimals ?? 2)
  return [num, den]
}

/** Convert minor units of `from` into minor units of `to` at the sandbox rate, rounding down. */
export function convertMinor(amount: number, from: string, to: string): number {
  if (from === to) return amount
  const [num, den] = minorRatio(from, to)
  return Number((BigInt(amount) * num) / den)
}

/** The fewest minor units of `from` that convert to at least `received` minor units of `to`. */
export function minorNeededFor(received: number, from: string, to: string): number {
  if (from === to) return received
  const [num, den] = minorRatio(from, to)
  const wanted = BigInt(received) * den
  return Number((wanted + num - 1n) / num)
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
