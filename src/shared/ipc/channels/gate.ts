import { z } from 'zod'
import { Transaction, TransactionId } from '../../api'
import { ReceiverCustomerInfo } from '../../approval-rules'
import {
  GateEvent,
  GateRules,
  PreApproval,
  PreApprovalCreateRequest,
  Prompt,
  PromptAnswer,
  ReceiverInfo
} from '../../gate'
import { ActionReason } from '../../action-log'
import { credentialedUrl, ProfileId } from '../../profile'
import { channel, NoInput } from '../define'

/**
 * Paydesk's side of the approval gate (docs/gate.md): a profile's link to the gate its platform runs, the gate's event
 * stream (prompts, decisions, rule changes) relayed by main, and the operator's commands. Main holds the operator
 * token (OS keychain) and makes every call; the renderer never sees the token.
 */

/** Where the gate is: https, or plain http only on this machine (the operator token travels with every request). */
const GateUrl = credentialedUrl('Gate URL', 'https://gate.example.com')

/** Write-only: printed once by `npm run gate -- operator add NAME`, kept in the OS keychain, never sent back. */
const GateToken = z.string().trim().min(16, 'Paste the whole operator token').max(500)

/**
 * The truth about a profile's gate link, one state at a time:
 * - none: the profile has no gate; approvals need one (remote profiles say how to run it);
 * - connecting: following the stream for the first time or again after a drop;
 * - live: the stream is open;
 * - unreachable: the gate did not answer (message says what failed, lastEventAt when it last did);
 * - signed-out: the gate refused the token (401/403).
 */
export const GateLinkState = z.enum(['none', 'connecting', 'live', 'unreachable', 'signed-out'])
export type GateLinkState = z.infer<typeof GateLinkState>

export const GateLink = z.object({
  profileId: ProfileId,
  state: GateLinkState,
  url: z.string().nullable(),
  /** True for the Local profile, whose gate Paydesk runs itself in a process of its own. */
  managed: z.boolean(),
  /** Seq of the last stream entry received (the Last-Event-ID a reconnect resumes from); 0 before any. */
  lastSeq: z.number().int().nonnegative(),
  lastEventAt: z.string().nullable(),
  /** A sentence for the operator about the state (why unreachable, how to run a gate), or null when live. */
  message: z.string().nullable()
})
export type GateLink = z.infer<typeof GateLink>

/** Required (true) on a production profile for any command that decides or changes how real payments are decided. */
const ConfirmProduction = z.boolean().optional()

export const gateChannels = {
  'gate.link': channel(NoInput, GateLink, "The active profile's link to its approval gate"),
  'gate.connect': channel(
    z.strictObject({ url: GateUrl, token: GateToken, confirmProduction: ConfirmProduction }),
    GateLink,
    'Link the active profile to an approval gate (the token goes to the OS keychain)'
  ),
  'gate.disconnect': channel(NoInput, GateLink, "Unlink the active profile's gate and forget its token"),
  'gate.prompts': channel(
    NoInput,
    z.object({ profileId: ProfileId, prompts: z.array(Prompt) }),
    'Payments the gate is holding for a person, earliest fallback first'
  ),
  'gate.answer': channel(
    z.strictObject({
      transactionId: TransactionId,
      answer: PromptAnswer,
      confirmProduction: ConfirmProduction,
      reason: ActionReason
    }),
    z.object({ profileId: ProfileId, decision: GateEvent }),
    'Approve or reject a payment the gate is holding (before its fallback)'
  ),
  'gate.log': channel(
    z
      .strictObject({
        /** Entries with seq below this (paging back); absent: the newest. */
        before: z.number().int().positive().optional(),
        limit: z.number().int().min(1).max(500).optional()
      })
      .nullish()
      .transform((v) => ({ before: v?.before, limit: v?.limit ?? 200 })),
    z.object({ profileId: ProfileId, events: z.array(GateEvent) }),
    "The gate's decision log, newest first: webhooks, decisions with who or what made them and why, rule changes"
  ),
  'gate.rules.get': channel(NoInput, GateRules, "The gate's approval rules"),
  'gate.rules.set': channel(
    z.strictObject({ rules: GateRules, confirmProduction: ConfirmProduction, reason: ActionReason }),
    GateRules,
    "Replace the gate's approval rules (logged with the operator's name)"
  ),
  'gate.preApprovals.list': channel(
    NoInput,
    z.object({ profileId: ProfileId, preApprovals: z.array(PreApproval) }),
    'Pre-approvals, used and unused'
  ),
  'gate.preApprovals.add': channel(
    z.strictObject({
      preApproval: PreApprovalCreateRequest,
      confirmProduction: ConfirmProduction,
      reason: ActionReason
    }),
    PreApproval,
    'Approve a payment before it arrives: customer, currency, amount range, optional sender, expiry; used once'
  ),
  'gate.receiverInfo.get': channel(
    z.strictObject({ customerId: z.string().trim().min(1).max(200) }),
    ReceiverInfo.nullable(),
    'The receiver information the gate answers for a customer, or null when it has none'
  ),
  'gate.receiverInfo.set': channel(
    z.strictObject({
      customerId: z.string().trim().min(1).max(200),
      info: ReceiverCustomerInfo,
      confirmProduction: ConfirmProduction,
      reason: ActionReason
    }),
    ReceiverInfo,
    'Set the receiver information the gate answers for a customer (stored encrypted by the gate)'
  ),
  'gate.failedApprovals': channel(
    NoInput,
    z.object({ profileId: ProfileId, transactions: z.array(Transaction) }),
    'Incoming payments that failed for an approval reason (PAYMENT_APPROVAL_*), newest first, from the cache'
  )
}

export const gateEvents = {
  /** Every change of a profile's link state (any profile, not only the active one). */
  'gate.linkChanged': GateLink,
  /** Every entry of a profile's gate stream, as it arrives. */
  'gate.event': z.object({ profileId: ProfileId, event: GateEvent }),
  /** How many payments a profile's gate is holding for a person: the Approvals badge of that profile only. */
  'gate.promptsChanged': z.object({ profileId: ProfileId, count: z.number().int().min(0) })
}
