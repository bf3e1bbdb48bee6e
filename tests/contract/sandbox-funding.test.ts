import { describe, expect, it } from 'vitest'
import { iban } from '../../src/sandbox/engine/funding'
import { createCustomer, sandboxForSuite } from '../sandbox/util'
import { publishedValidator } from './published-openapi'

const validatePublished = publishedValidator()
const c = sandboxForSuite({}, { ledger: false })

describe('sandbox funding instructions speak the published per-currency shapes', () => {
  it.each([
    ['USD', 'PaymentUsdAccountInfo', { routingNumber: '021000021', paymentRails: ['ACH', 'WIRE'] }],
    ['EUR', 'PaymentEurAccountInfo', { paymentRails: ['SEPA'] }],
    ['GBP', 'PaymentGbpAccountInfo', { sortCode: '040004', paymentRails: ['FASTER_PAYMENTS'] }],
    ['MXN', 'PaymentMxnAccountInfo', { paymentRails: ['SPEI'] }]
  ])('%s: the instructions carry the currency’s own fields and validate as %s', async (currency, schema, expected) => {
    const customer = await createCustomer(c, { currencies: [currency] })
    const r = await c.get(`/customers/internal-accounts?customerId=${customer.id}`)
    expect(r.status, r.text).toBe(200)
    const info = r.body.data[0].fundingPaymentInstructions[0].accountOrWalletInfo
    expect(info).toMatchObject(expected)
    if (currency === 'EUR') expect(info.iban).toMatch(/^DE[0-9]{20}$/)
    if (currency === 'MXN') expect(info.clabeNumber).toMatch(/^[0-9]{18}$/)
    expect(info.paymentRails).not.toContain('BANK_TRANSFER')
    expect(validatePublished(schema, info)).toEqual([])
  })

  it('a bank account created without paymentRails comes back with them, in the published ExternalAccount shape', async () => {
    const customer = await createCustomer(c, { currencies: ['USD'] })
    const r = await c.post('/customers/external-accounts', {
      customerId: customer.id,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '123456780',
        routingNumber: '021000021',
        bankAccountType: 'CHECKING',
        beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'Acme Widgets LLC' }
      }
    })
    expect(r.status, r.text).toBe(201)
    expect(r.body.accountInfo.paymentRails).toEqual(['ACH', 'WIRE'])
    expect(r.body.accountInfo.beneficiary.legalName).toBe('Acme Widgets LLC')
    expect(validatePublished('ExternalAccount', r.body)).toEqual([])
  })

  it('IBANs carry correct mod-97 check digits', () => {
    expect(iban('DE', '370400440532013000')).toBe('DE89370400440532013000')
    expect(iban('GB', 'WEST12345698765432')).toBe('GB82WEST12345698765432')
  })
})
