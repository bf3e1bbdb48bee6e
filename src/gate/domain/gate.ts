/**
 * The approval gate's decisions: one signed INCOMING_PAYMENT.PENDING in, one answer out (200 approve with exactly the
 * requested receiver fields, 403 reject, 422 missing receiver fields, 202 ask a person), within the service's budget.
 * The lookups come first (rules, KYC, receiver information, a matching pre-approval); then the webhook's claim, its
 * decision (or prompt) and its answer are committed together, once (store.settleWebhook), and only then answered. A
 * replay, here or on another replica, gets the stored answer and never a second decision; a crash before the commit
 * leaves nothing behind. Prompts (202) live in prompts.ts.
 */
import type { KeyObject } from 'node:crypto'
import type { IncomingPaymentWebhookData } from '../../shared/api/webhook'
import { senderIdentifiers } from '../../shared/approval-rules'
import type { GateRules, PreApproval, PromptAnswer } from '../../shared/gate'
import type { ServiceClient } from '../service/client'
import type {
  DecisionInput,
  FactsQuery,
  GateStore,
  LogInput,
  PaymentMatch,
  SeenWebhook,
  WebhookFacts,
  WebhookSettlement
} from '../store/store'
import type { GateClock } from './clock'
import { needsKyc, verdict } from './decide'
import { Prompts, type NewPrompt, type PromptOutcome } from './prompts'
import { pickRequested, type Info, type ReceiverInfoSource } from './receiver-info'
import { readWebhook, type Inbound, type Requested } from './webhook'

interface GateOptions {
  store: GateStore
  service: ServiceClient
  receiverInfo: ReceiverInfoSource
  clock: GateClock
  publicKey: KeyObject
  /** After receipt, when a prompt nobody answered gets its fallback (default 4000: the service allows 5000). */
  marginMs: number
  /** The service's own deadline for approve/reject after a 202. */
  deadlineMs: number
  /** Oldest (or furthest ahead) a webhook timestamp may be. */
  toleranceMs: number
  /** Budget of each lookup made while the service waits (KYC, receiver information). */
  lookupTimeoutMs: number
  log: (message: string) => void
}

export interface GateAnswer {
  status: number
  body: unknown
}

const answer = (status: number, body: unknown): GateAnswer => ({ status, body })

/** A second webhook (another id) about a payment already decided: it is never decided again (published 409). */
const alreadyDecided = answer(409, { code: 'ALREADY_DECIDED', message: 'This payment was decided already' })
const gateError = answer(500, { code: 'GATE_ERROR', message: 'The gate could not decide this payment' })
/** Tries at settling one webhook when its pre-approval keeps going to other payments first. */
const SETTLE_ATTEMPTS = 8

type Pending = Extract<Inbound, { kind: 'pending' }>
type Accepted = Exclude<Inbound, { kind: 'refused' }>

/** What a decision needs from outside the payment, looked up before anything is written. */
interface Facts {
  rules: GateRules
  kyc: string | null
  info: Info
}

/** A webhook's answer with what goes with it (a decision, or a prompt), before it is committed. */
interface Plan {
  answer: GateAnswer
  decision?: WebhookSettlement['decision']
  prompt?: NewPrompt
}

/**
 * The answer an id settled before gets again. A claim without an answer was left by a gate that crashed before
 * answering (before one-commit settling): the published answer for a duplicate is 409, and it decides nothing.
 */
const replayed = (seen: SeenWebhook): GateAnswer =>
  seen.answer ?? answer(409, { code: 'WEBHOOK_IN_PROGRESS', message: 'This webhook is being answered already' })

/** The `webhook` log entry's data: what arrived, never receiver information. */
function summaryOf(inbound: Accepted): Record<string, unknown> {
  if (inbound.kind !== 'pending') return { webhookId: inbound.webhookId, type: inbound.type }
  return {
    webhookId: inbound.webhookId,
    type: 'INCOMING_PAYMENT.PENDING',
    transactionId: inbound.payment.id,
    amount: inbound.payment.receivedAmount.amount,
    currency: inbound.payment.receivedAmount.currency.code,
    requestedFields: inbound.requested.map((f) => f.name)
  }
}

export class Gate {
  readonly prompts: Prompts
  /** Webhooks being decided here, so a replay that arrives meanwhile waits for the same answer. */
  private readonly deciding = new Map<string, Promise<GateAnswer>>()

  constructor(private readonly o: GateOptions) {
    this.prompts = new Prompts({ ...o, infoFor: (p, r) => this.infoFor(p, r) })
  }

  async handleWebhook(raw: Buffer, signature: string | undefined): Promise<GateAnswer> {
    const receivedAt = this.o.clock.now()
    const inbound = readWebhook(raw, signature, this.o.publicKey, receivedAt, this.o.toleranceMs)
    if (inbound.kind === 'refused') return answer(inbound.status, { code: inbound.code, message: inbound.message })
    const inFlight = this.deciding.get(inbound.webhookId)
    if (inFlight) return inFlight
    const work = this.settle(inbound, receivedAt)
    this.deciding.set(inbound.webhookId, work)
    try {
      return await work
    } finally {
      this.deciding.delete(inbound.webhookId)
    }
  }

  async answerPrompt(transactionId: string, operator: string, a: PromptAnswer): Promise<PromptOutcome> {
    return this.prompts.answer(transactionId, operator, a)
  }

  /** Stops taking prompts: each open one gets its fallback now, and every call it makes is awaited. */
  async stop(): Promise<void> {
    await Promise.allSettled([...this.deciding.values()])
    await this.prompts.settleAll()
  }

  private async settle(inbound: Accepted, receivedAt: number): Promise<GateAnswer> {
    const received: LogInput = { kind: 'webhook', actor: 'service', data: summaryOf(inbound) }
    try {
      // Every read in one store call (PostgreSQL: one round trip), then one settlement: two round trips a webhook.
      const read = await this.o.store.webhookFacts(this.factsQuery(inbound))
      if (read.seen) return replayed(read.seen)
      let facts: Facts | undefined
      for (let attempt = 1; attempt <= SETTLE_ATTEMPTS; attempt++) {
        let plan: Plan
        try {
          if (inbound.kind !== 'pending') plan = { answer: answer(200, {}) }
          else {
            facts ??= await this.lookups(inbound.payment, inbound.requested, read)
            // A retry means the pre-approval read went to another payment: search again.
            const pre = attempt === 1 ? read.preApproval : undefined
            plan = await this.plan(inbound, receivedAt, facts, pre)
          }
        } catch (err) {
          // A lookup or a store read broke: nothing is approved, and the service fails the payment on a 500.
          this.o.log(`deciding ${inbound.webhookId} failed: ${err instanceof Error ? err.message : 'error'}`)
          plan = { answer: gateError }
        }
        const settled = await this.o.store.settleWebhook({
          webhookId: inbound.webhookId,
          received,
          answer: plan.answer,
          ...(plan.decision ? { decision: plan.decision } : {}),
          ...(plan.prompt ? { prompt: this.prompts.entry(plan.prompt) } : {})
        })
        if (settled.settled) {
          if (plan.prompt) this.prompts.hold(plan.prompt)
          return settled.answer
        }
        // Another delivery of this id (on any replica) settled first: its answer, and nothing decided here.
        if (settled.reason === 'seen') return replayed(settled.seen)
        // The pre-approval went to another payment meanwhile: decide again (another one, or the rules).
      }
      throw new Error(`pre-approvals were taken by other payments ${SETTLE_ATTEMPTS} times`)
    } catch (err) {
      // The store failed (its read or the commit): nothing was written or decided; the service fails the payment.
      this.o.log(`settling ${inbound.webhookId} failed: ${err instanceof Error ? err.message : 'error'}`)
      return gateError
    }
  }

  /** What the first read asks for: receiver information only when the sender requested fields. */
  private factsQuery(inbound: Accepted): FactsQuery {
    if (inbound.kind !== 'pending') return { webhookId: inbound.webhookId, customerId: null, match: null }
    const { payment, requested } = inbound
    return {
      webhookId: inbound.webhookId,
      customerId: requested.length > 0 ? payment.customerId : null,
      match: this.matchOf(payment)
    }
  }

  private matchOf(payment: IncomingPaymentWebhookData): PaymentMatch {
    return {
      customerId: payment.customerId,
      currency: payment.receivedAmount.currency.code,
      amount: payment.receivedAmount.amount,
      senders: senderIdentifiers(payment),
      now: new Date(this.o.clock.now()).toISOString()
    }
  }

  /** What a decision needs from outside the payment: the rules, KYC when a rule asks for it, receiver information. */
  private async lookups(
    payment: IncomingPaymentWebhookData,
    requested: Requested[],
    read: Extract<WebhookFacts, { seen: null }>
  ): Promise<Facts> {
    const { rules } = read
    const [kyc, info] = await Promise.all([
      needsKyc(rules) ? this.o.service.kycStatus(payment.customerId, this.o.lookupTimeoutMs) : null,
      this.infoFor(payment, requested, read.receiverInfo)
    ])
    return { rules, kyc, info }
  }

  /** The answer and what goes with it (a decision, or a prompt), not yet committed. */
  /** `found`: the pre-approval read with the facts (null: none), or undefined to search now. */
  private async plan(inbound: Pending, receivedAt: number, f: Facts, found?: PreApproval | null): Promise<Plan> {
    const { webhookId, payment, requested } = inbound
    const senders = senderIdentifiers(payment)
    const { picked, missing } = pickRequested(requested, f.info)
    const details = {
      amount: payment.receivedAmount.amount,
      currency: payment.receivedAmount.currency.code,
      sender: senders[0] ?? null,
      sentFields: Object.keys(picked),
      via: 'answer'
    }
    const base = { transactionId: payment.id, webhookId, details }
    const decided = (record: DecisionInput, a: GateAnswer, preApproval?: { id: string; now: string }): Plan => ({
      answer: a,
      decision: { record, ifAlreadyDecided: alreadyDecided, ...(preApproval ? { preApproval } : {}) }
    })
    const approveOrMissing = (actor: string, reason: string, preApproval?: { id: string; now: string }): Plan => {
      if (missing.length > 0) {
        const why = `The receiver information lacks ${missing.join(', ')}, which the sender requires.`
        const body = { code: 'MISSING_RECEIVER_INFO', message: why, missingFields: missing }
        return decided({ ...base, outcome: 'unprocessable', actor, reason: why }, answer(422, body))
      }
      const approved = answer(200, { receiverCustomerInfo: picked })
      return decided({ ...base, outcome: 'approved', actor, reason }, approved, preApproval)
    }

    // An operator's pre-approval is a person saying yes to this payment: it comes before the rules. It is taken (in
    // the commit of this decision) only when it can be honoured (nothing missing), so a 422 does not use it up.
    if (missing.length === 0) {
      const match = this.matchOf(payment)
      const pre = found === undefined ? await this.o.store.findPreApproval(match) : found
      if (pre)
        return approveOrMissing(`pre-approval:${pre.id}`, `Pre-approved by ${pre.createdBy}.`, {
          id: pre.id,
          now: match.now
        })
    }

    const v = verdict(payment, f.rules, f.kyc)
    if (v.action === 'approve') return approveOrMissing(v.actor, v.reasons.join(' '))
    if (v.action === 'reject') {
      const body = { code: 'PAYMENT_REJECTED', message: v.rejectReason, reason: v.rejectReason }
      return decided({ ...base, outcome: 'rejected', actor: v.actor, reason: v.rejectReason }, answer(403, body))
    }
    return {
      answer: answer(202, {}),
      prompt: {
        webhookId,
        payment,
        requested,
        availableFields: Object.keys(picked),
        reasons: v.reasons,
        fallback: v.fallback,
        fallbackActor: `fallback:${v.ruleName ?? 'otherwise'}`,
        receivedAt
      }
    }
  }

  /** Receiver information for the payment's customer, only when the sender asked for some. */
  private async infoFor(
    payment: IncomingPaymentWebhookData,
    requested: Requested[],
    sealed?: Buffer | null
  ): Promise<Info> {
    if (requested.length === 0) return {}
    const found = await this.o.receiverInfo.find(
      {
        customerId: payment.customerId,
        platformCustomerId: payment.platformCustomerId ?? null,
        fields: requested.map((f) => f.name)
      },
      this.o.lookupTimeoutMs,
      sealed
    )
    return found.info
  }
}
