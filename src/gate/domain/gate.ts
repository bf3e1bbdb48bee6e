/**
 * The approval gate's decisions: one signed INCOMING_PAYMENT.PENDING in, one answer out (200 approve with exactly the
 * requested receiver fields, 403 reject, 422 missing receiver fields, 202 ask a person), within the service's budget.
 * A webhook id is claimed in the store before anything is decided, so a replay, here or on another replica, gets the
 * stored answer and never a second decision. Prompts (202) live in prompts.ts.
 */
import type { KeyObject } from 'node:crypto'
import type { IncomingPaymentWebhookData } from '../../shared/api/webhook'
import { senderIdentifiers } from '../../shared/approval-rules'
import type { PromptAnswer } from '../../shared/gate'
import type { ServiceClient } from '../service/client'
import type { GateStore, StoredAnswer } from '../store/store'
import type { GateClock } from './clock'
import { needsKyc, verdict } from './decide'
import { Prompts, type PromptOutcome } from './prompts'
import { pickRequested, type Info, type ReceiverInfoSource } from './receiver-info'
import { readWebhook, type Requested } from './webhook'

export interface GateOptions {
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
    const work = this.claimAndDecide(inbound, receivedAt)
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

  private async claimAndDecide(
    inbound: Exclude<ReturnType<typeof readWebhook>, { kind: 'refused' }>,
    receivedAt: number
  ): Promise<GateAnswer> {
    const summary =
      inbound.kind === 'pending'
        ? {
            webhookId: inbound.webhookId,
            type: 'INCOMING_PAYMENT.PENDING',
            transactionId: inbound.payment.id,
            amount: inbound.payment.receivedAmount.amount,
            currency: inbound.payment.receivedAmount.currency.code,
            requestedFields: inbound.requested.map((f) => f.name)
          }
        : { webhookId: inbound.webhookId, type: inbound.type }
    const claim = await this.o.store.claimWebhook(inbound.webhookId, {
      kind: 'webhook',
      actor: 'service',
      data: summary
    })
    if (!claim.claimed) {
      if (claim.answer) return claim.answer
      // Claimed by another replica that has not answered yet: the service retries nothing on approval, so this is a
      // duplicate delivery; the published answer for one is 409, and it decides nothing.
      return answer(409, { code: 'WEBHOOK_IN_PROGRESS', message: 'This webhook is being answered already' })
    }
    let result: GateAnswer
    try {
      result =
        inbound.kind === 'pending'
          ? await this.decide(inbound.webhookId, inbound.payment, inbound.requested, receivedAt)
          : answer(200, {})
    } catch (err) {
      // The store or a lookup broke: nothing was approved, and the service fails the payment on a 500.
      this.o.log(`deciding ${inbound.webhookId} failed: ${err instanceof Error ? err.message : 'error'}`)
      result = answer(500, { code: 'GATE_ERROR', message: 'The gate could not decide this payment' })
    }
    await this.o.store.saveAnswer(inbound.webhookId, result satisfies StoredAnswer)
    return result
  }

  private async decide(
    webhookId: string,
    payment: IncomingPaymentWebhookData,
    requested: Requested[],
    receivedAt: number
  ): Promise<GateAnswer> {
    const rules = await this.o.store.getRules()
    const senders = senderIdentifiers(payment)
    const [kyc, info] = await Promise.all([
      needsKyc(rules) ? this.o.service.kycStatus(payment.customerId, this.o.lookupTimeoutMs) : null,
      this.infoFor(payment, requested)
    ])
    const { picked, missing } = pickRequested(requested, info)
    const details = {
      amount: payment.receivedAmount.amount,
      currency: payment.receivedAmount.currency.code,
      sender: senders[0] ?? null,
      sentFields: Object.keys(picked),
      via: 'answer'
    }
    const base = { transactionId: payment.id, webhookId }
    const approveOrMissing = async (actor: string, reason: string): Promise<GateAnswer> => {
      if (missing.length > 0) {
        const why = `The receiver information lacks ${missing.join(', ')}, which the sender requires.`
        if (!(await this.o.store.decide({ ...base, outcome: 'unprocessable', actor, reason: why, details })))
          return alreadyDecided
        return answer(422, { code: 'MISSING_RECEIVER_INFO', message: why, missingFields: missing })
      }
      if (!(await this.o.store.decide({ ...base, outcome: 'approved', actor, reason, details }))) return alreadyDecided
      return answer(200, { receiverCustomerInfo: picked })
    }

    // An operator's pre-approval is a person saying yes to this payment: it comes before the rules. It is taken only
    // when it can be honoured (nothing missing), so a 422 does not use it up.
    if (missing.length === 0) {
      const pre = await this.o.store.usePreApproval(
        {
          customerId: payment.customerId,
          currency: details.currency,
          amount: details.amount,
          senders,
          now: new Date(this.o.clock.now()).toISOString()
        },
        payment.id
      )
      if (pre) return approveOrMissing(`pre-approval:${pre.id}`, `Pre-approved by ${pre.createdBy}.`)
    }

    const v = verdict(payment, rules, kyc)
    const reason = v.reasons.join(' ')
    if (v.action === 'approve') return approveOrMissing(v.actor, reason)
    if (v.action === 'reject') {
      const decided = await this.o.store.decide({
        ...base,
        outcome: 'rejected',
        actor: v.actor,
        reason: v.rejectReason,
        details
      })
      if (!decided) return alreadyDecided
      return answer(403, { code: 'PAYMENT_REJECTED', message: v.rejectReason, reason: v.rejectReason })
    }
    await this.prompts.open({
      webhookId,
      payment,
      requested,
      availableFields: Object.keys(picked),
      reasons: v.reasons,
      fallback: v.fallback,
      fallbackActor: `fallback:${v.ruleName ?? 'otherwise'}`,
      receivedAt
    })
    return answer(202, {})
  }

  /** Receiver information for the payment's customer, only when the sender asked for some. */
  private async infoFor(payment: IncomingPaymentWebhookData, requested: Requested[]): Promise<Info> {
    if (requested.length === 0) return {}
    const found = await this.o.receiverInfo.find(
      {
        customerId: payment.customerId,
        platformCustomerId: payment.platformCustomerId ?? null,
        fields: requested.map((f) => f.name)
      },
      this.o.lookupTimeoutMs
    )
    return found.info
  }
}
