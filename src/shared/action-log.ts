import { z } from 'zod'

/**
 * Paydesk's log of the operator's manual actions (src/main/domain/action-log.ts): every approve, reject and edit it
 * sent for a profile, with what it was in the operator's words (names as they were then, ids kept), how it ended and
 * the reason the operator gave. Secrets and form contents (receiver details, beneficiary data) are never in it.
 */

export const ACTION_KINDS = [
  'approve',
  'reject',
  'rules',
  'pre-approval',
  'receiver-info',
  'account',
  'customer'
] as const
export const ActionKind = z.enum(ACTION_KINDS)
export type ActionKind = z.infer<typeof ActionKind>

/** What the filter calls each kind. */
export const ACTION_KIND_LABELS: Record<ActionKind, string> = {
  approve: 'Approvals',
  reject: 'Rejections',
  rules: 'Approval rules',
  'pre-approval': 'Pre-approvals',
  'receiver-info': 'Receiver information',
  account: 'External accounts',
  customer: 'Customers'
}

export const MAX_ACTION_REASON = 500

/** The operator's reason for an action: optional, trimmed, bounded; blank is no reason. */
export const ActionReason = z
  .string()
  .trim()
  .max(MAX_ACTION_REASON, `Keep the reason under ${MAX_ACTION_REASON} characters`)
  .optional()
  .transform((v) => (v ? v : undefined))

/** A production reject refuses a real payment for good: its reason is required (the log and the gate keep it). */
export const PRODUCTION_REJECT_NEEDS_REASON =
  'Say why you reject this payment: a production rejection keeps its reason.'

export const ActionOutcome = z.enum(['done', 'refused', 'unknown'])
export type ActionOutcome = z.infer<typeof ActionOutcome>

/** What both entries of an action carry: its id, which joins them, and when each was written. */
const entry = { id: z.string().min(1).max(100), at: z.iso.datetime() }
const Ids = z.array(z.string().max(200)).max(10)

/** Written, durably, before the action is sent: an action is never sent without its entry. */
export const ActionStarted = z.object({
  type: z.literal('started'),
  ...entry,
  kind: ActionKind,
  /** "Approved the incoming payment of $275.50 for Priya Raman". */
  what: z.string().max(500),
  /** The ids of what it acted on, each one copy-click away. */
  ids: Ids,
  reason: z.string().max(MAX_ACTION_REASON).optional()
})
export type ActionStarted = z.infer<typeof ActionStarted>

/** Written once the service (or the gate) answered, or did not. */
export const ActionSettled = z.object({
  type: z.literal('settled'),
  ...entry,
  outcome: ActionOutcome,
  /** The refusal or the failure in the service's words, and its code. */
  message: z.string().max(1_000).optional(),
  code: z.string().max(100).optional(),
  /** Ids the answer named (a new customer's or account's). */
  ids: Ids.optional()
})
export type ActionSettled = z.infer<typeof ActionSettled>

export const ActionRecord = z.discriminatedUnion('type', [ActionStarted, ActionSettled])
export type ActionRecord = z.infer<typeof ActionRecord>

/** One action as the History view shows it. `unknown`: no answer was recorded (the app stopped, or the call hung). */
export const ActionEntry = z.object({
  id: z.string(),
  at: z.string(),
  kind: ActionKind,
  what: z.string(),
  ids: z.array(z.string()),
  reason: z.string().nullable(),
  outcome: ActionOutcome,
  message: z.string().nullable(),
  code: z.string().nullable(),
  settledAt: z.string().nullable()
})
export type ActionEntry = z.infer<typeof ActionEntry>
