import { describe, expect, it } from 'vitest'
import {
  accountHolder,
  customerName,
  externalAccountLabel,
  internalAccountLabel,
  labelOf,
  lastDigits
} from '../../src/shared/labels'

const usd = { amount: 0, currency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 } }

describe('labels', () => {
  it('names a customer by full name, else by the platform’s id for them', () => {
    expect(customerName({ fullName: 'Priya Raman', platformCustomerId: 'pc-1' })).toBe('Priya Raman')
    expect(customerName({ fullName: '  ', platformCustomerId: 'pc-1' })).toBe('pc-1')
    expect(customerName({ platformCustomerId: 'pc-2' })).toBe('pc-2')
  })

  it('labels internal accounts by holder and currency', () => {
    expect(internalAccountLabel({ balance: usd })).toBe('Platform · USD')
    expect(internalAccountLabel({ balance: usd, customerId: null })).toBe('Platform · USD')
    expect(internalAccountLabel({ balance: usd, customerId: 'Customer:1' }, 'Priya Raman')).toBe('Priya Raman · USD')
    // A customer's account whose customer is not cached yet still says whose kind of account it is.
    expect(internalAccountLabel({ balance: usd, customerId: 'Customer:1' })).toBe('Customer · USD')
  })

  it('labels external accounts by holder, rail and last digits', () => {
    const bank = {
      customerId: 'Customer:1',
      accountInfo: {
        accountType: 'US_ACCOUNT',
        accountNumber: '000123453210',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Priya Raman' }
      }
    } as const
    expect(lastDigits(bank)).toBe('…3210')
    expect(externalAccountLabel(bank)).toBe('Priya Raman · US bank …3210')
    const business = {
      accountInfo: { accountType: 'GBP_ACCOUNT', accountNumber: '12345678', beneficiary: { legalName: 'Acme Ltd' } }
    }
    expect(externalAccountLabel(business)).toBe('Acme Ltd · UK bank …5678')
  })

  it('gives a wallet, which names no beneficiary, its customer or the platform as holder', () => {
    const wallet = { customerId: 'Customer:9', accountInfo: { accountType: 'SPARK_WALLET', address: 'sp1qxyzf00d' } }
    expect(accountHolder(wallet, 'Jane Smith')).toBe('Jane Smith')
    expect(externalAccountLabel(wallet, 'Jane Smith')).toBe('Jane Smith · Spark …f00d')
    expect(externalAccountLabel({ ...wallet, customerId: null })).toBe('Platform · Spark …f00d')
    expect(externalAccountLabel({ accountInfo: { accountType: 'KES_ACCOUNT' } })).toBe('Platform · KES mobile')
  })

  it('falls back to the shortened id where no label is known', () => {
    const id = 'Customer:019541a2-0000-7000-8000-000000009a3a'
    expect(labelOf(id, { [id]: 'Priya Raman' })).toBe('Priya Raman')
    expect(labelOf(id, {})).toBe('Customer:0195…9a3a')
    expect(labelOf(undefined, {})).toBe('—')
  })
})
