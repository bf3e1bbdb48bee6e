/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies under test are untyped JSON, checked by assertions and the shared schemas */
import { describe, expect, it } from 'vitest'
import { expectError, externalAccountSuite, sparkAddress, usAccountBody } from '../util'

// The route table checks each request with its shared schema before the engine sees it: what the spec refuses is a 400
// INVALID_INPUT naming the field, and nothing is created.
const { c, customer, nextNumber } = externalAccountSuite(5000)
const EA = '/customers/external-accounts'

describe('external account requests (spec 2.6 and 4.2)', () => {
  const bad: Array<[string, Record<string, unknown>]> = [
    ['routing number of 8 digits', { routingNumber: '02100002' }],
    ['routing number with a letter', { routingNumber: '02100002a' }],
    ['account number of 3 digits', { accountNumber: '123' }],
    ['account number of 18 digits', { accountNumber: '123456789012345678' }],
    ['accountCategory BROKERAGE', { accountCategory: 'BROKERAGE' }],
    ['missing accountCategory', { accountCategory: undefined }]
  ]
  it.each(bad)('400 for a US account with %s', async (_name, patch) => {
    const body = usAccountBody(customer.id, nextNumber())
    const info: Record<string, unknown> = { ...body.accountInfo, ...patch }
    for (const k of Object.keys(info)) if (info[k] === undefined) delete info[k]
    const before = c.sb.server.state.store.externalAccounts.size
    expectError(await c.post(EA, { ...body, accountInfo: info }), 400, 'INVALID_INPUT')
    expect(c.sb.server.state.store.externalAccounts.size).toBe(before)
  })

  it.each([
    ['GBP sort code of 5 digits', 'GBP', { accountType: 'GBP_ACCOUNT', sortCode: '20000', accountNumber: '55779111' }],
    ['GBP account of 7 digits', 'GBP', { accountType: 'GBP_ACCOUNT', sortCode: '200000', accountNumber: '5577911' }],
    ['CLABE of 17 digits', 'MXN', { accountType: 'MXN_ACCOUNT', clabeNumber: '01218001500000011' }],
    ['NGN account of 9 digits', 'NGN', { accountType: 'NGN_ACCOUNT', accountNumber: '012345611', bankName: 'GTBank' }],
    ['PHP account of 7 digits', 'PHP', { accountType: 'PHP_ACCOUNT', accountNumber: '1234567', bankName: 'BPI' }],
    [
      'ZAR account of 14 digits',
      'ZAR',
      { accountType: 'ZAR_ACCOUNT', accountNumber: '12345678901234', bankName: 'Capitec' }
    ],
    [
      'CAD branch code of 4 digits',
      'CAD',
      { accountType: 'CAD_ACCOUNT', bankCode: '001', branchCode: '1234', accountNumber: '1234567' }
    ],
    ['KES phone without +254', 'KES', { accountType: 'KES_ACCOUNT', phoneNumber: '+255712345678', provider: 'M-Pesa' }],
    ['UGX phone with 8 digits', 'UGX', { accountType: 'UGX_ACCOUNT', phoneNumber: '+25671234567', provider: 'MTN' }],
    [
      'XOF Ivory Coast with 9 digits',
      'XOF',
      { accountType: 'XOF_ACCOUNT', phoneNumber: '+225123456789', provider: 'Orange', region: 'CI' }
    ],
    ['GBP account in USD', 'USD', { accountType: 'GBP_ACCOUNT', sortCode: '200000', accountNumber: '55779111' }]
  ])('400 for %s', async (_name, currency, info) => {
    const r = await c.post(EA, {
      customerId: customer.id,
      currency,
      accountInfo: {
        ...info,
        beneficiary: {
          beneficiaryType: 'INDIVIDUAL',
          fullName: 'Test Person',
          address: { line1: '1 High St', city: 'London', postalCode: 'E1 6AN', country: 'GB' }
        }
      }
    })
    expectError(r, 400, 'INVALID_INPUT')
  })

  it.each([
    [
      'USD without address',
      'USD',
      { accountType: 'US_ACCOUNT', accountNumber: '12345678', routingNumber: '021000021', accountCategory: 'SAVINGS' },
      { beneficiaryType: 'INDIVIDUAL', fullName: 'A B' }
    ],
    [
      'USD address without city',
      'USD',
      { accountType: 'US_ACCOUNT', accountNumber: '12345678', routingNumber: '021000021', accountCategory: 'SAVINGS' },
      { beneficiaryType: 'INDIVIDUAL', fullName: 'A B', address: { line1: 'x', postalCode: '1', country: 'US' } }
    ],
    [
      'GBP without address',
      'GBP',
      { accountType: 'GBP_ACCOUNT', sortCode: '200000', accountNumber: '55779111' },
      { beneficiaryType: 'INDIVIDUAL', fullName: 'A B' }
    ],
    [
      'EUR without fullName',
      'EUR',
      { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000' },
      { beneficiaryType: 'INDIVIDUAL', address: { line1: 'x', city: 'y', postalCode: '1', country: 'DE' } }
    ],
    [
      'MXN without beneficiaryType',
      'MXN',
      { accountType: 'MXN_ACCOUNT', clabeNumber: '012180015000000011' },
      { fullName: 'A B' }
    ],
    [
      'bank account without beneficiary',
      'MXN',
      { accountType: 'MXN_ACCOUNT', clabeNumber: '012180015000000011' },
      undefined
    ]
  ])('400 for beneficiary minimums: %s', async (_name, currency, info, beneficiary) => {
    const r = await c.post(EA, {
      customerId: customer.id,
      currency,
      accountInfo: { ...info, ...(beneficiary ? { beneficiary } : {}) }
    })
    expectError(r, 400, 'INVALID_INPUT')
  })

  it('accepts the minimum beneficiary of a country whose address is optional', async () => {
    const r = await c.post(EA, {
      customerId: customer.id,
      currency: 'MXN',
      accountInfo: {
        accountType: 'MXN_ACCOUNT',
        clabeNumber: '012180015000000222',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'A B' }
      }
    })
    expect(r.status, r.text).toBe(201)
  })

  it.each([
    ['a bad checksum', (a: string) => a.slice(0, -1) + (a.endsWith('q') ? 'p' : 'q')],
    ['86 characters', (a: string) => a.slice(0, -1)],
    ['mixed case', (a: string) => a.slice(0, 10).toUpperCase() + a.slice(10)],
    ['the wrong prefix', (a: string) => 'spork1' + a.slice(6)]
  ])('400 for a Spark address with %s', async (_name, mutate) => {
    const r = await c.post(EA, {
      customerId: customer.id,
      currency: 'BTC',
      cryptoNetwork: 'SPARK_MAINNET',
      accountInfo: { accountType: 'SPARK_WALLET', address: mutate(sparkAddress(99)) }
    })
    expectError(r, 400, 'INVALID_INPUT')
  })

  it('accepts a valid Spark address in upper case (case-insensitive)', async () => {
    const r = await c.post(EA, {
      customerId: customer.id,
      currency: 'BTC',
      cryptoNetwork: 'SPARK_TESTNET',
      accountInfo: { accountType: 'SPARK_WALLET', address: sparkAddress(98).toUpperCase() }
    })
    expect(r.status, r.text).toBe(201)
  })

  it('requires cryptoNetwork for a wallet whose address does not name it, and a crypto currency', async () => {
    const info = { accountType: 'SPARK_WALLET', address: sparkAddress(97) }
    const solana = { accountType: 'SOLANA_WALLET', address: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' }
    const r = await c.post(EA, { customerId: customer.id, currency: 'USDC', accountInfo: solana })
    expectError(r, 400, 'INVALID_INPUT')
    expect(r.body.details.issues.map((i: any) => i.path)).toContain('cryptoNetwork')
    expectError(
      await c.post(EA, {
        customerId: customer.id,
        currency: 'BTC',
        cryptoNetwork: 'SOLANA_MAINNET',
        accountInfo: info
      }),
      400
    )
    expectError(
      await c.post(EA, { customerId: customer.id, currency: 'USD', cryptoNetwork: 'SPARK_MAINNET', accountInfo: info }),
      400,
      'INVALID_CURRENCY'
    )
  })
})
