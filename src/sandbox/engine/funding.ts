/**
 * The rails a bank account of this currency is reached by, as the published API names them (its per-currency
 * AccountInfo schemas require `paymentRails` on every bank account it returns).
 */
export function defaultPaymentRails(currency: string, mobileMoney = false): string[] {
  // Mobile-money accounts (KES, TZS, ZMW, RWF, MWK, UGX, XOF: a phone number and a provider) go by MOBILE_MONEY only.
  if (mobileMoney) return ['MOBILE_MONEY']
  const rails: Record<string, string[]> = {
    USD: ['ACH', 'WIRE'],
    EUR: ['SEPA'],
    GBP: ['FASTER_PAYMENTS'],
    MXN: ['SPEI'],
    BRL: ['PIX']
  }
  return rails[currency] ?? ['BANK_TRANSFER']
}

/**
 * The bank details of a sandbox fiat internal account's funding instructions, in the published API's per-currency
 * shapes (PaymentUsdAccountInfo, PaymentEurAccountInfo, PaymentGbpAccountInfo, PaymentMxnAccountInfo): an IBAN on
 * SEPA for EUR, a sort code on FASTER_PAYMENTS for GBP, a CLABE on SPEI for MXN. Other currencies keep an account
 * number on BANK_TRANSFER. `seq` makes the numbers differ between accounts.
 */
export function fiatFundingAccount(currency: string, seq: number): Record<string, unknown> {
  const digits = (n: number) => String(seq % 10 ** n).padStart(n, '0')
  switch (currency) {
    case 'USD':
      return {
        accountType: 'USD_ACCOUNT',
        accountNumber: String(1_000_000_000 + (seq % 8_999_999_999)),
        routingNumber: '021000021',
        paymentRails: ['ACH', 'WIRE']
      }
    case 'EUR':
      return {
        accountType: 'EUR_ACCOUNT',
        iban: iban('DE', `37040044${digits(10)}`),
        swiftCode: 'COBADEFFXXX',
        paymentRails: ['SEPA']
      }
    case 'GBP':
      return {
        accountType: 'GBP_ACCOUNT',
        sortCode: '040004',
        accountNumber: digits(8),
        paymentRails: ['FASTER_PAYMENTS']
      }
    case 'MXN':
      return { accountType: 'MXN_ACCOUNT', clabeNumber: `0021800${digits(11)}`, paymentRails: ['SPEI'] }
    default:
      return {
        accountType: `${currency}_ACCOUNT`,
        accountNumber: String(1_000_000_000 + (seq % 8_999_999_999)),
        paymentRails: ['BANK_TRANSFER']
      }
  }
}

/** An IBAN with correct ISO 13616 check digits (mod 97), so banks' and clients' validators accept it. */
export function iban(country: string, bban: string): string {
  const numeric = `${bban}${country}00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55))
  let rest = 0
  for (const ch of numeric) rest = (rest * 10 + Number(ch)) % 97
  return `${country}${String(98 - rest).padStart(2, '0')}${bban}`
}
