/**
 * The SQLite store's tables and its statements, prepared once when the store opens (a statement prepared per call
 * costs a parse on every webhook, on the event loop).
 */
import type { SqliteDatabase } from './sqlite-open'

export const SCHEMA = `
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
CREATE INDEX IF NOT EXISTS pre_approvals_unused ON pre_approvals (customer_id) WHERE used_by IS NULL;
CREATE TABLE IF NOT EXISTS receiver_info (customer_id TEXT PRIMARY KEY, sealed BLOB NOT NULL, updated_by TEXT NOT NULL,
  updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS operators (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, token_hash BLOB NOT NULL,
  created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS prompts (transaction_id TEXT PRIMARY KEY, webhook_id TEXT NOT NULL, due_at INTEGER NOT NULL,
  record TEXT NOT NULL);
`

export function prepareStatements(db: SqliteDatabase) {
  const s = (sql: string) => db.prepare(sql)
  return {
    // Per transaction (sqlite-store.ts says which): FULL waits for the disk at commit, NORMAL leaves it to the OS.
    syncFull: s('PRAGMA synchronous = FULL'),
    syncNormal: s('PRAGMA synchronous = NORMAL'),
    head: s('SELECT seq, hash FROM log_head WHERE id = 1'),
    insertLog: s('INSERT INTO log (seq, at, kind, actor, data, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    setHead: s(
      'INSERT INTO log_head (id, seq, hash) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET seq = ?, hash = ?'
    ),
    readLog: s('SELECT * FROM log WHERE seq > ? ORDER BY seq LIMIT ?'),
    wholeLog: s('SELECT * FROM log ORDER BY seq'),
    webhook: s('SELECT status, body FROM webhooks WHERE id = ?'),
    claimWebhook: s(
      'INSERT INTO webhooks (id, received_at, status, body) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING'
    ),
    decided: s('SELECT 1 FROM decisions WHERE transaction_id = ?'),
    decide: s(
      `INSERT INTO decisions (transaction_id, webhook_id, outcome, actor, reason, decided_at)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (transaction_id) DO NOTHING`
    ),
    rules: s('SELECT json FROM rules WHERE id = 1'),
    putRules: s('INSERT INTO rules (id, json) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET json = ?'),
    addPreApproval: s(
      `INSERT INTO pre_approvals VALUES (@id, @customer_id, @currency, @min_amount, @max_amount, @sender,
       @expires_at, @created_by, @created_at, @used_by)`
    ),
    preApprovals: s('SELECT * FROM pre_approvals ORDER BY created_at, id'),
    // ISO-8601 UTC strings of one format compare as their instants.
    // Answered from the partial index: most webhooks arrive with no pre-approval waiting, and skip the search below.
    anyUnusedPreApproval: s('SELECT 1 FROM pre_approvals WHERE used_by IS NULL LIMIT 1'),
    findPreApproval: s(
      `SELECT * FROM pre_approvals WHERE used_by IS NULL AND customer_id = ? AND currency = ?
         AND min_amount <= ? AND max_amount >= ? AND expires_at > ?
         AND (sender IS NULL OR sender IN (SELECT value FROM json_each(?)))
       ORDER BY created_at, id LIMIT 1`
    ),
    takePreApproval: s('UPDATE pre_approvals SET used_by = ? WHERE id = ? AND used_by IS NULL AND expires_at > ?'),
    putReceiverInfo: s(
      `INSERT INTO receiver_info (customer_id, sealed, updated_by, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (customer_id) DO UPDATE SET sealed = excluded.sealed, updated_by = excluded.updated_by,
       updated_at = excluded.updated_at`
    ),
    receiverInfo: s('SELECT sealed, updated_by, updated_at FROM receiver_info WHERE customer_id = ?'),
    operatorNamed: s('SELECT 1 FROM operators WHERE name = ?'),
    addOperator: s('INSERT INTO operators (id, name, token_hash, created_at) VALUES (?, ?, ?, ?)'),
    operators: s('SELECT id, name, token_hash FROM operators'),
    addPrompt: s('INSERT INTO prompts (transaction_id, webhook_id, due_at, record) VALUES (?, ?, ?, ?)'),
    closePrompt: s('DELETE FROM prompts WHERE transaction_id = ?'),
    prompts: s('SELECT * FROM prompts ORDER BY due_at, transaction_id'),
    prompt: s('SELECT * FROM prompts WHERE transaction_id = ?')
  }
}

export type Statements = ReturnType<typeof prepareStatements>
