import { describe, expect, it } from 'vitest'
import type { GateEvent } from '../../../../src/shared/gate'
import {
  amountsByTransaction,
  describeActor,
  describeEvent,
  fallbackText,
  linkSummary,
  missingMandatory
} from '../../../../src/renderer/src/views/approvals/gate-text'

const event = (seq: number, kind: string, actor: string, data: Record<string, unknown>): GateEvent => ({
  seq,
  at: '2026-11-27T10:00:00.000Z',
  kind,
  actor,
  data
})

describe('who decided', () => {
  it('names a rule, a pre-approval, an operator and the fallback in the operator’s words', () => {
    expect(describeActor('rule:Small USD')).toBe('Rule “Small USD”')
    expect(describeActor('pre-approval:pa_1')).toBe('Pre-approval pa_1')
    expect(describeActor('operator:Ana Ops')).toBe('Operator Ana Ops')
    expect(describeActor('fallback:Big')).toBe('Fallback of rule “Big”')
    expect(describeActor('fallback:otherwise')).toBe('Fallback (no rule matched)')
    expect(describeActor('something-new')).toBe('something-new')
  })
})

describe('log entries', () => {
  const webhook = event(1, 'webhook', 'service', {
    type: 'INCOMING_PAYMENT.PENDING',
    transactionId: 'Transaction:1',
    amount: 12_345,
    currency: 'USD',
    requestedFields: ['FULL_NAME']
  })
  const decision = event(2, 'decision', 'fallback:otherwise', {
    transactionId: 'Transaction:1',
    outcome: 'rejected',
    reason: 'Nobody answered within 4 s; the fallback is reject.',
    via: 'call',
    sentFields: []
  })

  it('gives a decision after a prompt the amount its webhook stated', () => {
    const amounts = amountsByTransaction([decision, webhook])
    const line = describeEvent(decision, amounts)
    expect(line).toMatchObject({ what: 'Rejected', outcome: 'rejected', transactionId: 'Transaction:1' })
    expect(line.amount).toEqual({ amount: 12_345, code: 'USD', decimals: 2 })
    expect(line.detail).toContain('Nobody answered')
  })

  it('says which fields an approval sent, never values', () => {
    const approved = event(3, 'decision', 'rule:Small', {
      transactionId: 'Transaction:2',
      outcome: 'approved',
      reason: 'Within 500.00 USD.',
      sentFields: ['FULL_NAME', 'BIRTH_DATE'],
      amount: 100,
      currency: 'USD'
    })
    expect(describeEvent(approved, new Map()).detail).toBe('Within 500.00 USD. Sent: FULL_NAME, BIRTH_DATE.')
  })

  it('reads rule changes, and shows a kind it does not know instead of failing', () => {
    const rules = event(4, 'rules', 'operator:Ana', {
      rules: { rules: [{ name: 'Small' }, { name: 'Trusted' }], otherwise: 'reject' }
    })
    expect(describeEvent(rules, new Map())).toMatchObject({
      what: 'Rules changed',
      detail: 'Rules in order: “Small”, “Trusted”; otherwise reject'
    })
    const odd = event(5, 'tea-break', 'gate', { nothing: { deep: [1] } })
    expect(describeEvent(odd, new Map())).toMatchObject({ what: 'Entry “tea-break”', outcome: null, amount: null })
    // Malformed data of a known kind is not a crash either.
    expect(() => describeEvent(event(6, 'decision', 'x', { outcome: 42 }), new Map())).not.toThrow()
    expect(() => describeEvent(event(7, 'pre-approval', 'x', {}), new Map())).not.toThrow()
  })
})

describe('a prompt', () => {
  const at = Date.parse('2026-11-27T10:00:04.000Z')
  it('counts down to its fallback in whole seconds, then says it is happening', () => {
    const prompt = { fallbackAt: '2026-11-27T10:00:04.000Z', fallback: 'reject' as const }
    expect(fallbackText(prompt, at - 2_100)).toBe('Rejecting automatically in 3 s')
    expect(fallbackText(prompt, at - 1)).toBe('Rejecting automatically in 1 s')
    expect(fallbackText(prompt, at)).toBe('Rejecting automatically now…')
    expect(fallbackText({ ...prompt, fallback: 'approve' }, at - 500)).toBe('Approving automatically in 1 s')
  })

  it('calls out only the mandatory fields the gate cannot send', () => {
    expect(
      missingMandatory({
        requestedFields: [
          { name: 'FULL_NAME', mandatory: true },
          { name: 'BIRTH_DATE', mandatory: true },
          { name: 'NATIONALITY', mandatory: false }
        ],
        availableFields: ['FULL_NAME']
      })
    ).toEqual(['BIRTH_DATE'])
  })
})

it('states the link truthfully, with when an unreachable gate was last heard', () => {
  const clock = (iso: string) => iso.slice(11, 16)
  expect(linkSummary({ state: 'live', lastEventAt: null }, clock)).toBe('Live')
  expect(linkSummary({ state: 'unreachable', lastEventAt: '2026-11-27T14:02:00Z' }, clock)).toBe(
    'Unreachable (last heard 14:02)'
  )
  expect(linkSummary({ state: 'signed-out', lastEventAt: null }, clock)).toBe('Signed out')
})
