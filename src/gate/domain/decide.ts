/**
 * What the rules say about one payment, as a pure function: the first rule whose conditions all hold decides (approve,
 * reject or ask a person); when none holds, the rules' `otherwise` does. Conditions are Paydesk's own
 * (src/shared/approval-rules.ts), so the gate and the desktop read a rule the same way. Nothing here approves by
 * default: approval needs a rule whose action is approve, or a fallback a rule named.
 */
import type { IncomingTransaction } from '../../shared/api'
import { evaluateRules } from '../../shared/approval-rules'
import type { Fallback, GateRules, RuleAction } from '../../shared/gate'

interface RuleVerdict {
  action: RuleAction
  /** `rule:<name>`, or `otherwise` when no rule's conditions held. */
  actor: string
  /** One sentence per condition checked of the deciding rule (or why none held). */
  reasons: string[]
  /** For ask: what applies if nobody answers in time. */
  fallback: Fallback
  /** For reject: the reason sent to the service. */
  rejectReason: string
  ruleName: string | null
}

export function needsKyc(rules: GateRules): boolean {
  return rules.rules.some((r) => r.requireKycApproved)
}

export function verdict(t: IncomingTransaction, rules: GateRules, kycStatus: string | null): RuleVerdict {
  const customer = kycStatus === null ? null : { kycStatus }
  const failed: string[] = []
  for (const rule of rules.rules) {
    const result = evaluateRules(t, { enabled: true, ...rule }, customer)
    if (result.ok) {
      return {
        action: rule.action,
        actor: `rule:${rule.name}`,
        reasons: result.reasons,
        fallback: rule.fallback,
        rejectReason: rule.reason ?? `Rejected by the rule ${rule.name}.`,
        ruleName: rule.name
      }
    }
    failed.push(`Rule ${rule.name} does not apply: ${result.reasons.join(' ')}`)
  }
  return {
    action: rules.otherwise,
    actor: 'otherwise',
    reasons: failed.length > 0 ? failed : ['No rule is set.'],
    fallback: rules.otherwiseFallback,
    rejectReason: 'No approval rule applies to this payment.',
    ruleName: null
  }
}
