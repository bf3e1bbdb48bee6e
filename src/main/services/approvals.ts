import { randomUUID } from 'node:crypto'
import { Customer, Transaction, type IncomingTransaction } from '../../shared/api'
import type {
  ApprovalItem,
  ApprovalRules,
  AutoDecision,
  ReceiverCustomerInfo
} from '../../shared/ipc/channels/approvals'
import type { TransactionChange } from '../../shared/ipc/channels/sync'
import { AppError } from '../errors'
import {
  approvedAutomatically,
  awaitingApproval,
  manyAwaitingApproval,
  type ProfileNotification
} from '../notifications/wording'
import { Sequencer } from '../sequencer'
import type { ApiClient } from './api-client'
import { ApiError } from './api-errors'
import { evaluateRules, prefillFrom } from '../../shared/approval-rules'
import { readApprovalState, writeApprovalState, type ApprovalState } from './approval-state'
import type { CacheStore } from './cache/store'
import { offlineError, requireClient } from './client-access'
import { requireProductionConfirmation } from './production-guard'

/**
 * The approval queue of a profile (incoming payments still PENDING), its rules, and the record of every automatic
 * decision. Rules run in main the moment a poll sees a payment, so a matching payment is approved within the real
 * service's 5-second window without waiting for a person. Its state on disk is `approval-state.ts`.
 */

const MAX_DECISIONS = 2_000
const GROUP_NOTIFICATIONS_ABOVE = 3

export interface ApprovalDeps {
  profileId: string
  /** A production profile: approving, or saving rules that are on, needs the operator's confirmation. */
  production?: boolean
  file: string
  key: Buffer
  client: ApiClient | undefined
  cache: CacheStore
  /** The sandbox's approval window, when known (local profile): deadline = createdAt + window. */
  approvalWindowMs?: number
  notify: (n: ProfileNotification) => void
  onDecision: (d: AutoDecision) => void
  onQueueChanged: (count: number) => void
  log: (m: string) => void
  /** The saved state was damaged and set aside (kept) as this file: the rules are off until the operator sets them. */
  onDamage?: (setAsideAs: string | undefined) => void
}

type Incoming = IncomingTransaction

export class ApprovalService {
  private state!: ApprovalState
  private readonly sequencer = new Sequencer()
  private inProgress = new Set<string>()
  private decisionsSending = 0
  private readonly customerLookups = new Map<string, Promise<Customer | null>>()

  private constructor(private readonly d: ApprovalDeps) {}

  /**
   * Opens the approval state. A damaged file is set aside (kept) and reported through `onDamage`; the rules then start
   * from the defaults, which are off, so nothing is approved on rules nobody can see.
   */
  static async open(d: ApprovalDeps): Promise<ApprovalService> {
    const s = new ApprovalService(d)
    s.state = await readApprovalState(d.file, d.key, d.log, d.onDamage)
    return s
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    return this.sequencer.run(work)
  }

  private async save(next: ApprovalState): Promise<void> {
    await writeApprovalState(this.d.file, this.d.key, next)
    this.state = next
  }

  get rules(): ApprovalRules {
    return structuredClone(this.state.rules)
  }

  /**
   * Saves the rules. On a production profile, any save that leaves them on (turning them on, or widening a ceiling) is
   * a money decision and needs the operator's confirmation.
   */
  setRules(rules: ApprovalRules, confirmProduction?: boolean): Promise<ApprovalRules> {
    try {
      requireProductionConfirmation(
        rules.enabled && this.d.production === true,
        confirmProduction,
        'with approval rules on, Paydesk approves real payments automatically. Confirm that to save rules that are on; nothing was changed.'
      )
    } catch (error) {
      return Promise.reject(error)
    }
    return this.serial(async () => {
      await this.save({ ...this.state, rules })
      return this.rules
    })
  }

  decisions(limit: number): AutoDecision[] {
    return this.state.decisions.slice(0, limit)
  }

  pendingIds(): string[] {
    return this.d.cache.transactions.query({ awaitingApproval: true }, { field: 'createdAt', direction: 'asc' })
  }

  deadlineOf(t: Transaction): string | null {
    const r = t as Record<string, unknown>
    for (const k of ['approvalDeadline', 'approvalExpiresAt', 'expiresAt']) {
      if (typeof r[k] === 'string' && !Number.isNaN(Date.parse(r[k] as string)))
        return new Date(r[k] as string).toISOString()
    }
    const created = typeof r['createdAt'] === 'string' ? Date.parse(r['createdAt'] as string) : NaN
    if (this.d.approvalWindowMs !== undefined && !Number.isNaN(created)) {
      return new Date(created + this.d.approvalWindowMs).toISOString()
    }
    return null
  }

  /** The queue, soonest deadline first (then oldest). */
  list(): ApprovalItem[] {
    const items = this.pendingIds().map((id) => {
      const transaction = this.d.cache.get<Incoming>('transactions', id)!
      const customer = this.d.cache.get<Customer>('customers', transaction.customerId) ?? null
      return {
        transaction,
        customer,
        deadline: this.deadlineOf(transaction),
        prefill: prefillFrom(customer),
        firstSeenAt: this.state.seen[id] ?? transaction.createdAt ?? new Date().toISOString()
      }
    })
    return items.sort((a, b) => (a.deadline ?? '9999').localeCompare(b.deadline ?? '9999'))
  }

  /**
   * The customer record, from the cache or (then cached) from the service. Concurrent asks for the same customer share
   * one request: a burst of payments to one customer costs one lookup, not one each.
   */
  customer(id: string): Promise<Customer | null> {
    const cached = this.d.cache.get<Customer>('customers', id)
    if (cached) return Promise.resolve(cached)
    const client = this.d.client
    if (!client) return Promise.resolve(null)
    let lookup = this.customerLookups.get(id)
    if (!lookup) {
      lookup = (async () => {
        try {
          const c = await client.get(`customers/${encodeURIComponent(id)}`, Customer)
          await this.d.cache.put('customers', [c])
          return c
        } catch {
          return null
        } finally {
          this.customerLookups.delete(id)
        }
      })()
      this.customerLookups.set(id, lookup)
    }
    return lookup
  }

  /**
   * Called by sync after every successful poll. Every payment in the queue that was never announced is announced (one
   * notification each, or one for the group when many arrive at once) and, with rules on, decided at once. Working
   * from the queue rather than from the poll's changes means a payment is never missed: not after a restart, not when
   * handling a previous poll failed halfway. Never throws; problems are logged.
   */
  async afterPoll(changes: TransactionChange[], seenAt: number): Promise<void> {
    try {
      await this.process(changes, seenAt)
    } catch (error) {
      this.d.log(`approvals: processing a poll failed (${error instanceof Error ? error.name : 'error'})`)
    }
  }

  private async process(changes: TransactionChange[], seenAt: number): Promise<void> {
    const pendingNow = this.pendingIds()
    const fresh = pendingNow.filter((id) => !this.state.seen[id] && !this.inProgress.has(id)).map((id) => ({ id }))
    const left = changes.filter(
      (c) => c.previousStatus === 'PENDING' && c.status !== 'PENDING' && c.type === 'INCOMING'
    )
    if (!fresh.length) {
      if (left.length) this.d.onQueueChanged(pendingNow.length)
      return
    }
    for (const c of fresh) this.inProgress.add(c.id)
    const now = new Date().toISOString()
    try {
      await this.serial(async () => {
        const seen = { ...this.state.seen }
        for (const c of fresh) seen[c.id] = now
        // Forget announced payments that left the queue long ago, so the file stays small.
        const pending = new Set(pendingNow)
        const cutoff = Date.now() - 7 * 24 * 3600 * 1000
        for (const [id, at] of Object.entries(seen)) if (!pending.has(id) && Date.parse(at) < cutoff) delete seen[id]
        await this.save({ ...this.state, seen })
      })
    } catch (error) {
      // Could not remember them (disk full?): still decide and announce now; a restart may announce them again.
      this.d.log(`approvals: could not save the announced payments (${error instanceof Error ? error.name : 'error'})`)
      for (const c of fresh) this.state.seen[c.id] = now
    }
    const waiting: Incoming[] = []
    const rules = this.state.rules
    await Promise.all(
      fresh.map(async (c) => {
        try {
          const t = this.d.cache.get<Incoming>('transactions', c.id)
          if (!t) return
          if (rules.enabled && this.d.client) {
            const decided = await this.decide(t, rules, seenAt)
            if (decided.outcome === 'approved') {
              this.d.notify(approvedAutomatically(t, await this.customer(t.customerId)))
              return
            }
          }
          waiting.push(t)
        } finally {
          this.inProgress.delete(c.id)
        }
      })
    )
    // The operator is about to open these: fetch their customers now, so each approval opens prefilled.
    const customers = new Map(
      await Promise.all(waiting.map(async (t) => [t.id, await this.customer(t.customerId)] as const))
    )
    if (waiting.length > GROUP_NOTIFICATIONS_ABOVE) this.d.notify(manyAwaitingApproval(waiting))
    else for (const t of waiting) this.d.notify(awaitingApproval(t, customers.get(t.id) ?? null, this.deadlineOf(t)))
    this.d.onQueueChanged(this.pendingIds().length)
  }

  /** Evaluates the rules for one payment and, when they all hold, approves it. Every outcome is recorded. */
  private async decide(t: Incoming, rules: ApprovalRules, seenAt: number): Promise<AutoDecision> {
    const customer = await this.customer(t.customerId)
    const { ok, reasons, amount, currency, sender } = evaluateRules(t, rules, customer)
    let outcome: AutoDecision['outcome'] = ok ? 'approved' : 'left-for-operator'
    let error: string | undefined
    if (ok) {
      try {
        const updated = await this.d.client!.request('POST', `transactions/${encodeURIComponent(t.id)}/approve`, {
          body: { receiverCustomerInfo: prefillFrom(customer) },
          schema: Transaction
        })
        await this.d.cache.put('transactions', [updated])
      } catch (e) {
        outcome = 'failed'
        error = e instanceof AppError ? e.message : 'The approve call failed.'
      }
    }
    const decision: AutoDecision = {
      id: randomUUID(),
      profileId: this.d.profileId,
      transactionId: t.id,
      decidedAt: new Date().toISOString(),
      outcome,
      reasons,
      amount,
      currency,
      sender,
      latencyMs: Math.max(0, Date.now() - seenAt),
      ...(error !== undefined && { error })
    }
    await this.serial(() =>
      this.save({ ...this.state, decisions: [decision, ...this.state.decisions].slice(0, MAX_DECISIONS) })
    )
    this.d.onDecision(decision)
    return decision
  }

  async approve(
    transactionId: string,
    info: ReceiverCustomerInfo | undefined,
    confirmProduction?: boolean
  ): Promise<Transaction> {
    requireProductionConfirmation(
      this.d.production === true,
      confirmProduction,
      'approving releases a real payment. Confirm the approval to send it; nothing was sent.'
    )
    requireClient(this.d.client)
    let receiverCustomerInfo = info
    if (!receiverCustomerInfo) {
      const t = this.d.cache.get<Incoming>('transactions', transactionId)
      receiverCustomerInfo = prefillFrom(t ? await this.customer(t.customerId) : null)
    }
    return this.decideByHand(transactionId, 'approve', { receiverCustomerInfo })
  }

  reject(transactionId: string, reason: string): Promise<Transaction> {
    return this.decideByHand(transactionId, 'reject', { reason })
  }

  /** Payments being decided (by the rules or by hand) right now: a restart would lose the service's answer. */
  get decidingNow(): number {
    return this.inProgress.size + this.decisionsSending
  }

  private async decideByHand(id: string, action: 'approve' | 'reject', body: unknown): Promise<Transaction> {
    this.decisionsSending++
    try {
      return await this.sendDecision(id, action, body)
    } finally {
      this.decisionsSending--
    }
  }

  private async sendDecision(id: string, action: 'approve' | 'reject', body: unknown): Promise<Transaction> {
    const client = requireClient(this.d.client)
    try {
      const updated = await client.request('POST', `transactions/${encodeURIComponent(id)}/${action}`, {
        body,
        schema: Transaction
      })
      await this.d.cache.put('transactions', [updated])
      this.d.onQueueChanged(this.pendingIds().length)
      return updated
    } catch (error) {
      if (error instanceof ApiError && error.httpStatus === 409) {
        // Bring the cache up to date so the queue drops it.
        try {
          const fresh = await client.get(`transactions/${encodeURIComponent(id)}`, Transaction)
          await this.d.cache.put('transactions', [fresh])
          this.d.onQueueChanged(this.pendingIds().length)
        } catch {
          /* the conflict is what matters */
        }
        throw new AppError(
          'CONFLICT',
          'This payment is no longer waiting for approval: it was approved, rejected or timed out in the meantime. Nothing was changed.',
          { httpStatus: 409, ...(error.serviceCode !== undefined && { serviceCode: error.serviceCode }) }
        )
      }
      throw offlineError(error, `${action} the payment`)
    }
  }
}
