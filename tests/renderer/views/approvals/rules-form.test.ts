import { describe, expect, it } from 'vitest'
import { GateRules } from '../../../../src/shared/gate'
import { checkBoxes } from '../../../../src/renderer/src/ui/flat-form'
import {
  boxesToRules,
  boxOfPath,
  ruleChecks,
  rulesToBoxes
} from '../../../../src/renderer/src/views/approvals/rules-form'

const rules: GateRules = {
  rules: [
    {
      name: 'Small USD',
      maxAmountByCurrency: { USD: 50_000, JPY: 1_000 },
      allowedSenders: ['$alice@example.com'],
      requireKycApproved: true,
      action: 'approve',
      fallback: 'reject'
    },
    {
      name: 'Blocked',
      maxAmountByCurrency: { EUR: 1 },
      allowedSenders: [],
      requireKycApproved: false,
      action: 'reject',
      reason: 'Not served',
      fallback: 'reject'
    }
  ],
  otherwise: 'ask',
  otherwiseFallback: 'reject'
}

const check = (boxes: Record<string, string>, layout: ReturnType<typeof rulesToBoxes>['layout']) =>
  checkBoxes(GateRules, boxes, true, {
    toInput: (v) => boxesToRules(v, layout),
    checks: (v) => ruleChecks(v, layout),
    boxOf: (path) => boxOfPath(path, layout)
  })

describe('the rule editor’s boxes', () => {
  it('show ceilings in major units and give back exactly the rules they were made from', () => {
    const { boxes, layout } = rulesToBoxes(rules)
    expect(boxes['r0.c0.amount']).toBe('500.00')
    expect(boxes['r0.c1.amount']).toBe('1000')
    const { result, issues } = check(boxes, layout)
    expect(issues).toEqual({})
    expect(result.success && result.data).toEqual(rules)
  })

  it('keep the order the operator set', () => {
    const { boxes, layout } = rulesToBoxes(rules)
    const { result } = check(boxes, [...layout].reverse())
    expect(result.success && result.data.rules.map((r) => r.name)).toEqual(['Blocked', 'Small USD'])
  })

  it('put each problem under its own box, in words, after rules moved', () => {
    const { boxes, layout } = rulesToBoxes(rules)
    const moved = [...layout].reverse()
    const { issues } = check(
      { ...boxes, 'r0.name': '  ', 'r0.c0.amount': '12.345', 'r1.c0.currency': 'E', 'r0.c1.currency': 'USD' },
      moved
    )
    expect(issues['r0.name']).toBe('Give the rule a name')
    expect(issues['r0.c0.amount']).toBe('Use at most 2 decimal places')
    expect(issues['r1.c0.amount']).toBe('Give a currency code such as USD')
    expect(issues['r0.c1.currency']).toBe('USD has a ceiling already in this rule')
    const long = check({ ...boxes, 'r1.name': 'x'.repeat(101), 'r1.reason': 'y'.repeat(201) }, layout).issues
    expect(long['r1.name']).toBe('Keep the rule’s name to 100 characters')
    expect(long['r1.reason']).toBe('Keep the reason to 200 characters')
  })
})
