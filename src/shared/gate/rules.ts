import { z } from 'zod'
import { ApprovalRules } from '../approval-rules'

/**
 * The approval gate's rules (docs/gate.md). Each rule is Paydesk's conditions (a ceiling per currency, a sender
 * allow-list, KYC APPROVED: src/shared/approval-rules.ts) plus what to do when they all hold. The first rule whose
 * conditions hold decides; when none does, `otherwise` does. "ask" prompts the connected operators and, if nobody
 * answers by the gate's safety margin, applies `fallback`, which is reject unless a rule says otherwise.
 */
export const RuleAction = z.enum(['approve', 'reject', 'ask'])
export type RuleAction = z.infer<typeof RuleAction>

export const Fallback = z.enum(['approve', 'reject'])
export type Fallback = z.infer<typeof Fallback>

const Conditions = ApprovalRules.omit({ enabled: true })

const GateRule = Conditions.extend({
  name: z.string().trim().min(1, 'Give the rule a name').max(100),
  action: RuleAction,
  /** Sent with a 403 when the action is reject (the service keeps it for debugging). */
  reason: z.string().trim().min(1).max(200).optional(),
  fallback: Fallback.default('reject')
})
type GateRule = z.infer<typeof GateRule>

export const GateRules = z.strictObject({
  rules: z.array(GateRule).max(100).default([]),
  /** When no rule's conditions hold. */
  otherwise: z.enum(['ask', 'reject']).default('ask'),
  otherwiseFallback: Fallback.default('reject')
})
export type GateRules = z.infer<typeof GateRules>

/** A fresh gate approves nothing by itself: every payment asks a person and is rejected if nobody answers. */
export const DEFAULT_GATE_RULES: GateRules = { rules: [], otherwise: 'ask', otherwiseFallback: 'reject' }
