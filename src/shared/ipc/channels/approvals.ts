import { z } from 'zod'
import { Customer, IncomingTransaction, Transaction, TransactionId } from '../../api'
import { ApprovalRules, ReceiverCustomerInfo } from '../../approval-rules'
import { channel, NoInput } from '../define'
import { ProfileId } from '../../profile'

// Moved to src/shared/approval-rules.ts (the gate shares them); re-exported until the old approvals are deleted.
export { ApprovalRules, ReceiverCustomerInfo }

export const ApprovalItem = z.object({
  transaction: IncomingTransaction,
  customer: Customer.nullable(),
  /** When the service will reject the payment automatically, when known. */
  deadline: z.string().nullable(),
  /** receiverCustomerInfo prefilled from the customer record, for the operator to check and edit. */
  prefill: ReceiverCustomerInfo,
  firstSeenAt: z.string()
})
export type ApprovalItem = z.infer<typeof ApprovalItem>

/**
 * What `approvals.rules.set` takes: the rules, plus `confirmProduction`, required (true) when the rules of a production
 * profile go from off to on (Paydesk will then approve real payments automatically). Never stored.
 */
export const ApprovalRulesInput = ApprovalRules.extend({ confirmProduction: z.boolean().optional() })
export type ApprovalRulesInput = z.input<typeof ApprovalRulesInput>

export const AutoDecision = z.object({
  id: z.string(),
  profileId: ProfileId,
  transactionId: z.string(),
  decidedAt: z.string(),
  /** approved: rules matched and the service accepted; left-for-operator: a rule did not match; failed: rules matched but the approve call failed. */
  outcome: z.enum(['approved', 'left-for-operator', 'failed']),
  /** One sentence per rule checked, e.g. "Amount 120.00 USD is within the ceiling of 500.00 USD". */
  reasons: z.array(z.string()),
  amount: z.number().int(),
  currency: z.string(),
  sender: z.string().nullable(),
  /** Milliseconds from the poll that saw the payment to the decision. */
  latencyMs: z.number().nonnegative(),
  error: z.string().optional()
})
export type AutoDecision = z.infer<typeof AutoDecision>

export const approvalChannels = {
  'approvals.list': channel(
    NoInput,
    z.object({ profileId: ProfileId, items: z.array(ApprovalItem), syncedAt: z.string().nullable() }),
    'Incoming payments waiting for approval, oldest deadline first'
  ),
  'approvals.approve': channel(
    z.strictObject({
      transactionId: TransactionId,
      receiverCustomerInfo: ReceiverCustomerInfo.optional(),
      /** Required (true) for a production profile: the operator confirmed releasing a real payment. */
      confirmProduction: z.boolean().optional()
    }),
    Transaction,
    'Approve an incoming payment with the receiver information'
  ),
  'approvals.reject': channel(
    z.strictObject({ transactionId: TransactionId, reason: z.string().trim().min(1, 'Give a reason').max(500) }),
    Transaction,
    'Reject an incoming payment with a reason'
  ),
  'approvals.rules.get': channel(NoInput, ApprovalRules, 'Approval rules of the active profile'),
  'approvals.rules.set': channel(ApprovalRulesInput, ApprovalRules, 'Replace the approval rules of the active profile'),
  'approvals.decisions': channel(
    z
      .strictObject({ limit: z.number().int().min(1).max(1000).optional() })
      .nullish()
      .transform((v) => ({ limit: v?.limit ?? 200 })),
    z.object({ profileId: ProfileId, decisions: z.array(AutoDecision) }),
    'Every automatic approval decision, newest first'
  )
}

export const approvalEvents = {
  'approvals.changed': z.object({ profileId: ProfileId, count: z.number().int().min(0) }),
  'approvals.decided': AutoDecision
}
