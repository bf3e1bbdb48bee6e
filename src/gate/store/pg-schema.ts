/**
 * The PostgreSQL store's tables: the SQLite store's, with PostgreSQL's types. Text columns that are hashed into the log
 * chain (`at`, `data`) stay text, stored exactly as hashed; instants compared in SQL are ISO-8601 UTC text compared
 * with the "C" collation (byte order, which for one format is time order, whatever the database's locale).
 */
import type { Pool } from 'pg'
import { GENESIS_HASH } from '../domain/log-chain'

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
