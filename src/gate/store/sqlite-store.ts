/**
 * The gate's store on embedded SQLite (one file, nothing to set up). Uniqueness is the database's: PRIMARY KEY on the
 * webhook id and on the decided transaction, UNIQUE on a pre-approval's use; each write and its log entry commit in
 * one transaction. SQLite serialises writers, so the log's chain is extended by one writer at a time.
 */
import { randomUUID } from 'node:crypto'
import { DEFAULT_GATE_RULES, GateRules, type GateEvent, type PreApproval } from '../../shared/gate'
import { checkChain, GENESIS_HASH, rowHash, type ChainRow } from '../domain/log-chain'
import { openGateDatabase, type SqliteDatabase } from './sqlite-open'
import type { Claim, DecisionInput, GateStore, LogInput, OperatorRow, PaymentMatch, StoredAnswer } from './store'

const SCHEMA = `
CREATE TABLE IF NOT EXISTS log (seq INTEGER PRIMARY KEY, at TEXT NOT NULL, kind TEXT NOT NULL, actor TEXT NOT NULL,
  data TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS log_head (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL, hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS webhooks (id TEXT PRIMARY KEY, received_at TEXT NOT NULL, status INTEGER, body TEXT);
CREATE TABLE IF NOT EXISTS decisions (transaction_id TEXT PRIMARY KEY, webhook_id TEXT NOT NULL, outcome TEXT NOT NULL,
  actor TEXT NOT NULL, reason TEXT NOT NULL, decided_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rules (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pre_approvals (id TEXT PRIMARY KEY, customer_id TEXT NOT NULL, currency TEXT NOT NULL,
  min_amount INTEGER NOT NULL, max_amount INTEGER NOT NULL, sender TEXT, expires_at TEXT NOT NULL,
  created_by TEXT NOT NULL, created_at TEXT NOT NULL, used_by TEXT UNIQUE);
CREATE TABLE IF NOT EXISTS receiver_info (customer_id TEXT PRIMARY KEY, sealed BLOB NOT NULL, updated_by TEXT NOT NULL,
  updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS operators (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, token_hash BLOB NOT NULL,
  created_at TEXT NOT NULL);
`

interface LogRecord {
  seq: number
  at: string
  kind: string
  actor: string
  data: string
  prev_hash: string
  hash: string
}

interface PreApprovalRecord {
  id: string
  customer_id: string
  currency: string
  min_amount: number
  max_amount: number
  sender: string | null
  expires_at: string
  created_by: string
  created_at: string
  used_by: string | null
}

const toEvent = (r: LogRecord): GateEvent => ({
  seq: r.seq,
  at: r.at,
  kind: r.kind,
  actor: r.actor,
  data: JSON.parse(r.data) as Record<string, unknown>
})

const toPreApproval = (r: PreApprovalRecord): PreApproval => ({
  id: r.id,
  customerId: r.customer_id,
  currency: r.currency,
  minAmount: r.min_amount,
  maxAmount: r.max_amount,
  sender: r.sender,
  expiresAt: r.expires_at,
  createdBy: r.created_by,
  createdAt: r.created_at,
  usedBy: r.used_by
})

export interface SqliteStoreOptions {
  file: string
  now: () => number
  nativeBinding?: string
}

export class SqliteGateStore implements GateStore {
  private readonly db: SqliteDatabase
  private readonly listeners = new Set<(e: GateEvent) => void>()
  private readonly now: () => string

  constructor(options: SqliteStoreOptions) {
    this.db = openGateDatabase(options.file, options.nativeBinding)
    this.db.exec(SCHEMA)
    this.now = () => new Date(options.now()).toISOString()
  }

  /** Appends inside the caller's transaction; the event goes out once that transaction commits. */
  private appendRow(entry: LogInput, out: GateEvent[]): GateEvent {
    const head = this.db.prepare('SELECT seq, hash FROM log_head WHERE id = 1').get() as
      | { seq: number; hash: string }
      | undefined
    const row = {
      seq: (head?.seq ?? 0) + 1,
      at: this.now(),
      kind: entry.kind,
      actor: entry.actor,
      data: JSON.stringify(entry.data)
    }
    const prevHash = head?.hash ?? GENESIS_HASH
    const hash = rowHash(prevHash, row)
    this.db
      .prepare('INSERT INTO log (seq, at, kind, actor, data, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(row.seq, row.at, row.kind, row.actor, row.data, prevHash, hash)
    this.db
      .prepare('INSERT INTO log_head (id, seq, hash) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET seq = ?, hash = ?')
      .run(row.seq, hash, row.seq, hash)
    const event = { seq: row.seq, at: row.at, kind: row.kind, actor: row.actor, data: entry.data }
    out.push(event)
    return event
  }

  /** Runs `body` in one immediate transaction and tells listeners about its log entries after the commit. */
  private write<T>(body: (out: GateEvent[]) => T): T {
    const out: GateEvent[] = []
    const result = this.db.transaction(() => body(out)).immediate()
    for (const e of out) for (const l of this.listeners) l(e)
    return result
  }

  async claimWebhook(webhookId: string, log: LogInput): Promise<Claim> {
    return this.write((out) => {
      const inserted = this.db
        .prepare('INSERT INTO webhooks (id, received_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING')
        .run(webhookId, this.now())
      if (inserted.changes === 1) {
        this.appendRow(log, out)
        return { claimed: true } as const
      }
      const row = this.db.prepare('SELECT status, body FROM webhooks WHERE id = ?').get(webhookId) as {
        status: number | null
        body: string | null
      }
      const answer =
        row.status === null ? null : { status: row.status, body: row.body === null ? null : JSON.parse(row.body) }
      return { claimed: false, answer }
    })
  }

  async saveAnswer(webhookId: string, answer: StoredAnswer): Promise<void> {
    this.db
      .prepare('UPDATE webhooks SET status = ?, body = ? WHERE id = ?')
      .run(answer.status, JSON.stringify(answer.body ?? null), webhookId)
  }

  async decide(d: DecisionInput): Promise<GateEvent | null> {
    return this.write((out) => {
      const data = {
        ...d.details,
        transactionId: d.transactionId,
        webhookId: d.webhookId,
        outcome: d.outcome,
        reason: d.reason
      }
      const inserted = this.db
        .prepare(
          `INSERT INTO decisions (transaction_id, webhook_id, outcome, actor, reason, decided_at)
           VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (transaction_id) DO NOTHING`
        )
        .run(d.transactionId, d.webhookId, d.outcome, d.actor, d.reason, this.now())
      if (inserted.changes === 0) return null
      return this.appendRow({ kind: 'decision', actor: d.actor, data }, out)
    })
  }

  async append(entry: LogInput): Promise<GateEvent> {
    return this.write((out) => this.appendRow(entry, out))
  }

  async readLog(afterSeq: number, limit: number): Promise<GateEvent[]> {
    const rows = this.db
      .prepare('SELECT * FROM log WHERE seq > ? ORDER BY seq LIMIT ?')
      .all(afterSeq, limit) as LogRecord[]
    return rows.map(toEvent)
  }

  async verifyLog() {
    const head = this.db.prepare('SELECT seq, hash FROM log_head WHERE id = 1').get() as
      | { seq: number; hash: string }
      | undefined
    const rows = this.db.prepare('SELECT * FROM log ORDER BY seq').iterate() as IterableIterator<LogRecord>
    const chain = (function* (): Generator<ChainRow> {
      for (const r of rows) yield { ...r, prevHash: r.prev_hash }
    })()
    return checkChain(chain, head ?? null)
  }

  async getRules(): Promise<GateRules> {
    const row = this.db.prepare('SELECT json FROM rules WHERE id = 1').get() as { json: string } | undefined
    return row ? GateRules.parse(JSON.parse(row.json)) : DEFAULT_GATE_RULES
  }

  async putRules(rules: GateRules, actor: string): Promise<GateEvent> {
    return this.write((out) => {
      const json = JSON.stringify(rules)
      this.db
        .prepare('INSERT INTO rules (id, json) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET json = ?')
        .run(json, json)
      return this.appendRow({ kind: 'rules', actor, data: { rules } }, out)
    })
  }

  async addPreApproval(p: Parameters<GateStore['addPreApproval']>[0], actor: string) {
    return this.write((out) => {
      const record: PreApprovalRecord = {
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
      this.db
        .prepare(
          `INSERT INTO pre_approvals VALUES (@id, @customer_id, @currency, @min_amount, @max_amount, @sender,
           @expires_at, @created_by, @created_at, @used_by)`
        )
        .run(record)
      const preApproval = toPreApproval(record)
      const event = this.appendRow({ kind: 'pre-approval', actor, data: { preApproval } }, out)
      return { preApproval, event }
    })
  }

  async listPreApprovals(): Promise<PreApproval[]> {
    const rows = this.db.prepare('SELECT * FROM pre_approvals ORDER BY created_at, id').all() as PreApprovalRecord[]
    return rows.map(toPreApproval)
  }

  async usePreApproval(m: PaymentMatch, transactionId: string): Promise<PreApproval | null> {
    return this.write(() => {
      const senders = JSON.stringify(m.senders)
      // ISO-8601 UTC strings of one format compare as their instants.
      const row = this.db
        .prepare(
          `UPDATE pre_approvals SET used_by = ? WHERE id = (
             SELECT id FROM pre_approvals WHERE used_by IS NULL AND customer_id = ? AND currency = ?
               AND min_amount <= ? AND max_amount >= ? AND expires_at > ?
               AND (sender IS NULL OR sender IN (SELECT value FROM json_each(?)))
             ORDER BY created_at, id LIMIT 1)
           RETURNING *`
        )
        .get(transactionId, m.customerId, m.currency, m.amount, m.amount, m.now, senders) as
        | PreApprovalRecord
        | undefined
      return row ? toPreApproval(row) : null
    })
  }

  async putReceiverInfo(customerId: string, sealed: Buffer, actor: string): Promise<GateEvent> {
    return this.write((out) => {
      const at = this.now()
      this.db
        .prepare(
          `INSERT INTO receiver_info (customer_id, sealed, updated_by, updated_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (customer_id) DO UPDATE SET sealed = excluded.sealed, updated_by = excluded.updated_by,
           updated_at = excluded.updated_at`
        )
        .run(customerId, sealed, actor, at)
      // The log says who changed whose information, never what it is.
      return this.appendRow({ kind: 'receiver-info', actor, data: { customerId } }, out)
    })
  }

  async getReceiverInfo(customerId: string) {
    const row = this.db
      .prepare('SELECT sealed, updated_by, updated_at FROM receiver_info WHERE customer_id = ?')
      .get(customerId) as { sealed: Buffer; updated_by: string; updated_at: string } | undefined
    return row ? { sealed: row.sealed, updatedBy: row.updated_by, updatedAt: row.updated_at } : null
  }

  async addOperator(name: string, tokenHash: Buffer): Promise<OperatorRow> {
    return this.write((out) => {
      const id = `Operator:${randomUUID()}`
      const taken = this.db.prepare('SELECT 1 FROM operators WHERE name = ?').get(name)
      if (taken) throw new Error(`An operator named ${name} already exists`)
      this.db
        .prepare('INSERT INTO operators (id, name, token_hash, created_at) VALUES (?, ?, ?, ?)')
        .run(id, name, tokenHash, this.now())
      this.appendRow({ kind: 'operator', actor: 'gate', data: { added: name } }, out)
      return { id, name, tokenHash }
    })
  }

  async operators(): Promise<OperatorRow[]> {
    const rows = this.db.prepare('SELECT id, name, token_hash FROM operators').all() as {
      id: string
      name: string
      token_hash: Buffer
    }[]
    return rows.map((r) => ({ id: r.id, name: r.name, tokenHash: r.token_hash }))
  }

  subscribe(listener: (event: GateEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  async close(): Promise<void> {
    this.listeners.clear()
    this.db.close()
  }
}
