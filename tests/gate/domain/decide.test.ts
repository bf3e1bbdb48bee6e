/**
 * The rules' verdict, pure: the first rule whose conditions all hold decides its action; none holding, `otherwise`
 * does; a rule never approves a currency it sets no ceiling for, and an unknown KYC fails a rule that requires it.
 */
import { describe, expect, it } from 'vitest'
import { needsKyc, verdict } from '../../../src/gate/domain/decide'
import type { IncomingTransaction } from '../../../src/shared/api'
import { DEFAULT_GATE_RULES, GateRules } from '../../../src/shared/gate'

const tx = (amount: number, currency = 'USD', sender = '$a@b.c') =>
  ({
    id: 'Transaction:1',
    type: 'INCOMING',
    status: 'PENDING',
    customerId: 'Customer:1',
    platformCustomerId: 'p',
    destination: { accountId: 'InternalAccount:1' },
    source: { umaAddress: sender },
    receivedAmount: { amount, currency: { code: currency, decimals: 2 } }
  }) as IncomingTransaction

const rules = GateRules.parse({
  rules: [
    {
      name: 'blocked',
      maxAmountByCurrency: { USD: 1_000_000 },
      allowedSenders: ['$bad@b.c'],
      requireKycApproved: false,
      action: 'reject',
      reason: 'BLOCKED_SENDER'
    },
    { name: 'small', maxAmountByCurrency: { USD: 100_00 }, requireKycApproved: true, action: 'approve' },
    {
      name: 'medium',
      maxAmountByCurrency: { USD: 1000_00 },
      requireKycApproved: false,
      action: 'ask',
      fallback: 'approve'
    }
  ],
  otherwise: 'reject'
})

describe('verdict', () => {
  it('takes the first rule that holds, in order', () => {
    expect(verdict(tx(50_00, 'USD', '$bad@b.c'), rules, 'APPROVED')).toMatchObject({
      action: 'reject',
      actor: 'rule:blocked',
      rejectReason: 'BLOCKED_SENDER'
    })
    expect(verdict(tx(50_00), rules, 'APPROVED')).toMatchObject({ action: 'approve', actor: 'rule:small' })
    expect(verdict(tx(500_00), rules, 'APPROVED')).toMatchObject({
      action: 'ask',
      actor: 'rule:medium',
      fallback: 'approve'
    })
  })

  it('an unknown or unapproved KYC fails the rule that requires it', () => {
    expect(verdict(tx(50_00), rules, null)).toMatchObject({ action: 'ask', actor: 'rule:medium' })
    expect(verdict(tx(50_00), rules, 'PENDING').actor).toBe('rule:medium')
  })

  it('when no rule holds, otherwise decides, saying why each rule did not apply', () => {
    const v = verdict(tx(5000_00), rules, 'APPROVED')
    expect(v).toMatchObject({ action: 'reject', actor: 'otherwise', ruleName: null })
    expect(v.reasons.join(' ')).toMatch(/Rule small does not apply: Amount 5,?000\.00 USD is above the ceiling/)
    expect(verdict(tx(1, 'EUR'), rules, 'APPROVED').action).toBe('reject')
  })

  it('a fresh gate asks a person about everything and rejects when nobody answers', () => {
    expect(verdict(tx(1), DEFAULT_GATE_RULES, 'APPROVED')).toMatchObject({ action: 'ask', fallback: 'reject' })
    expect(GateRules.parse({ rules: [{ name: 'x', action: 'ask' }] }).rules[0]!.fallback).toBe('reject')
    expect(needsKyc(rules)).toBe(true)
    expect(needsKyc(DEFAULT_GATE_RULES)).toBe(false)
  })
})
