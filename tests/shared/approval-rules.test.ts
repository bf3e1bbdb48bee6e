import { describe, expect, it } from 'vitest'
import { evaluateRules, prefillFrom, senderIdentifiers } from '../../src/shared/approval-rules'
import type { Customer, IncomingTransaction } from '../../src/shared/api'
import type { ApprovalRules } from '../../src/shared/approval-rules'

const tx = (amount: number, currency = 'USD', sender = '$success.usd@sandbox.uma.money') =>
  ({
    id: 'Transaction:1',
    type: 'INCOMING',
    status: 'PENDING',
    customerId: 'Customer:1',
    platformCustomerId: 'p1',
    destination: { accountId: 'InternalAccount:1' },
    source: { sourceType: 'UMA_ADDRESS', umaAddress: sender },
    receivedAmount: { amount, currency: { code: currency, decimals: 2 } }
  }) as IncomingTransaction
const approved = { id: 'Customer:1', kycStatus: 'APPROVED' } as unknown as Customer
const rules = (r: Partial<ApprovalRules> = {}): ApprovalRules => ({
  enabled: true,
  maxAmountByCurrency: { USD: 100_00 },
  allowedSenders: [],
  requireKycApproved: true,
  ...r
})

describe('evaluateRules', () => {
  it.each([
    ['within the ceiling', tx(100_00), rules(), approved, true, /within the ceiling of 100\.00 USD/],
    ['above the ceiling', tx(100_01), rules(), approved, false, /above the ceiling/],
    ['no ceiling for the currency', tx(1, 'EUR'), rules(), approved, false, /No ceiling is set for EUR/],
    ['sender not allowed', tx(5), rules({ allowedSenders: ['$a@b.com'] }), approved, false, /not on the allow-list/],
    [
      'sender allowed',
      tx(5, 'USD', '$a@b.com'),
      rules({ allowedSenders: ['$a@b.com'] }),
      approved,
      true,
      /is on the allow-list/
    ],
    [
      'KYC pending',
      tx(5),
      rules(),
      { ...approved, kycStatus: 'PENDING' } as Customer,
      false,
      /KYC is PENDING, not APPROVED/
    ],
    ['customer unknown', tx(5), rules(), null, false, /KYC is unknown/],
    ['KYC not required', tx(5), rules({ requireKycApproved: false }), null, true, /within/],
    ['prototype keys are not ceilings', tx(5, 'constructor' as string), rules(), approved, false, /No ceiling/]
  ])('%s', (_name, t, r, c, ok, reason) => {
    const result = evaluateRules(t, r, c)
    expect(result.ok).toBe(ok)
    expect(result.reasons.join(' ')).toMatch(reason)
  })
})

describe('the sender allow-list on payments shaped like the real service’s', () => {
  const allow = rules({ allowedSenders: ['$bob@vasp.example'] })
  const without = (extra: Record<string, unknown>, source?: Record<string, unknown>) =>
    ({ ...tx(5), source, ...extra }) as unknown as IncomingTransaction

  it.each([
    ['a top-level senderUmaAddress', without({ senderUmaAddress: '$bob@vasp.example' })],
    ['counterpartyInformation.UMA_ADDRESS', without({ counterpartyInformation: { UMA_ADDRESS: '$bob@vasp.example' } })],
    [
      'a top-level senderUmaAddress next to a source account id',
      without({ senderUmaAddress: '$bob@vasp.example' }, { sourceType: 'ACCOUNT', accountId: 'Account:9' })
    ]
  ])('matches %s', (_name, t) => {
    const result = evaluateRules(t, allow, approved)
    expect(result.ok).toBe(true)
    expect(result.sender).toBe('$bob@vasp.example')
    expect(result.reasons.join(' ')).toMatch(/Sender \$bob@vasp\.example is on the allow-list/)
  })

  it('still refuses a sender that is on none of them', () => {
    const t = without({ senderUmaAddress: '$eve@vasp.example', counterpartyInformation: { FULL_NAME: 'Eve' } })
    const result = evaluateRules(t, allow, approved)
    expect(result.ok).toBe(false)
    expect(result.reasons.join(' ')).toMatch(/Sender \$eve@vasp\.example is not on the allow-list/)
  })

  it('lists every identifier once, most specific first', () => {
    expect(
      senderIdentifiers(
        without(
          {
            senderUmaAddress: '$a@x.example',
            counterpartyInformation: { UMA_ADDRESS: '$a@x.example', NATIONALITY: 'US' }
          },
          { accountId: 'Account:1', umaAddress: ' ' }
        )
      )
    ).toEqual(['$a@x.example', 'Account:1'])
  })
})

describe('prefillFrom', () => {
  it('fills FULL_NAME, BIRTH_DATE, NATIONALITY, COUNTRY_OF_RESIDENCE and ADDRESS from the customer', () => {
    const address = { line1: '1 Main', city: 'Austin', postalCode: '78701', country: 'US' }
    const person = { fullName: 'Ann Smith', birthDate: '1990-02-03', nationality: 'MX' }
    const c = { id: 'Customer:1', ...person, address: { ...address, extra: 'dropped' } } as unknown as Customer
    expect(prefillFrom(c)).toEqual({
      FULL_NAME: person.fullName,
      BIRTH_DATE: person.birthDate,
      NATIONALITY: person.nationality,
      COUNTRY_OF_RESIDENCE: 'US',
      ADDRESS: address
    })
    expect(prefillFrom(null)).toEqual({})
    expect(prefillFrom({ id: 'Customer:2', region: 'GB' } as unknown as Customer)).toEqual({
      COUNTRY_OF_RESIDENCE: 'GB'
    })
  })
})
