import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { Customer, Transaction, type IncomingTransaction } from '../../shared/api'
import {
  ApprovalRules,
  AutoDecision,
  type ApprovalItem,
  type ReceiverCustomerInfo
} from '../../shared/ipc/channels/approvals'
import type { TransactionChange } from '../../shared/ipc/channels/sync'
import { AppError } from '../errors'
import { ApiError, type ApiClient } from './api-client'
import type { CacheStore } from './cache/store'
import { formatAmountInSentence } from '../../shared/format/money'
import { readFileIfExists } from './atomic-file'
import { cacheKeyAccount, type SecretStore } from './keychain'
import { setAside } from './atomic-file'
import { openJson, readSealed, writeSealed } from './sealed-file'
import { Sequencer } from '../sequencer'

/**
 * The approval queue of a profile (incoming payments still PENDING), its rules, and the record of every automatic
 * decision. Rules run in main the moment a poll sees a payment, so a matching payment is approved within the real
 * service's 5-second window without waiting for a person. State (rules, decisions, payments already announced) is a
 * sealed file written atomically.
 */

const DEFAULT_RULES: ApprovalRules = {
  enabled: false,
  maxAmountByCurrency: {},
  allowedSenders: [],
  requireKycApproved: true
}
const MAX_DECISIONS = 2_000
const GROUP_NOTIFICATIONS_ABOVE = 3

const StateFile = z.object({
  version: z.literal(1),
  rules: ApprovalRules,
  decisions: z.array(AutoDecision),
  /** Payments already announced (id → first seen), so a restart does not notify again. */
  seen: z.record(z.string(), z.string())
})
type State = z.infer<typeof StateFile>

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
  notify: (n: { id: string; title: string; body: string; route: string; targetId?: string }) => void
  onDecision: (d: AutoDecision) => void
  onQueueChanged: (count: number) => void
  log: (m: string) => void
  /** The saved state was damaged and set aside (kept) as this file: the rules are off until the operator sets them. */
  onDamage?: (setAsideAs: string | undefined) => void
}

type Incoming = IncomingTransaction

/**
 * Whether a profile's saved approval rules are on, read without opening its session (the backend keeps a session
 * running for such profiles even when another one is active). A missing, unreadable or undecryptable file reads as
 * off; nothing is set aside or created here, the session does that when it opens.
 */
export async function savedRulesEnabled(file: string, secrets: SecretStore, profileId: string): Promise<boolean> {
  const data = await readFileIfExists(file)
  if (!data) return false
  const stored = await secrets.get(cacheKeyAccount(profileId))
  if (!stored) return false
  try {
    const parsed = StateFile.safeParse(openJson(Buffer.from(stored, 'base64'), data))
    return parsed.success && parsed.data.rules.enabled
  } catch {
    return false
  }
}

export class ApprovalService {
  private state!: State
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
    const read = await readSealed(d.file, d.key, d.log)
    const parsed = StateFile.safeParse(read.value)
    s.state = parsed.success ? parsed.data : { version: 1, rules: DEFAULT_RULES, decisions: [], seen: {} }
    if (read.setAsideAs !== undefined) d.onDamage?.(read.setAsideAs)
    else if (read.value !== undefined && !parsed.success) {
      const where = await setAside(d.file, 'unreadable')
      d.log(`${d.file} is not an approval state Paydesk can read and was set aside`)
      d.onDamage?.(where)
    }
    return s
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    return this.sequencer.run(work)
  }

  private async save(next: State): Promise<void> {
    await writeSealed(this.d.file, this.d.key, next)
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
    if (rules.enabled && this.d.production && confirmProduction !== true) {
      return Promise.reject(
        new AppError(
          'CONFIRMATION_REQUIRED',
          'This is a production profile: with approval rules on, Paydesk approves real payments automatically. Confirm that to save rules that are on; nothing was changed.'
        )
      )
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
              this.d.notify({
                id: `approval:${t.id}`,
                title: 'Payment approved automatically',
                body: `${describe(t, await this.customer(t.customerId))} matched the approval rules.`,
                route: 'approvals',
                targetId: t.id
              })
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
    if (waiting.length > GROUP_NOTIFICATIONS_ABOVE) {
      this.d.notify({
        id: `approvals:${waiting[0]!.id}`,
        title: `${waiting.length} payments await approval`,
        body: 'Open Approvals to review them.',
        route: 'approvals'
      })
    } else {
      for (const t of waiting) {
        const deadline = this.deadlineOf(t)
        this.d.notify({
          id: `approval:${t.id}`,
          title: 'Payment awaiting approval',
          body: `${describe(t, customers.get(t.id) ?? null)}${deadline ? ` Decide before ${deadline.slice(11, 16)} UTC.` : ''}`,
          route: 'approvals',
          targetId: t.id
        })
      }
    }
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
    if (this.d.production && confirmProduction !== true) {
      throw new AppError(
        'CONFIRMATION_REQUIRED',
        'This is a production profile: approving releases a real payment. Confirm the approval to send it; nothing was sent.'
      )
    }
    this.requireClient()
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
    const client = this.requireClient()
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
      if (error instanceof ApiError && error.isNetwork) {
        throw new AppError(
          'OFFLINE',
          `Paydesk is offline and could not ${action} the payment. ${error.message} Nothing was queued${
            error.maybeProcessed
              ? '; the request may have reached the service, so check the payment before trying again'
              : ''
          }.`
        )
      }
      throw error
    }
  }

  private requireClient(): ApiClient {
    if (!this.d.client) throw new AppError('UNAUTHORIZED', 'This profile has no client secret yet: add it in Settings.')
    return this.d.client
  }
}

/**
 * The rules, applied to one payment: every condition must hold; a currency without a ceiling never passes. Returns one
 * sentence per condition checked, for the decision record.
 */
export function evaluateRules(
  t: Incoming,
  rules: ApprovalRules,
  customer: Customer | null
): { ok: boolean; reasons: string[]; amount: number; currency: string; sender: string | null } {
  const amount = t.receivedAmount.amount
  const currency = t.receivedAmount.currency.code
  const decimals = t.receivedAmount.currency.decimals ?? 2
  const money = (n: number) => formatAmountInSentence(n, currency, decimals)
  const senders = senderIdentifiers(t)
  // Any of the payment's sender identifiers on the list lets it through; the record names the one that matched.
  const sender = senders.find((x) => rules.allowedSenders.includes(x)) ?? senders[0] ?? null
  const reasons: string[] = []
  let ok = true
  const ceiling = Object.hasOwn(rules.maxAmountByCurrency, currency) ? rules.maxAmountByCurrency[currency] : undefined
  if (ceiling === undefined) {
    ok = false
    reasons.push(`No ceiling is set for ${currency}, so ${currency} payments wait for a person.`)
  } else if (amount > ceiling) {
    ok = false
    reasons.push(`Amount ${money(amount)} is above the ceiling of ${money(ceiling)}.`)
  } else {
    reasons.push(`Amount ${money(amount)} is within the ceiling of ${money(ceiling)}.`)
  }
  if (rules.allowedSenders.length) {
    if (sender && rules.allowedSenders.includes(sender)) reasons.push(`Sender ${sender} is on the allow-list.`)
    else {
      ok = false
      reasons.push(`Sender ${sender ?? '(unknown)'} is not on the allow-list.`)
    }
  } else {
    reasons.push('Any sender is allowed (the allow-list is empty).')
  }
  if (rules.requireKycApproved) {
    const kyc = customer?.kycStatus
    if (kyc === 'APPROVED') reasons.push('The customer’s KYC is APPROVED.')
    else {
      ok = false
      reasons.push(`The customer’s KYC is ${kyc ?? 'unknown'}, not APPROVED.`)
    }
  }
  return { ok, reasons, amount, currency, sender }
}

/** receiverCustomerInfo from the customer record: FULL_NAME, BIRTH_DATE, NATIONALITY, COUNTRY_OF_RESIDENCE, ADDRESS. */
export function prefillFrom(customer: Customer | null | undefined): ReceiverCustomerInfo {
  const out: ReceiverCustomerInfo = {}
  if (!customer) return out
  const nonBlank = (s: unknown): s is string => typeof s === 'string' && s.trim().length > 0
  if (nonBlank(customer.fullName)) out['FULL_NAME'] = customer.fullName
  if (nonBlank(customer.birthDate)) out['BIRTH_DATE'] = customer.birthDate
  if (nonBlank(customer.nationality)) out['NATIONALITY'] = customer.nationality
  const residence = customer.address?.country ?? customer.region
  if (nonBlank(residence)) out['COUNTRY_OF_RESIDENCE'] = residence
  const a = customer.address
  if (a && nonBlank(a.line1) && nonBlank(a.postalCode) && nonBlank(a.country)) {
    out['ADDRESS'] = {
      line1: a.line1,
      ...(nonBlank(a.line2) && { line2: a.line2 }),
      ...(nonBlank(a.city) && { city: a.city }),
      ...(nonBlank(a.state) && { state: a.state }),
      postalCode: a.postalCode,
      country: a.country
    }
  }
  return out
}

/**
 * Who sent an incoming payment, every way the service may say it, most specific first: `source.umaAddress`, a top-level
 * `senderUmaAddress`, an address in `counterpartyInformation` (upper-case keys such as UMA_ADDRESS), then
 * `source.accountId`. Blank and non-string values are ignored; duplicates appear once.
 */
export function senderIdentifiers(t: Incoming): string[] {
  const r = t as Record<string, unknown>
  const info = t.counterpartyInformation ?? {}
  const candidates = [
    t.source?.umaAddress,
    r['senderUmaAddress'],
    info['UMA_ADDRESS'],
    info['SENDER_UMA_ADDRESS'],
    info['senderUmaAddress'],
    info['umaAddress'],
    t.source?.accountId
  ]
  const out: string[] = []
  for (const c of candidates) {
    if (typeof c !== 'string') continue
    const v = c.trim()
    if (v && !out.includes(v)) out.push(v)
  }
  return out
}

function describe(t: Incoming, customer: Customer | null): string {
  const m = t.receivedAmount
  const address = senderIdentifiers(t).find((x) => x.startsWith('$'))
  const from = address ? ` from ${address}` : ''
  return `${formatAmountInSentence(m.amount, m.currency.code, m.currency.decimals ?? 2)}${from} for ${customer?.fullName ?? t.customerId}.`
}
