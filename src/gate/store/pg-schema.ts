/**
 * The PostgreSQL store's tables: the SQLite store's, with PostgreSQL's types. Text columns that are hashed into the log
 * chain (`at`, `data`) stay text, stored exactly as hashed; instants compared in SQL are ISO-8601 UTC text compared
 * with the "C" collation (byte order, which for one format is time order, whatever the database's locale).
 */
import type { Pool, PoolClient } from 'pg'
import type { GateEvent, PreApproval } from '../../shared/gate'
import { GENESIS_HASH, rowHash } from '../domain/log-chain'
import type { LogInput, SeenWebhook, StoredPrompt } from './store'

const SCHEMA = `
CREATE TABLE IF NOT EXISTS log (seq BIGINT PRIMARY KEY, at TEXT NOT NULL, kind TEXT NOT NULL, actor TEXT NOT NULL,
  data TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS log_head (id INTEGER PRIMARY KEY CHECK (id = 1), seq BIGINT NOT NULL, hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS webhooks (id TEXT PRIMARY KEY, received_at TEXT NOT NULL, status INTEGER, body TEXT);
CREATE TABLE IF NOT EXISTS decisions (transaction_id TEXT PRIMARY KEY, webhook_id TEXT NOT NULL, outcome TEXT NOT NULL,
  actor TEXT NOT NULL, reason TEXT NOT NULL, decided_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rules (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pre_approvals (id TEXT PRIMARY KEY, customer_id TEXT NOT NULL, currency TEXT NOT NULL,
  min_amount BIGINT NOT NULL, max_amount BIGINT NOT NULL, sender TEXT, expires_at TEXT COLLATE "C" NOT NULL,
  created_by TEXT NOT NULL, created_at TEXT COLLATE "C" NOT NULL, used_by TEXT UNIQUE);
CREATE TABLE IF NOT EXISTS receiver_info (customer_id TEXT PRIMARY KEY, sealed BYTEA NOT NULL, updated_by TEXT NOT NULL,
  updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS operators (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, token_hash BYTEA NOT NULL,
  created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS prompts (transaction_id TEXT PRIMARY KEY, webhook_id TEXT NOT NULL, due_at BIGINT NOT NULL,
  record TEXT NOT NULL);
`

/** The NOTIFY channel that carries each committed log entry's seq to every replica. */
export const LOG_CHANNEL = 'paydesk_gate_log'

/**
 * Creates what is missing. Replicas starting together take one advisory lock, so two CREATE TABLE IF NOT EXISTS never
 * race (PostgreSQL can fail the second with a duplicate type), and the head row exists before anyone locks it.
 */
export async function createSchema(pool: Pool): Promise<void> {
  const c = await pool.connect()
  try {
    await c.query('BEGIN')
    await c.query("SELECT pg_advisory_xact_lock(hashtext('paydesk-gate-schema'))")
    await c.query(SCHEMA)
    await c.query('INSERT INTO log_head (id, seq, hash) VALUES (1, 0, $1) ON CONFLICT (id) DO NOTHING', [GENESIS_HASH])
    await c.query('COMMIT')
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined)
    throw err
  } finally {
    c.release()
  }
}

export interface PgLogRecord {
  seq: string
  at: string
  kind: string
  actor: string
  data: string
  prev_hash: string
  hash: string
}

export interface PgPreApprovalRecord {
  id: string
  customer_id: string
  currency: string
  min_amount: string
  max_amount: string
  sender: string | null
  expires_at: string
  created_by: string
  created_at: string
  used_by: string | null
}

export interface PgPromptRecord {
  transaction_id: string
  webhook_id: string
  due_at: string
  record: string
}

export const toStoredPrompt = (r: PgPromptRecord): StoredPrompt => ({
  transactionId: r.transaction_id,
  webhookId: r.webhook_id,
  dueAt: Number(r.due_at),
  record: JSON.parse(r.record) as Record<string, unknown>
})

export type Q = PoolClient

export const toEvent = (r: PgLogRecord): GateEvent => ({
  seq: Number(r.seq),
  at: r.at,
  kind: r.kind,
  actor: r.actor,
  data: JSON.parse(r.data) as Record<string, unknown>
})

export const toPreApproval = (r: PgPreApprovalRecord): PreApproval => ({
  id: r.id,
  customerId: r.customer_id,
  currency: r.currency,
  minAmount: Number(r.min_amount),
  maxAmount: Number(r.max_amount),
  sender: r.sender,
  expiresAt: r.expires_at,
  createdBy: r.created_by,
  createdAt: r.created_at,
  usedBy: r.used_by
})

export const toSeen = (row: { status: number | null; body: string | null }): SeenWebhook => ({
  answer: row.status === null ? null : { status: row.status, body: row.body === null ? null : JSON.parse(row.body) }
})

/**
 * The log entries of one writing transaction. They are chained and inserted at its end (`flush`), which is where the
 * head row is locked FOR UPDATE: the lock that makes writers take turns is held only for the insert and the commit,
 * not while the transaction's other rows are written. Every writer takes its row locks first and the head last, so no
 * two writers wait for each other in a circle.
 */
export class Appender {
  readonly events: GateEvent[] = []
  private readonly entries: { entry: LogInput; event: GateEvent }[] = []

  /** The entry's event; its seq and time are filled in by `flush`, before the transaction commits. */
  add(entry: LogInput): GateEvent {
    const event: GateEvent = { seq: 0, at: '', kind: entry.kind, actor: entry.actor, data: entry.data }
    this.entries.push({ entry, event })
    this.events.push(event)
    return event
  }

  /** Locks the head, then inserts the rows, moves the head and NOTIFYs, in one more statement. */
  async flush(c: Q, at: string): Promise<void> {
    if (this.entries.length === 0) return
    const head = await c.query<{ seq: string; hash: string }>('SELECT seq, hash FROM log_head WHERE id = 1 FOR UPDATE')
    let seq = Number(head.rows[0]?.seq ?? 0)
    let prev = head.rows[0]?.hash ?? GENESIS_HASH
    const values: unknown[] = []
    const tuples = this.entries.map(({ entry, event }) => {
      const row = { seq: ++seq, at, kind: entry.kind, actor: entry.actor, data: JSON.stringify(entry.data) }
      const hash = rowHash(prev, row)
      const n = values.push(row.seq, row.at, row.kind, row.actor, row.data, prev, hash)
      prev = hash
      event.seq = row.seq
      event.at = at
      return `($${n - 6}, $${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n})`
    })
    const n = values.push(seq, prev, LOG_CHANNEL, String(seq))
    await c.query(
      `WITH added AS (INSERT INTO log (seq, at, kind, actor, data, prev_hash, hash) VALUES ${tuples.join(', ')})
       UPDATE log_head SET seq = $${n - 3}, hash = $${n - 2} WHERE id = 1 RETURNING pg_notify($${n - 1}, $${n})`,
      values
    )
  }
}
