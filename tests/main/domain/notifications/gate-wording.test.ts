import { describe, expect, it } from 'vitest'
import {
  decisionMade,
  decisionNotSent,
  describePayment,
  emptyTally,
  missedWhileClosed,
  promptArrived,
  tallyMissed
} from '../../../../src/main/domain/notifications/gate-wording'
import type { Decision, Prompt } from '../../../../src/shared/gate'

const prompt: Prompt = {
  transactionId: 'Transaction:7',
  webhookId: 'Webhook:7',
  customerId: 'Customer:1',
  sender: '$priya@uma.money',
  amount: 275_50,
  currency: 'USD',
  decimals: 2,
  requestedFields: [{ name: 'BIRTH_DATE', mandatory: true }],
  availableFields: [],
  reasons: ['No rule matched.'],
  receivedAt: '2026-11-27T12:00:00.000Z',
  fallbackAt: '2026-11-27T12:00:04.000Z',
  fallback: 'reject'
}

const decision = (d: Partial<Decision>): Decision => ({
  transactionId: 'Transaction:7',
  webhookId: 'Webhook:7',
  outcome: 'rejected',
  via: 'call',
  reason: 'Nobody answered within 4 s; the fallback is reject.',
  ...d
})

const known = { amount: 275_50, currency: 'USD', sender: '$priya@uma.money', customerName: 'Priya Raman' }

describe('what the gate’s stream tells the operator', () => {
  it('names the payment as far as it is known, amount first, formatted at the edge', () => {
    expect(describePayment(known)).toBe('$275.50 from $priya@uma.money for Priya Raman')
    expect(describePayment({ amount: 1_000_000_00, currency: 'EUR' })).toBe('€1,000,000.00')
    expect(describePayment({})).toBe('A payment')
  })

  it('a prompt is loud: what, for whom, and what happens if nobody answers', () => {
    expect(promptArrived(prompt, 'Priya Raman')).toEqual({
      id: 'gate-prompt:Transaction:7',
      title: 'Payment waiting for your approval',
      body: '$275.50 from $priya@uma.money for Priya Raman is waiting for your approval: if nobody answers within 4 s, it will be rejected.',
      route: 'approvals',
      targetId: 'Transaction:7'
    })
    expect(promptArrived({ ...prompt, customerId: null, sender: null }, null).body).toMatch(
      /^\$275\.50 is waiting for your approval/
    )
    // The window the gate gave, whatever zone the operator is in; a prompt with unreadable times still says what happens.
    expect(promptArrived({ ...prompt, fallbackAt: '2026-11-27T12:00:03.500Z' }, null).body).toMatch(
      /within 3\.5 s, it will be rejected\.$/
    )
    expect(promptArrived({ ...prompt, fallbackAt: 'soon' }, null).body).toMatch(
      /if nobody answers in time, it will be rejected\.$/
    )
  })

  it('a fallback rejection always tells, saying nobody answered in time', () => {
    const n = decisionMade(decision({}), 'fallback:otherwise', { ...known, waitedSeconds: 4 })
    expect(n).toMatchObject({ title: 'Payment rejected', route: 'approvals', targetId: 'Transaction:7' })
    expect(n!.body).toBe('$275.50 from $priya@uma.money for Priya Raman was rejected: no operator answered within 4 s.')
  })

  it('a fallback approval tells too', () => {
    const n = decisionMade(decision({ outcome: 'approved' }), 'fallback:small payments', { ...known, waitedSeconds: 4 })
    expect(n!.body).toBe(
      '$275.50 from $priya@uma.money for Priya Raman was approved by the fallback: no operator answered within 4 s.'
    )
  })

  it('a rejection by a rule or an operator says by whom and why', () => {
    const byRule = decisionMade(
      decision({ via: 'answer', reason: 'Amounts above $1,000 are refused.' }),
      'rule:big payments',
      known
    )
    expect(byRule!.body).toBe(
      '$275.50 from $priya@uma.money for Priya Raman was rejected by the rule “big payments”: amounts above $1,000 are refused.'
    )
    const byPerson = decisionMade(decision({ reason: 'Rejected by Ana.' }), 'operator:Ana', known)
    expect(byPerson!.body).toBe('$275.50 from $priya@uma.money for Priya Raman was rejected by Ana.')
    const withReason = decisionMade(decision({ reason: 'Sender unknown to us.' }), 'operator:Ana', known)
    expect(withReason!.body).toBe(
      '$275.50 from $priya@uma.money for Priya Raman was rejected by Ana: sender unknown to us.'
    )
  })

  it('an approval by a rule, a pre-approval or a person is quiet', () => {
    for (const actor of ['rule:small payments', 'pre-approval:P1', 'operator:Ana'])
      expect(decisionMade(decision({ outcome: 'approved', via: 'answer' }), actor, known)).toBeNull()
  })

  it('a payment that could not be approved for missing receiver information tells what is missing', () => {
    const n = decisionMade(
      decision({
        outcome: 'unprocessable',
        via: 'answer',
        reason: 'The receiver information lacks BIRTH_DATE, which the sender requires.'
      }),
      'rule:small payments',
      known
    )
    expect(n!.body).toBe(
      '$275.50 from $priya@uma.money for Priya Raman could not be approved: the receiver information lacks BIRTH_DATE, which the sender requires.'
    )
  })

  it('a decision the service did not take is told', () => {
    const n = decisionNotSent('Transaction:7', 'approve', 'timed out', known)
    expect(n.title).toBe('The approval did not reach the service')
    expect(n.body).toBe(
      'The gate’s approval of $275.50 from $priya@uma.money for Priya Raman was not taken by the service: timed out.'
    )
  })
})

describe('what a gate decided while Paydesk was closed', () => {
  let seq = 0
  const entry = (kind: string, actor: string, data: Record<string, unknown>) => ({
    seq: ++seq,
    at: '2026-11-27T12:00:00.000Z',
    kind,
    actor,
    data: { transactionId: `Transaction:${seq}`, webhookId: `Webhook:${seq}`, via: 'answer', reason: 'x', ...data }
  })
  const tally = (...entries: ReturnType<typeof entry>[]) => {
    const t = emptyTally()
    for (const e of entries) tallyMissed(t, e)
    return t
  }

  it('counts decisions by who made them, and the calls the service did not take', () => {
    const t = tally(
      entry('webhook', 'service', {}),
      entry('decision', 'rule:small', { outcome: 'approved' }),
      entry('decision', 'pre-approval:p1', { outcome: 'approved' }),
      entry('decision', 'operator:Ana', { outcome: 'approved' }),
      entry('decision', 'operator:Ana', { outcome: 'rejected' }),
      entry('decision', 'otherwise', { outcome: 'rejected' }),
      entry('decision', 'fallback:otherwise', { outcome: 'rejected' }),
      entry('decision', 'rule:small', { outcome: 'unprocessable' }),
      entry('decision-sent', 'fallback:otherwise', { ok: false, action: 'reject' }),
      entry('decision-sent', 'operator:Ana', { ok: true, action: 'approve' }),
      entry('decision', 'rule:small', { outcome: 'maybe' })
    )
    expect(t).toEqual({
      byRule: 1,
      byPreApproval: 1,
      byOperator: 1,
      rejected: 2,
      fallbacks: 1,
      unprocessable: 1,
      notSent: 1
    })
    expect(missedWhileClosed(t, 42)).toEqual({
      id: 'gate-missed:42',
      title: 'Decided while Paydesk was closed',
      body:
        'While Paydesk was closed, the approval gate logged 3 approved payments (1 by a rule, 1 by a pre-approval, ' +
        '1 by an operator); 2 rejected payments; 1 payment decided by the fallback (no operator answered); ' +
        '1 payment that could not be approved (receiver information missing); 1 decision the service did not take. ' +
        'See Approvals → Decisions.',
      route: 'approvals'
    })
  })

  it('is quiet when only approvals happened, as approvals are live', () => {
    expect(missedWhileClosed(tally(entry('decision', 'rule:small', { outcome: 'approved' })), 9)).toBeNull()
    expect(missedWhileClosed(emptyTally(), 9)).toBeNull()
  })
})
