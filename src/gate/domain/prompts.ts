/**
 * Payments the gate answered 202: each waits for an operator's Approve or Reject, which the gate sends to the service
 * (POST /transactions/{id}/approve or /reject) before the service's 5 s deadline. At the safety margin (default 4 s
 * after receipt) the rule's fallback applies instead. Whichever comes first decides; the store's one-decision-per-
 * transaction guarantee settles a click that meets the fallback, so the service is told once.
 */
import type { IncomingPaymentWebhookData } from '../../shared/api/webhook'
import { senderIdentifiers } from '../../shared/approval-rules'
import type { Fallback, GateEvent, Prompt, PromptAnswer } from '../../shared/gate'
import type { CallResult, ServiceClient } from '../service/client'
import type { GateStore, LogInput } from '../store/store'
import type { GateClock } from './clock'
import { pickRequested, type Info } from './receiver-info'
import type { Requested } from './webhook'

export interface PromptsOptions {
  store: GateStore
  service: ServiceClient
  clock: GateClock
  marginMs: number
  deadlineMs: number
  log: (message: string) => void
  infoFor: (payment: IncomingPaymentWebhookData, requested: Requested[]) => Promise<Info>
}

export interface NewPrompt {
  webhookId: string
  payment: IncomingPaymentWebhookData
  requested: Requested[]
  availableFields: string[]
  reasons: string[]
  fallback: Fallback
  fallbackActor: string
  receivedAt: number
}

interface OpenPrompt extends NewPrompt {
  cancel: () => void
}

export type PromptOutcome =
  | { ok: true; decision: GateEvent; sent: CallResult }
  | { ok: false; status: 404 | 409 | 422; code: string; message: string; missingFields?: string[] }

const iso = (ms: number): string => new Date(ms).toISOString()

export class Prompts {
  private readonly waiting = new Map<string, OpenPrompt>()
  private readonly sending = new Set<Promise<unknown>>()

  constructor(private readonly o: PromptsOptions) {}

  /** The prompts still waiting, as operators see them. */
  list(): Prompt[] {
    return [...this.waiting.values()].map((p) => this.view(p))
  }

  /** The `prompt` log entry, which the gate commits with the webhook's 202 (store.settleWebhook). */
  entry(p: NewPrompt): LogInput {
    return { kind: 'prompt', actor: 'gate', data: this.view(p) }
  }

  /** Holds a prompt whose 202 is committed: it waits for an operator until its fallback at the margin. */
  hold(p: NewPrompt): void {
    const delay = Math.max(0, p.receivedAt + this.o.marginMs - this.o.clock.now())
    const cancel = this.o.clock.after(delay, () => void this.track(this.fallback(p.payment.id)))
    this.waiting.set(p.payment.id, { ...p, cancel })
  }

  async answer(transactionId: string, operator: string, a: PromptAnswer): Promise<PromptOutcome> {
    const p = this.waiting.get(transactionId)
    if (!p)
      return {
        ok: false,
        status: 404,
        code: 'PROMPT_NOT_FOUND',
        message: 'No prompt waits for this payment: it was decided already, or never asked'
      }
    if (this.o.clock.now() >= p.receivedAt + this.o.marginMs)
      return { ok: false, status: 409, code: 'TOO_LATE', message: 'The safety margin has passed: the fallback applies' }
    let info: Record<string, unknown> = {}
    if (a.action === 'approve') {
      const known = await this.o.infoFor(p.payment, p.requested)
      const { picked, missing } = pickRequested(p.requested, { ...known, ...a.receiverCustomerInfo })
      if (missing.length > 0)
        return {
          ok: false,
          status: 422,
          code: 'MISSING_RECEIVER_INFO',
          message: `Approving needs ${missing.join(', ')}, which the sender requires`,
          missingFields: missing
        }
      info = picked
    }
    const reason = a.action === 'approve' ? `Approved by ${operator}.` : (a.reason ?? `Rejected by ${operator}.`)
    const result = await this.settle(p, a.action, `operator:${operator}`, reason, info)
    if (!result)
      return { ok: false, status: 409, code: 'ALREADY_DECIDED', message: 'This payment was decided meanwhile' }
    return { ok: true, ...result }
  }

  /** Applies every open prompt's fallback now (a graceful stop) and waits for every call to the service. */
  async settleAll(): Promise<void> {
    for (const id of [...this.waiting.keys()]) void this.track(this.fallback(id))
    while (this.sending.size > 0) await Promise.allSettled([...this.sending])
  }

  private async fallback(transactionId: string): Promise<void> {
    try {
      await this.applyFallback(transactionId)
    } catch (err) {
      // The service then rejects at its deadline: nothing was approved.
      this.o.log(`the fallback of ${transactionId} failed: ${err instanceof Error ? err.message : 'error'}`)
    }
  }

  private async applyFallback(transactionId: string): Promise<void> {
    const p = this.waiting.get(transactionId)
    if (!p) return
    let action: Fallback = p.fallback
    let reason = `Nobody answered within ${this.o.marginMs / 1000} s; the fallback is ${p.fallback}.`
    let info: Record<string, unknown> = {}
    if (action === 'approve') {
      const { picked, missing } = pickRequested(p.requested, await this.o.infoFor(p.payment, p.requested))
      if (missing.length > 0) {
        action = 'reject'
        reason = `Nobody answered in time and the receiver information lacks ${missing.join(', ')}: rejected.`
      }
      info = picked
    }
    await this.settle(p, action, p.fallbackActor, reason, info)
  }

  /** Decides once (the store says whether this is the first decision), then tells the service before the deadline. */
  private async settle(
    p: OpenPrompt,
    action: 'approve' | 'reject',
    actor: string,
    reason: string,
    info: Record<string, unknown>
  ): Promise<{ decision: GateEvent; sent: CallResult } | null> {
    const transactionId = p.payment.id
    const decision = await this.o.store.decide({
      transactionId,
      webhookId: p.webhookId,
      outcome: action === 'approve' ? 'approved' : 'rejected',
      actor,
      reason,
      details: { sentFields: Object.keys(info), via: 'call' }
    })
    if (this.waiting.get(transactionId) === p) {
      this.waiting.delete(transactionId)
      p.cancel()
    }
    if (!decision) return null
    const left = p.receivedAt + this.o.deadlineMs - this.o.clock.now()
    const call =
      action === 'approve'
        ? this.o.service.approve(transactionId, info, left)
        : this.o.service.reject(transactionId, reason, left)
    const sent = await this.track(call)
    await this.o.store.append({
      kind: 'decision-sent',
      actor,
      data: { transactionId, action, ok: sent.ok, ...(sent.ok ? { status: sent.status } : { error: sent.error }) }
    })
    if (!sent.ok) this.o.log(`the service did not take the ${action} of ${transactionId}: ${sent.error}`)
    return { decision, sent }
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.sending.add(work)
    void work.finally(() => this.sending.delete(work)).catch(() => undefined)
    return work
  }

  private view(p: NewPrompt): Prompt {
    const amount = p.payment.receivedAmount
    return {
      transactionId: p.payment.id,
      webhookId: p.webhookId,
      customerId: p.payment.customerId ?? null,
      sender: senderIdentifiers(p.payment)[0] ?? null,
      amount: amount.amount,
      currency: amount.currency.code,
      decimals: amount.currency.decimals ?? 2,
      requestedFields: p.requested.map((f) => ({ name: f.name, mandatory: f.mandatory })),
      availableFields: p.availableFields,
      reasons: p.reasons,
      receivedAt: iso(p.receivedAt),
      fallbackAt: iso(p.receivedAt + this.o.marginMs),
      fallback: p.fallback
    }
  }
}
