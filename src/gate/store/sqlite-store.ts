/**
 * The gate's store on embedded SQLite (one file, nothing to set up). Uniqueness is the database's: PRIMARY KEY on the
 * webhook id and on the decided transaction, UNIQUE on a pre-approval's use; each write and its log entry commit in
 * one transaction, and a webhook's whole outcome in one (`settleWebhook`: one durable commit per webhook). SQLite
 * serialises writers, so the log's chain is extended by one writer at a time. Durability: WAL with synchronous=FULL
 * (sqlite-open.ts), so a committed answer survives a power cut, except the settlements `settleWebhook` commits NORMAL.
 * The gate's server has its WAL checkpoints run by a thread of their own (sqlite-checkpointer.ts), off its event loop.
 */
import { randomUUID } from 'node:crypto'
import { DEFAULT_GATE_RULES, GateRules, type GateEvent, type PreApproval } from '../../shared/gate'
import { checkChain, GENESIS_HASH, rowHash, type ChainRow } from '../domain/log-chain'
import { SqliteCheckpointer } from './sqlite-checkpointer'
import { openGateDatabase, type SqliteDatabase } from './sqlite-open'
import { prepareStatements, SCHEMA, type Statements } from './sqlite-schema'
import {
  toEvent,
  toPreApproval,
  toSeen,
  toStoredPrompt,
  type LogRecord,
  type PreApprovalRecord,
  type PromptRecord
} from './rows'
import type {
  DecisionInput,
  FactsQuery,
  GateStore,
  LogInput,
  OperatorRow,
  PaymentMatch,
  SeenWebhook,
  Settled,
  StoredPrompt,
  WebhookFacts,
  WebhookSettlement
} from './store'

/** Thrown inside a transaction to roll it back when a pre-approval was taken meanwhile. */
class PreApprovalGone extends Error {}

interface SqliteStoreOptions {
  file: string
  now: () => number
  nativeBinding?: string
  /**
   * Checkpoint the WAL in a worker thread instead of inside commits (the gate's server: open-store.ts). Off by default:
   * a short-lived store (the CLI, tests) or a quiet one (the Local profile's gate) does not need a thread.
   */
  checkpointThread?: boolean
  /** Where the store tells that its checkpoint thread stopped. */
  log?: (message: string) => void
}

export class SqliteGateStore implements GateStore {
  private readonly db: SqliteDatabase
  private readonly st: Statements
  private readonly listeners = new Set<(e: GateEvent) => void>()
  private readonly now: () => string
  /** The rules as last read: re-parsed only when their stored text changed (any writer, any process). */
  private rulesCache: { json: string; rules: GateRules } | null = null
  private readonly checkpointer: SqliteCheckpointer | undefined

  constructor(options: SqliteStoreOptions) {
    this.db = openGateDatabase(options.file, options.nativeBinding)
    try {
      this.db.exec(SCHEMA)
      this.st = prepareStatements(this.db)
    } catch (err) {
      this.db.close()
      throw err
    }
    this.checkpointer =
      options.checkpointThread && options.file !== ':memory:'
        ? new SqliteCheckpointer(this.db, {
            file: options.file,
            ...(options.nativeBinding !== undefined && { nativeBinding: options.nativeBinding }),
            ...(options.log && { log: options.log })
          })
        : undefined
    this.now = () => new Date(options.now()).toISOString()
  }

  /** Appends inside the caller's transaction; the event goes out once that transaction commits. */
  private appendRow(entry: LogInput, out: GateEvent[]): GateEvent {
    const head = this.st.head.get() as { seq: number; hash: string } | undefined
    const row = {
      seq: (head?.seq ?? 0) + 1,
      at: this.now(),
      kind: entry.kind,
      actor: entry.actor,
      data: JSON.stringify(entry.data)
    }
    const prevHash = head?.hash ?? GENESIS_HASH
    const hash = rowHash(prevHash, row)
    this.st.insertLog.run(row.seq, row.at, row.kind, row.actor, row.data, prevHash, hash)
    this.st.setHead.run(row.seq, hash, row.seq, hash)
    const event = { seq: row.seq, at: row.at, kind: row.kind, actor: row.actor, data: entry.data }
    out.push(event)
    return event
  }

  /** Inserts a decision and its log entry inside the caller's transaction; null when the transaction was decided. */
  private decideRow(d: DecisionInput, out: GateEvent[]): GateEvent | null {
    const inserted = this.st.decide.run(d.transactionId, d.webhookId, d.outcome, d.actor, d.reason, this.now())
    if (inserted.changes === 0) return null
    this.st.closePrompt.run(d.transactionId)
    const data = {
      ...d.details,
      transactionId: d.transactionId,
      webhookId: d.webhookId,
      outcome: d.outcome,
      reason: d.reason
    }
    return this.appendRow({ kind: 'decision', actor: d.actor, data }, out)
  }

  /**
   * Runs `body` in one immediate transaction and tells listeners about its log entries after the commit. `durable`
   * commits with synchronous=FULL (on disk before this returns); otherwise NORMAL (docs/gate.md, "Durability").
   */
  private write<T>(body: (out: GateEvent[]) => T, durable = true): T {
    const out: GateEvent[] = []
    if (!durable) this.st.syncNormal.run()
    try {
      const result = this.db.transaction(() => body(out)).immediate()
      this.publish(out)
      return result
    } finally {
      if (!durable) this.st.syncFull.run()
    }
  }

  private publish(events: GateEvent[]): void {
    for (const e of events) for (const l of this.listeners) l(e)
  }

  async seenWebhook(webhookId: string): Promise<SeenWebhook | null> {
    const row = this.st.webhook.get(webhookId) as { status: number | null; body: string | null } | undefined
    return row ? toSeen(row) : null
  }

  async webhookFacts(q: FactsQuery): Promise<WebhookFacts> {
    // SQLite answers in-process: the reads one by one cost no round trip.
    const seen = await this.seenWebhook(q.webhookId)
    if (seen) return { seen }
    return {
      seen: null,
      rules: await this.getRules(),
      receiverInfo: q.customerId === null ? null : ((await this.getReceiverInfo(q.customerId))?.sealed ?? null),
      preApproval: q.match === null ? null : await this.findPreApproval(q.match)
    }
  }

  async settleWebhook(w: WebhookSettlement): Promise<Settled> {
    try {
      // A settlement the service already holds the answer to (it is sent after this) commits NORMAL: a power cut may
      // lose the gate's copy, never the service's. One that takes a pre-approval commits FULL: losing that take could
      // let the pre-approval approve a second payment.
      return this.write((out) => this.settleRows(w, out), w.decision?.preApproval !== undefined)
    } catch (err) {
      if (err instanceof PreApprovalGone) return { settled: false, reason: 'pre-approval-gone' }
      throw err
    }
  }

  /** One webhook's rows, inside the caller's transaction (a throw rolls all of them back). */
  private settleRows(w: WebhookSettlement, out: GateEvent[]): Settled {
    const d = w.decision
    const decidedAlready = d !== undefined && this.st.decided.get(d.record.transactionId) !== undefined
    const answer = d && decidedAlready ? d.ifAlreadyDecided : w.answer
    const claimed = this.st.claimWebhook.run(
      w.webhookId,
      this.now(),
      answer.status,
      JSON.stringify(answer.body ?? null)
    )
    if (claimed.changes === 0) {
      const row = this.st.webhook.get(w.webhookId) as { status: number | null; body: string | null }
      return { settled: false, reason: 'seen', seen: toSeen(row) }
    }
    this.appendRow(w.received, out)
    if (d && !decidedAlready) {
      const pre = d.preApproval
      if (pre && this.st.takePreApproval.run(d.record.transactionId, pre.id, pre.now).changes === 0)
        throw new PreApprovalGone()
      this.decideRow(d.record, out)
    }
    if (w.prompt) {
      const p = w.prompt.stored
      this.st.addPrompt.run(p.transactionId, p.webhookId, p.dueAt, JSON.stringify(p.record))
      this.appendRow(w.prompt.entry, out)
    }
    return { settled: true, answer }
  }

  async decide(d: DecisionInput): Promise<GateEvent | null> {
    return this.write((out) => this.decideRow(d, out))
  }

  async openPrompts(): Promise<StoredPrompt[]> {
    return (this.st.prompts.all() as PromptRecord[]).map(toStoredPrompt)
  }

  async openPrompt(transactionId: string): Promise<StoredPrompt | null> {
    const row = this.st.prompt.get(transactionId) as PromptRecord | undefined
    return row ? toStoredPrompt(row) : null
  }

  async append(entry: LogInput): Promise<GateEvent> {
    return this.write((out) => this.appendRow(entry, out))
  }

  async readLog(afterSeq: number, limit: number): Promise<GateEvent[]> {
    return (this.st.readLog.all(afterSeq, limit) as LogRecord[]).map(toEvent)
  }

  async verifyLog() {
    const head = this.st.head.get() as { seq: number; hash: string } | undefined
    const rows = this.st.wholeLog.iterate() as IterableIterator<LogRecord<number>>
    const chain = (function* (): Generator<ChainRow> {
      for (const r of rows) yield { ...r, prevHash: r.prev_hash }
    })()
    return checkChain(chain, head ?? null)
  }

  async getRules(): Promise<GateRules> {
    const row = this.st.rules.get() as { json: string } | undefined
    if (!row) return DEFAULT_GATE_RULES
    // Reading the text is cheap; parsing and validating it on every webhook was not (docs/gate.md, Measured).
    if (this.rulesCache?.json !== row.json)
      this.rulesCache = { json: row.json, rules: GateRules.parse(JSON.parse(row.json)) }
    return this.rulesCache.rules
  }

  async putRules(rules: GateRules, actor: string): Promise<GateEvent> {
    return this.write((out) => {
      const json = JSON.stringify(rules)
      this.st.putRules.run(json, json)
      return this.appendRow({ kind: 'rules', actor, data: { rules } }, out)
    })
  }

  async addPreApproval(p: Parameters<GateStore['addPreApproval']>[0], actor: string) {
    return this.write((out) => {
      const record: PreApprovalRecord<number> = {
        id: `PreApproval:${randomUUID()}`,
        customer_id: p.customerId,
        currency: p.currency,
        min_amount: p.minAmount,
        max_amount: p.maxAmount,
        sender: p.sender ?? null,
        expires_at: new Date(p.expiresAt).toISOString(),
        created_by: actor,
        created_at: this.now(),
        used_by: null
      }
      this.st.addPreApproval.run(record)
      const preApproval = toPreApproval(record)
      const event = this.appendRow({ kind: 'pre-approval', actor, data: { preApproval } }, out)
      return { preApproval, event }
    })
  }

  async listPreApprovals(): Promise<PreApproval[]> {
    return (this.st.preApprovals.all() as PreApprovalRecord[]).map(toPreApproval)
  }

  async findPreApproval(m: PaymentMatch): Promise<PreApproval | null> {
    if (this.st.anyUnusedPreApproval.get() === undefined) return null
    const row = this.st.findPreApproval.get(
      m.customerId,
      m.currency,
      m.amount,
      m.amount,
      m.now,
      JSON.stringify(m.senders)
    ) as PreApprovalRecord | undefined
    return row ? toPreApproval(row) : null
  }

  async putReceiverInfo(customerId: string, sealed: Buffer, actor: string): Promise<GateEvent> {
    return this.write((out) => {
      this.st.putReceiverInfo.run(customerId, sealed, actor, this.now())
      // The log says who changed whose information, never what it is.
      return this.appendRow({ kind: 'receiver-info', actor, data: { customerId } }, out)
    })
  }

  async getReceiverInfo(customerId: string) {
    const row = this.st.receiverInfo.get(customerId) as
      | { sealed: Buffer; updated_by: string; updated_at: string }
      | undefined
    return row ? { sealed: row.sealed, updatedBy: row.updated_by, updatedAt: row.updated_at } : null
  }

  async addOperator(name: string, tokenHash: Buffer): Promise<OperatorRow> {
    return this.write((out) => {
      const id = `Operator:${randomUUID()}`
      if (this.st.operatorNamed.get(name)) throw new Error(`An operator named ${name} already exists`)
      this.st.addOperator.run(id, name, tokenHash, this.now())
      this.appendRow({ kind: 'operator', actor: 'gate', data: { added: name } }, out)
      return { id, name, tokenHash }
    })
  }

  async operators(): Promise<OperatorRow[]> {
    const rows = this.st.operators.all() as { id: string; name: string; token_hash: Buffer }[]
    return rows.map((r) => ({ id: r.id, name: r.name, tokenHash: r.token_hash }))
  }

  subscribe(listener: (event: GateEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The checkpoint thread, when the store has one (tests ask it for a pass and hold on its end). */
  get checkpoints(): SqliteCheckpointer | undefined {
    return this.checkpointer
  }

  async close(): Promise<void> {
    this.listeners.clear()
    // The thread's connection first: the last one to close checkpoints the whole WAL and removes it.
    await this.checkpointer?.close()
    this.db.close()
  }
}
