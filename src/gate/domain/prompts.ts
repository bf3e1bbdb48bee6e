/**
 * Payments the gate answered 202: each waits for an operator's Approve or Reject, which the gate sends to the service
 * (POST /transactions/{id}/approve or /reject) before the service's 5 s deadline. At the safety margin (default 4 s
 * after receipt) the rule's fallback applies instead. Whichever comes first decides; the store's one-decision-per-
 * transaction guarantee settles a click that meets the fallback, so the service is told once.
 *
 * Open prompts live in the store, not in one replica's memory: an operator's answer reaching any replica finds the
 * prompt there, and every replica arms a fallback timer for every open prompt it hears of (the store's `prompt`
 * entries, through LISTEN/NOTIFY on PostgreSQL, and the open ones at start). The replica that answered 202 fires at the
 * margin; the others `peerGraceMs` later, so the fallback still happens before the deadline if that replica died, and
 * one decision wins whoever fires.
 */
import type { IncomingPaymentWebhookData } from '../../shared/api/webhook'
import { senderIdentifiers } from '../../shared/approval-rules'
import type { Fallback, GateEvent, Prompt, PromptAnswer } from '../../shared/gate'
import type { CallResult, ServiceClient } from '../service/client'
import type { GateStore, LogInput, StoredPrompt } from '../store/store'
import type { GateClock } from './clock'
import { pickRequested, type Info } from './receiver-info'
import type { Requested } from './webhook'

interface PromptsOptions {
  store: GateStore
  service: ServiceClient
  clock: GateClock
  marginMs: number
  deadlineMs: number
  log: (message: string) => void
  infoFor: (payment: IncomingPaymentWebhookData, requested: Requested[]) => Promise<Info>
  /** How long after the margin a replica that did not answer the 202 applies the fallback (default 250 ms). */
  peerGraceMs?: number
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

/** A fallback timer armed here; `owned` when this replica answered the prompt's 202. */
interface Armed {
  owned: boolean
  cancel: () => void
}

export type PromptOutcome =
  | { ok: true; decision: GateEvent; sent: CallResult }
  | { ok: false; status: 404 | 409 | 422; code: string; message: string; missingFields?: string[] }

const iso = (ms: number): string => new Date(ms).toISOString()

/** The stored record is the NewPrompt this gate wrote (JSON): read back as written. */
const fromStored = (s: StoredPrompt): NewPrompt => s.record as unknown as NewPrompt

export class Prompts {
  private readonly armed = new Map<string, Armed>()
  private readonly sending = new Set<Promise<unknown>>()
  private readonly graceMs: number
  private unsubscribe: (() => void) | undefined
  private stopped = false

  constructor(private readonly o: PromptsOptions) {
    this.graceMs = o.peerGraceMs ?? 250
  }

  /** Follows prompts opened and decided on any replica, and arms the ones already open (a replica starting). */
  async start(): Promise<void> {
    this.unsubscribe = this.o.store.subscribe((e) => this.heard(e))
    for (const p of await this.o.store.openPrompts()) this.arm(p.transactionId, p.dueAt, false)
  }

  /** Prompts this replica knows to be open (for the gauge; every replica hears of every prompt). */
  openCount(): number {
    return this.armed.size
  }

  /** The prompts still waiting, as operators see them, whichever replica opened them. */
  async list(): Promise<Prompt[]> {
    return (await this.o.store.openPrompts()).map((s) => this.view(fromStored(s)))
  }

  /** The `prompt` log entry and the stored prompt, which the gate commits with the webhook's 202 (settleWebhook). */
  entry(p: NewPrompt): { entry: LogInput; stored: StoredPrompt } {
    return {
      entry: { kind: 'prompt', actor: 'gate', data: this.view(p) },
      stored: {
        transactionId: p.payment.id,
        webhookId: p.webhookId,
        dueAt: p.receivedAt + this.o.marginMs,
        record: { ...p } as unknown as Record<string, unknown>
      }
    }
  }

  /** Holds a prompt whose 202 is committed here: its fallback fires at the margin. */
  hold(p: NewPrompt): void {
    this.arm(p.payment.id, p.receivedAt + this.o.marginMs, true)
  }

  async answer(transactionId: string, operator: string, a: PromptAnswer): Promise<PromptOutcome> {
    const stored = await this.o.store.openPrompt(transactionId)
    if (!stored)
      return {
        ok: false,
        status: 404,
        code: 'PROMPT_NOT_FOUND',
        message: 'No prompt waits for this payment: it was decided already, or never asked'
      }
    const p = fromStored(stored)
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

  /**
   * A graceful stop: the prompts this replica answered 202 get their fallback now (other replicas' prompts are left
   * to them), and every call to the service is awaited.
   */
  async settleAll(): Promise<void> {
    this.stopped = true
    this.unsubscribe?.()
    for (const [id, a] of [...this.armed]) {
      if (a.owned) void this.track(this.fallback(id))
      else this.release(id)
    }
    while (this.sending.size > 0) await Promise.allSettled([...this.sending])
  }

  private arm(transactionId: string, dueAt: number, owned: boolean): void {
    if (this.stopped) return
    const existing = this.armed.get(transactionId)
    if (existing && (existing.owned || !owned)) return
    existing?.cancel()
    const at = owned ? dueAt : dueAt + this.graceMs
    const cancel = this.o.clock.after(Math.max(0, at - this.o.clock.now()), () => {
      this.armed.delete(transactionId)
      void this.track(this.fallback(transactionId))
    })
    this.armed.set(transactionId, { owned, cancel })
  }

  private release(transactionId: string): void {
    this.armed.get(transactionId)?.cancel()
    this.armed.delete(transactionId)
  }

  /** Another replica's prompt (or this one's, heard back) arms a timer; any decision of its transaction disarms it. */
  private heard(e: GateEvent): void {
    const id = e.data['transactionId']
    if (typeof id !== 'string') return
    if (e.kind === 'decision') return this.release(id)
    if (e.kind !== 'prompt' || this.armed.has(id)) return
    const dueAt = Date.parse(String(e.data['fallbackAt']))
    if (Number.isFinite(dueAt)) this.arm(id, dueAt, false)
  }

  private async fallback(transactionId: string): Promise<void> {
    try {
      const stored = await this.o.store.openPrompt(transactionId)
      if (stored) await this.applyFallback(fromStored(stored))
    } catch (err) {
      // The service then rejects at its deadline: nothing was approved.
      this.o.log(`the fallback of ${transactionId} failed: ${err instanceof Error ? err.message : 'error'}`)
    }
  }

  private async applyFallback(p: NewPrompt): Promise<void> {
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
    p: NewPrompt,
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
    this.release(transactionId)
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
