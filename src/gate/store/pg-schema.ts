/**
 * The PostgreSQL store's tables: the SQLite store's, with PostgreSQL's types. Text columns that are hashed into the log
 * chain (`at`, `data`) stay text, stored exactly as hashed; instants compared in SQL are ISO-8601 UTC text compared
 * with the "C" collation (byte order, which for one format is time order, whatever the database's locale).
 */
import type { Pool, PoolClient } from 'pg'
import type { GateEvent } from '../../shared/gate'
import { GENESIS_HASH } from '../domain/log-chain'
import type { DecisionInput, LogInput, WebhookSettlement } from './store'

/** The NOTIFY channel that carries each committed log entry's seq to every replica. */
export const LOG_CHANNEL = 'paydesk_gate_log'

/**
 * Extends the hash chain, under the head's row lock, in the database. A webhook's settlement does not take the head: it
 * commits its entries to `log_pending` (paydesk_gate_settle), and they are chained AFTER that commit, here, in the
 * order they were written, before this call's own entries. Settlements therefore never wait for each other's row lock
 * (nor for NOTIFY's commit lock: only this function notifies), which on a loaded machine made every settlement wait
 * out whichever backend held the head and lost its core (docs/gate.md, PostgreSQL). Called with no entries it only
 * chains what is pending (paydesk_gate_seal); the other writers (decisions after a 202, rules, operators...) call it
 * with theirs in their own transaction, with the COMMIT in the same round trip (Appender.commit), so what they record
 * still commits with its entries, and any entry pending before them is chained before theirs.
 * Each hash is log-chain.ts's rowHash: SHA-256 of the UTF-8 JSON array [prev, seq, at, kind, actor, data]; to_json
 * escapes a string as JSON.stringify does, and verify-log recomputes every row in JavaScript, so a difference would
 * be found. A pending row's ids are taken one by one, never by range: a lower id that commits later stays pending.
 */
const APPEND_FUNCTION = `
CREATE OR REPLACE FUNCTION paydesk_gate_hash(prev TEXT, s BIGINT, p_at TEXT, p_kind TEXT, p_actor TEXT, p_data TEXT)
RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to('[' || to_json(prev)::text || ',' || s::text || ',' || to_json(p_at)::text || ','
    || to_json(p_kind)::text || ',' || to_json(p_actor)::text || ',' || to_json(p_data)::text || ']', 'UTF8')), 'hex')
$$;
CREATE OR REPLACE FUNCTION paydesk_gate_append(p_at TEXT, p_kinds TEXT[], p_actors TEXT[], p_datas TEXT[])
RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
  s BIGINT;
  first BIGINT;
  prev TEXT;
  h TEXT;
  r RECORD;
  sealed BIGINT[] := ARRAY[]::BIGINT[];
BEGIN
  SELECT seq, hash INTO s, prev FROM log_head WHERE id = 1 FOR UPDATE;
  first := s;
  FOR r IN SELECT id, at, kind, actor, data FROM log_pending ORDER BY id LOOP
    s := s + 1;
    h := paydesk_gate_hash(prev, s, r.at, r.kind, r.actor, r.data);
    INSERT INTO log (seq, at, kind, actor, data, prev_hash, hash) VALUES (s, r.at, r.kind, r.actor, r.data, prev, h);
    prev := h;
    sealed := sealed || r.id;
  END LOOP;
  DELETE FROM log_pending WHERE id = ANY(sealed);
  FOR i IN 1 .. coalesce(array_length(p_kinds, 1), 0) LOOP
    s := s + 1;
    h := paydesk_gate_hash(prev, s, p_at, p_kinds[i], p_actors[i], p_datas[i]);
    INSERT INTO log (seq, at, kind, actor, data, prev_hash, hash) VALUES (s, p_at, p_kinds[i], p_actors[i], p_datas[i],
      prev, h);
    prev := h;
  END LOOP;
  IF s > first THEN
    UPDATE log_head SET seq = s, hash = prev WHERE id = 1;
    PERFORM pg_notify('${LOG_CHANNEL}', s::text);
  END IF;
  RETURN s;
END $$;
CREATE OR REPLACE FUNCTION paydesk_gate_seal() RETURNS BIGINT LANGUAGE plpgsql AS $$
BEGIN
  -- Nothing pending: no lock taken, nothing written.
  IF NOT EXISTS (SELECT 1 FROM log_pending) THEN
    RETURN NULL;
  END IF;
  -- The chain of rows committed already: a lost seal (a crash of the server) rolls back with its DELETE and is redone.
  PERFORM set_config('synchronous_commit', 'off', true);
  RETURN paydesk_gate_append(NULL, ARRAY[]::text[], ARRAY[]::text[], ARRAY[]::text[]);
END $$;
`

/** The SQLSTATE paydesk_gate_settle raises when the pre-approval it was to take is taken or expired: all rolls back. */
export const PRE_APPROVAL_GONE = 'PDG01'

/**
 * A webhook's whole settlement (store.ts, settleWebhook) in one statement, committed by itself: one round trip for
 * what took four or more (BEGIN, the claim, the decision, a pre-approval's or a prompt's statement, the log with the
 * COMMIT), each of which, on a loaded machine, waits for a busy replica and a busy database process to be scheduled. The order is the one every writer keeps: the
 * id's claim (a concurrent delivery of it waits here, then finds its row), the decision, the pre-approval, the prompt,
 * then its log entries into log_pending, chained after the commit (paydesk_gate_append). Returns 'seen' with the first
 * delivery's answer, or 'settled' and whether the decision was written (false: the transaction was decided already).
 */
const SETTLE_FUNCTION = `
-- Its result lost a column (the log's last seq, unknown before the chaining): an older definition is replaced.
DROP FUNCTION IF EXISTS paydesk_gate_settle;
CREATE OR REPLACE FUNCTION paydesk_gate_settle(p_at TEXT, p_webhook_id TEXT, p_status INTEGER, p_body TEXT,
  p_received_actor TEXT, p_received_data TEXT,
  p_tx TEXT, p_outcome TEXT, p_decision_actor TEXT, p_reason TEXT, p_decision_data TEXT, p_alt_status INTEGER,
  p_alt_body TEXT, p_pre_id TEXT, p_pre_now TEXT,
  p_prompt_tx TEXT, p_prompt_webhook_id TEXT, p_due_at BIGINT, p_prompt_record TEXT, p_prompt_actor TEXT,
  p_prompt_data TEXT, p_lazy BOOLEAN)
RETURNS TABLE (outcome TEXT, status INTEGER, body TEXT, decided BOOLEAN) LANGUAGE plpgsql AS $$
DECLARE
  kinds TEXT[] := ARRAY['webhook'];
  actors TEXT[] := ARRAY[p_received_actor];
  datas TEXT[] := ARRAY[p_received_data];
BEGIN
  INSERT INTO webhooks (id, received_at, status, body) VALUES (p_webhook_id, p_at, p_status, p_body)
    ON CONFLICT (id) DO NOTHING;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'seen'::text, w.status, w.body, false FROM webhooks w WHERE w.id = p_webhook_id;
    RETURN;
  END IF;
  decided := false;
  IF p_tx IS NOT NULL THEN
    INSERT INTO decisions (transaction_id, webhook_id, outcome, actor, reason, decided_at)
      VALUES (p_tx, p_webhook_id, p_outcome, p_decision_actor, p_reason, p_at) ON CONFLICT (transaction_id) DO NOTHING;
    decided := FOUND;
    IF decided THEN
      DELETE FROM prompts WHERE transaction_id = p_tx;
      kinds := kinds || 'decision'::text;
      actors := actors || p_decision_actor;
      datas := datas || p_decision_data;
      IF p_pre_id IS NOT NULL THEN
        UPDATE pre_approvals SET used_by = p_tx WHERE id = p_pre_id AND used_by IS NULL AND expires_at > p_pre_now;
        IF NOT FOUND THEN
          RAISE EXCEPTION 'the pre-approval % was taken or expired', p_pre_id USING ERRCODE = '${PRE_APPROVAL_GONE}';
        END IF;
      END IF;
    ELSE
      UPDATE webhooks SET status = p_alt_status, body = p_alt_body WHERE id = p_webhook_id;
    END IF;
  END IF;
  IF p_prompt_tx IS NOT NULL THEN
    INSERT INTO prompts (transaction_id, webhook_id, due_at, record)
      VALUES (p_prompt_tx, p_prompt_webhook_id, p_due_at, p_prompt_record);
    kinds := kinds || 'prompt'::text;
    actors := actors || p_prompt_actor;
    datas := datas || p_prompt_data;
  END IF;
  IF p_lazy THEN
    PERFORM set_config('synchronous_commit', 'off', true);
  END IF;
  -- Chained after this commit (paydesk_gate_append): no head lock, no NOTIFY here.
  INSERT INTO log_pending (at, kind, actor, data)
    SELECT p_at, k, a, d FROM unnest(kinds, actors, datas) WITH ORDINALITY AS e(k, a, d, n) ORDER BY n;
  outcome := 'settled';
  RETURN NEXT;
END $$;
`

export const SETTLE_SQL = `SELECT * FROM paydesk_gate_settle(${Array.from({ length: 22 }, (_, i) => `$${i + 1}`).join(', ')})`

export interface SettleRow {
  outcome: 'seen' | 'settled'
  status: number | null
  body: string | null
  decided: boolean
}

/** A decision's log entry data: what was decided and why, with the caller's details. */
export const decisionData = (d: DecisionInput): Record<string, unknown> => ({
  ...d.details,
  transactionId: d.transactionId,
  webhookId: d.webhookId,
  outcome: d.outcome,
  reason: d.reason
})

/** paydesk_gate_settle's arguments, in its order. */
export function settleValues(s: WebhookSettlement, at: string, decisionEntry: LogInput | null): unknown[] {
  const { decision: d, prompt: p } = s
  const json = (v: unknown): string => JSON.stringify(v ?? null)
  return [
    at,
    s.webhookId,
    s.answer.status,
    json(s.answer.body),
    s.received.actor,
    json(s.received.data),
    d?.record.transactionId ?? null,
    d?.record.outcome ?? null,
    d?.record.actor ?? null,
    d?.record.reason ?? null,
    decisionEntry ? json(decisionEntry.data) : null,
    d?.ifAlreadyDecided.status ?? null,
    d ? json(d.ifAlreadyDecided.body) : null,
    d?.preApproval?.id ?? null,
    d?.preApproval?.now ?? null,
    p?.stored.transactionId ?? null,
    p?.stored.webhookId ?? null,
    p?.stored.dueAt ?? null,
    p ? json(p.stored.record) : null,
    p?.entry.actor ?? null,
    p ? json(p.entry.data) : null,
    !d?.preApproval
  ]
}

/**
 * Release 1's schema, as the releases before schema versions ran it at every start. Its DROP of paydesk_gate_settle
 * names no argument types, so it fails once two overloads exist: a later release changes a function's signature under
 * a new name, never by replacing this one (docs/gate.md, Upgrading).
 */
const V1 = `
CREATE TABLE IF NOT EXISTS log (seq BIGINT PRIMARY KEY, at TEXT NOT NULL, kind TEXT NOT NULL, actor TEXT NOT NULL,
  data TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS log_pending (id BIGSERIAL PRIMARY KEY, at TEXT NOT NULL, kind TEXT NOT NULL,
  actor TEXT NOT NULL, data TEXT NOT NULL);
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
${APPEND_FUNCTION}
${SETTLE_FUNCTION}
INSERT INTO log_head (id, seq, hash) VALUES (1, 0, '${GENESIS_HASH}') ON CONFLICT (id) DO NOTHING;`

/**
 * The schema's versions, in order: a database at version n has run the first n, each once (gate_schema_migrations
 * records which). A new release appends one; it never edits one a release has run, since a database that ran it will
 * not run it again.
 */
export const MIGRATIONS: readonly string[] = [V1]
export const SCHEMA_VERSION = MIGRATIONS.length

/**
 * Brings the database to this release's schema version, and does nothing at all when it is there or beyond. Replicas
 * starting together take one advisory lock, so migrations never race (two CREATE TABLE IF NOT EXISTS can fail the
 * second with a duplicate type) and run once; a replica finding its version already in place replaces no function
 * another replica is calling; and an older release's replica (restarted mid-upgrade, or rolled back to) finds a newer
 * version and leaves the newer functions alone, which keep answering its calls (docs/gate.md, Upgrading).
 */
export async function createSchema(pool: Pool): Promise<void> {
  const c = await pool.connect()
  try {
    await c.query('BEGIN')
    await c.query("SELECT pg_advisory_xact_lock(hashtext('paydesk-gate-schema'))")
    await c.query(`CREATE TABLE IF NOT EXISTS gate_schema_migrations (version INTEGER NOT NULL,
      applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`)
    const at = await c.query<{ v: number | null }>('SELECT max(version) AS v FROM gate_schema_migrations')
    // A database set up before versions were recorded ran V1's statements, which run again harmlessly.
    for (let v = (at.rows[0]?.v ?? 0) + 1; v <= SCHEMA_VERSION; v++) {
      await c.query(MIGRATIONS[v - 1] ?? '')
      await c.query('INSERT INTO gate_schema_migrations (version) VALUES ($1)', [v])
    }
    await c.query('COMMIT')
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined)
    throw err
  } finally {
    c.release()
  }
}

export type Q = PoolClient

/**
 * The log entries of one writing transaction, appended at its end with its COMMIT (`commit`). Every writer takes its
 * row locks first and the head last (in paydesk_gate_append), so no two writers wait for each other in a circle, and
 * the head is held only while the database appends and commits: seqs still commit in order across replicas.
 */
export class Appender {
  readonly events: GateEvent[] = []
  private readonly entries: { entry: LogInput; event: GateEvent }[] = []

  /** The entry's event; its seq and time are filled in by `commit`. */
  add(entry: LogInput): GateEvent {
    const event: GateEvent = { seq: 0, at: '', kind: entry.kind, actor: entry.actor, data: entry.data }
    this.entries.push({ entry, event })
    this.events.push(event)
    return event
  }

  /**
   * Appends the entries and commits, in ONE round trip: a simple-protocol query of two statements, whose values are
   * quoted by pg's escapeLiteral (the extended protocol, which takes parameters, allows one statement only). On an
   * error PostgreSQL skips the COMMIT and the caller rolls back.
   */
  async commit(c: Q, at: string): Promise<void> {
    if (this.entries.length === 0) {
      await c.query('COMMIT')
      return
    }
    const list = (f: (e: LogInput) => string): string =>
      `ARRAY[${this.entries.map(({ entry }) => c.escapeLiteral(f(entry))).join(', ')}]::text[]`
    const results = (await c.query(
      `SELECT paydesk_gate_append(${c.escapeLiteral(at)}, ${list((e) => e.kind)}, ${list((e) => e.actor)},
         ${list((e) => JSON.stringify(e.data))}) AS last; COMMIT`
    )) as unknown as { rows: { last: string }[] }[]
    const last = Number(results[0]?.rows[0]?.last)
    const first = last - this.entries.length + 1
    this.entries.forEach(({ event }, i) => {
      event.seq = first + i
      event.at = at
    })
  }
}
