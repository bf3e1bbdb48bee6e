/** Bank names of the discovery endpoint (spec 4.1). `bankName` is what account creation must send back. */

interface DiscoveryEntry {
  bankName: string
  displayName: string
  country: string
  currency: string
}

const e = (bankName: string, displayName: string, country: string, currency: string): DiscoveryEntry => ({
  bankName,
  displayName,
  country,
  currency
})

const DISCOVERIES: readonly DiscoveryEntry[] = [
  e('BDO Unibank', 'BDO Unibank', 'PH', 'PHP'),
  e('BPI', 'Bank of the Philippine Islands', 'PH', 'PHP'),
  e('Metrobank', 'Metropolitan Bank and Trust Company', 'PH', 'PHP'),
  e('GCash', 'GCash (G-Xchange)', 'PH', 'PHP'),
  e('Access Bank', 'Access Bank Plc', 'NG', 'NGN'),
  e('GTBank', 'Guaranty Trust Bank', 'NG', 'NGN'),
  e('Zenith Bank', 'Zenith Bank Plc', 'NG', 'NGN'),
  e('First Bank of Nigeria', 'First Bank of Nigeria', 'NG', 'NGN'),
  e('Standard Bank', 'Standard Bank of South Africa', 'ZA', 'ZAR'),
  e('FNB', 'First National Bank', 'ZA', 'ZAR'),
  e('Capitec', 'Capitec Bank', 'ZA', 'ZAR'),
  e('Absa', 'Absa Bank', 'ZA', 'ZAR'),
  e('M-Pesa', 'Safaricom M-Pesa', 'KE', 'KES'),
  e('BBVA Mexico', 'BBVA México', 'MX', 'MXN'),
  e('Banorte', 'Banco Mercantil del Norte', 'MX', 'MXN'),
  e('Chase Bank', 'JPMorgan Chase Bank', 'US', 'USD'),
  e('Bank of America', 'Bank of America', 'US', 'USD'),
  e('Barclays', 'Barclays Bank UK', 'GB', 'GBP'),
  e('Nubank', 'Nu Pagamentos (Nubank)', 'BR', 'BRL')
]

/** Currencies for which bankName is required and must be a discovery bankName (spec 2.6). */
export const BANK_NAME_REQUIRED = new Set(['PHP', 'NGN', 'ZAR'])

export function discover(country?: string, currency?: string): DiscoveryEntry[] {
  return DISCOVERIES.filter((d) => (!country || d.country === country) && (!currency || d.currency === currency)).map(
    (d) => ({ ...d })
  )
}

export function isDiscoveredBankName(bankName: string, currency: string): boolean {
  return DISCOVERIES.some((d) => d.bankName === bankName && d.currency === currency)
}
