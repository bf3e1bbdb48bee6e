import { z } from 'zod'
import { ApprovePaymentRequest, Customer, IncomingTransaction, Transaction, TransactionId } from '../../api'
import { channel, NoInput } from '../define'
import { ProfileId } from '../../profile'

/** receiverCustomerInfo as the approve call takes it (FULL_NAME, BIRTH_DATE, NATIONALITY, COUNTRY_OF_RESIDENCE, ADDRESS...). */
export const ReceiverCustomerInfo = ApprovePaymentRequest.shape.receiverCustomerInfo.unwrap()
export type ReceiverCustomerInfo = z.infer<typeof ReceiverCustomerInfo>

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

const Currency = z.string().regex(/^[A-Z0-9]{3,5}$/, 'Currency must be a code such as USD')

/**
 * Approval rules of a profile. When enabled, an incoming payment is approved at once, in main, if every condition
 * holds: its currency has a ceiling and the amount is at most that ceiling (a currency without a ceiling is never
 * approved automatically), the sender is on the allow-list (when the list is not empty), and the customer's KYC is
 * APPROVED (when required). Otherwise it waits for a person.
 */
export const ApprovalRules = z.strictObject({
  enabled: z.boolean(),
  /** Minor units per currency code. */
  maxAmountByCurrency: z.record(Currency, z.number().int().min(0).refine(Number.isSafeInteger)).default({}),
  /** Sender UMA addresses or source account ids; empty: any sender. */
  allowedSenders: z.array(z.string().trim().min(1).max(300)).max(1000).default([]),
  requireKycApproved: z.boolean().default(true)
})
export type ApprovalRules = z.infer<typeof ApprovalRules>

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
