/**
 * The gate's store on PostgreSQL, for two or more replicas behind a load balancer. Every guarantee is the database's,
 * whichever replica a webhook or a click reaches:
 * - the log is one hash chain, extended under the head row's lock by paydesk_gate_append (pg-schema.ts). A webhook's
 *   settlement does not take that lock: it commits its entries to log_pending, and this replica chains them right
 *   after (pg-sealer.ts, off the answer's path; any replica's next write or seal, or a survivor's timer, chains a dead
 *   one's). Other writers append theirs under the lock with their COMMIT, after whatever is pending. A pending entry
 *   is not covered by the chain until sealed (milliseconds; verify-log seals first);
 * - PRIMARY KEY on the webhook id and on the decided transaction: a second delivery or a second decision finds the
 *   first one's committed row and writes nothing;
 * - a pre-approval is taken with a conditional UPDATE … RETURNING in the transaction of the decision that uses it;
 * - `subscribe` is fed from the chained log (pg-feed.ts), so operators on any replica see every entry, in order, once.
 */
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { DEFAULT_GATE_RULES, GateRules, type GateEvent, type PreApproval } from '../../shared/gate'
import { checkChain, type ChainRow } from '../domain/log-chain'
import {
  Appender,
  createSchema,
  decisionData,
  PRE_APPROVAL_GONE,
  SETTLE_SQL,
  settleValues,
  type Q,
  type SettleRow
} from './pg-schema'
import { PgFeed } from './pg-feed'
import { PgSealer } from './pg-sealer'
import {
  toEvent,
  toPreApproval,
  toSeen,
  toStoredPrompt,
  type LogRecord,
  type PreApprovalRecord,
  type PromptRecord
} from './rows'
import { FACTS_SQL, factsValues, matchValues, preApprovalQuery, type FactsRow } from './pg-reads'
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

interface PgStoreOptions {
  /** postgres://user@host:port/database */
  url: string
  now: () => number
  /** Connections in the pool (default 10). */
  poolSize?: number
  log?: (message: string) => void
}

export class PgGateStore implements GateStore {
  private readonly pool: pg.Pool
  private readonly now: () => string
  private readonly log: (message: string) => void
  private readonly sealer: PgSealer
  private readonly feed: PgFeed
  /**
   * The rules as last read. Each webhook still reads their text (so another replica's change is seen by this one's
   * next webhook, with no window for a late NOTIFY), but re-parses it only when it changed.
   */
  private rulesCache: { json: string; rules: GateRules } | null = null

  private constructor(o: PgStoreOptions) {
    this.pool = new pg.Pool({ connectionString: o.url, max: o.poolSize ?? 10 })
    // An idle pooled connection the server dropped must not crash the process; the next query reconnects.
    this.pool.on('error', (err) => this.log(`a pooled PostgreSQL connection failed: ${err.message}`))
    this.now = () => new Date(o.now()).toISOString()
    this.log = o.log ?? (() => undefined)
    this.sealer = new PgSealer(this.pool, () => this.feed.drain(), this.log)
    const newClient = () => new pg.Client({ connectionString: o.url })
    this.feed = new PgFeed(newClient, (after, limit) => this.readLog(after, limit), this.log)
  }

  /** Connects, creates the schema when missing, and LISTENs for other replicas' entries. */
  static async open(o: PgStoreOptions): Promise<PgGateStore> {
    const store = new PgGateStore(o)
    try {
      await createSchema(store.pool)
      const head = await store.pool.query<{ seq: string }>('SELECT seq FROM log_head WHERE id = 1')
      await store.feed.start(Number(head.rows[0]?.seq ?? 0))
      store.sealer.request()
      return store
    } catch (err) {
      await store.sealer.stop()
      await store.feed.close()
      await store.pool.end().catch(() => undefined)
      throw err
    }
  }

  /** A reading transaction (verifyLog's one snapshot). */
  private async tx<T>(body: (c: Q) => Promise<T>): Promise<T> {
    const c = await this.pool.connect()
    try {
      await c.query('BEGIN')
      const result = await body(c)
      await c.query('COMMIT')
      return result
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined)
      throw err
    } finally {
      c.release()
    }
  }

  /**
   * One writing transaction: its rows, then its log entries appended under the head's lock together with the COMMIT
   * (Appender.commit), so no replica holds the head across a round trip; listeners told after commit.
   */
  private async write<T>(body: (c: Q, log: Appender) => Promise<T>, lazy = false): Promise<T> {
    const c = await this.pool.connect()
    let result: T
    try {
      await c.query(lazy ? 'BEGIN; SET LOCAL synchronous_commit TO OFF' : 'BEGIN')
      const log = new Appender()
      result = await body(c, log)
      await log.commit(c, this.now())
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined)
      throw err
    } finally {
      c.release()
    }
    this.feed.drain()
    return result
  }

  async seenWebhook(webhookId: string): Promise<SeenWebhook | null> {
    const r = await this.pool.query('SELECT status, body FROM webhooks WHERE id = $1', [webhookId])
    return r.rows[0] ? toSeen(r.rows[0]) : null
  }

  async webhookFacts(q: FactsQuery): Promise<WebhookFacts> {
    const r = await this.pool.query<FactsRow>(FACTS_SQL, factsValues(q))
    const row = r.rows[0] as FactsRow
    if (row.seen) return { seen: toSeen(row.seen) }
    return {
      seen: null,
      rules: this.parseRules(row.rules),
      receiverInfo: row.sealed,
      preApproval: row.pre ? toPreApproval(row.pre) : null
    }
  }

  /**
   * One statement (paydesk_gate_settle, pg-schema.ts) committed by itself: one round trip. As the SQLite store's
   * NORMAL commits (docs/gate.md, Durability), a settlement that takes no pre-approval commits without waiting for the
   * WAL's fsync (synchronous_commit off for that transaction): only a crash of the database server can lose such
   * commits, the last ones, as a consistent tail; a replica's crash loses nothing. Everything else (a pre-approval
   * taken, operators' decisions, fallbacks, the calls after a 202, rules, receiver information, operators) waits for
   * the disk.
   */
  async settleWebhook(s: WebhookSettlement): Promise<Settled> {
    const at = this.now()
    const d = s.decision
    const decisionEntry: LogInput | null = d
      ? { kind: 'decision', actor: d.record.actor, data: decisionData(d.record) }
      : null
    let row: SettleRow
    try {
      const r = await this.pool.query<SettleRow>(SETTLE_SQL, settleValues(s, at, decisionEntry))
      row = r.rows[0] as typeof row
    } catch (err) {
      if ((err as { code?: string }).code === PRE_APPROVAL_GONE) return { settled: false, reason: 'pre-approval-gone' }
      throw err
    }
    if (row.outcome === 'seen') return { settled: false, reason: 'seen', seen: toSeen(row) }
    // Its entries are committed, pending: chained now, off the answer's path.
    this.sealer.request()
    return { settled: true, answer: d && !row.decided ? d.ifAlreadyDecided : s.answer }
  }

  private async insertDecision(c: Q, log: Appender, d: DecisionInput): Promise<GateEvent | null> {
    // The decision and the end of its transaction's prompt (if one is open) in one round trip.
    const inserted = await c.query<{ n: string }>(
      `WITH d AS (INSERT INTO decisions (transaction_id, webhook_id, outcome, actor, reason, decided_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (transaction_id) DO NOTHING RETURNING transaction_id),
       p AS (DELETE FROM prompts WHERE transaction_id IN (SELECT transaction_id FROM d))
       SELECT count(*) AS n FROM d`,
      [d.transactionId, d.webhookId, d.outcome, d.actor, d.reason, this.now()]
    )
    if (Number(inserted.rows[0]?.n) !== 1) return null
    return log.add({ kind: 'decision', actor: d.actor, data: decisionData(d) })
  }

  async decide(d: DecisionInput): Promise<GateEvent | null> {
    return this.write((c, log) => this.insertDecision(c, log, d))
  }

  async openPrompts(): Promise<StoredPrompt[]> {
    const r = await this.pool.query<PromptRecord>('SELECT * FROM prompts ORDER BY due_at, transaction_id')
    return r.rows.map(toStoredPrompt)
  }

  async openPrompt(transactionId: string): Promise<StoredPrompt | null> {
    const r = await this.pool.query<PromptRecord>('SELECT * FROM prompts WHERE transaction_id = $1', [transactionId])
    return r.rows[0] ? toStoredPrompt(r.rows[0]) : null
  }

  async append(entry: LogInput): Promise<GateEvent> {
    return this.write(async (_c, log) => log.add(entry))
  }

  async readLog(afterSeq: number, limit: number): Promise<GateEvent[]> {
    // What this replica settled is readable once its seal ran; another replica's, once that one's did.
    await this.sealer.idle()
    const r = await this.pool.query<LogRecord>('SELECT * FROM log WHERE seq > $1 ORDER BY seq LIMIT $2', [
      afterSeq,
      limit
    ])
    return r.rows.map(toEvent)
  }

  async verifyLog() {
    // Pending entries are not in the chain yet (nor protected by it): chain them first, as any replica would.
    await this.pool.query('SELECT paydesk_gate_seal()')
    // One snapshot (REPEATABLE READ) for the head and the rows, so entries committed meanwhile do not break the check.
    return this.tx(async (c) => {
      await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ')
      const head = await c.query<{ seq: string; hash: string }>('SELECT seq, hash FROM log_head WHERE id = 1')
      const rows: ChainRow[] = []
      for (let after = 0; ; ) {
        const r = await c.query<LogRecord>('SELECT * FROM log WHERE seq > $1 ORDER BY seq LIMIT 5000', [after])
        for (const row of r.rows) rows.push({ ...row, seq: Number(row.seq), prevHash: row.prev_hash })
        if (r.rows.length < 5000) break
        after = Number(r.rows[r.rows.length - 1]?.seq)
      }
      const h = head.rows[0]
      return checkChain(rows, h ? { seq: Number(h.seq), hash: h.hash } : null)
    })
  }

  async getRules(): Promise<GateRules> {
    const r = await this.pool.query<{ json: string }>('SELECT json FROM rules WHERE id = 1')
    return this.parseRules(r.rows[0]?.json)
  }

  private parseRules(json: string | undefined | null): GateRules {
    if (json === undefined || json === null) return DEFAULT_GATE_RULES
    if (this.rulesCache?.json !== json) this.rulesCache = { json, rules: GateRules.parse(JSON.parse(json)) }
    return this.rulesCache.rules
  }

  async putRules(rules: GateRules, actor: string): Promise<GateEvent> {
    return this.write(async (c, log) => {
      await c.query('INSERT INTO rules (id, json) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET json = excluded.json', [
        JSON.stringify(rules)
      ])
      return log.add({ kind: 'rules', actor, data: { rules } })
    })
  }

  async addPreApproval(p: Parameters<GateStore['addPreApproval']>[0], actor: string) {
    return this.write(async (c, log) => {
      const r = await c.query<PreApprovalRecord>(
        `INSERT INTO pre_approvals (id, customer_id, currency, min_amount, max_amount, sender, expires_at, created_by,
           created_at, used_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, NULL) RETURNING *`,
        [
          `PreApproval:${randomUUID()}`,
          p.customerId,
          p.currency,
          p.minAmount,
          p.maxAmount,
          p.sender ?? null,
          new Date(p.expiresAt).toISOString(),
          actor,
          this.now()
        ]
      )
      const preApproval = toPreApproval(r.rows[0] as PreApprovalRecord)
      const event = log.add({ kind: 'pre-approval', actor, data: { preApproval } })
      return { preApproval, event }
    })
  }

  async listPreApprovals(): Promise<PreApproval[]> {
    const r = await this.pool.query<PreApprovalRecord>('SELECT * FROM pre_approvals ORDER BY created_at, id')
    return r.rows.map(toPreApproval)
  }

  async findPreApproval(m: PaymentMatch): Promise<PreApproval | null> {
    const r = await this.pool.query<PreApprovalRecord>(preApprovalQuery(1), matchValues(m))
    return r.rows[0] ? toPreApproval(r.rows[0]) : null
  }

  async putReceiverInfo(customerId: string, sealed: Buffer, actor: string): Promise<GateEvent> {
    return this.write(async (c, log) => {
      await c.query(
        `INSERT INTO receiver_info (customer_id, sealed, updated_by, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (customer_id) DO UPDATE SET sealed = excluded.sealed, updated_by = excluded.updated_by,
         updated_at = excluded.updated_at`,
        [customerId, sealed, actor, this.now()]
      )
      // The log says who changed whose information, never what it is.
      return log.add({ kind: 'receiver-info', actor, data: { customerId } })
    })
  }

  async getReceiverInfo(customerId: string) {
    const r = await this.pool.query<{ sealed: Buffer; updated_by: string; updated_at: string }>(
      'SELECT sealed, updated_by, updated_at FROM receiver_info WHERE customer_id = $1',
      [customerId]
    )
    const row = r.rows[0]
    return row ? { sealed: row.sealed, updatedBy: row.updated_by, updatedAt: row.updated_at } : null
  }

  async addOperator(name: string, tokenHash: Buffer): Promise<OperatorRow> {
    return this.write(async (c, log) => {
      const id = `Operator:${randomUUID()}`
      const added = await c.query(
        'INSERT INTO operators (id, name, token_hash, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING',
        [id, name, tokenHash, this.now()]
      )
      if (added.rowCount !== 1) throw new Error(`An operator named ${name} already exists`)
      log.add({ kind: 'operator', actor: 'gate', data: { added: name } })
      return { id, name, tokenHash }
    })
  }

  async operators(): Promise<OperatorRow[]> {
    const r = await this.pool.query<{ id: string; name: string; token_hash: Buffer }>(
      'SELECT id, name, token_hash FROM operators'
    )
    return r.rows.map((row) => ({ id: row.id, name: row.name, tokenHash: row.token_hash }))
  }

  subscribe(listener: (event: GateEvent) => void): () => void {
    return this.feed.subscribe(listener)
  }

  async close(): Promise<void> {
    // The last settlements' entries are chained before the pool ends.
    await this.sealer.stop()
    await this.feed.close()
    await this.pool.end()
  }
}
