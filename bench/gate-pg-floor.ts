/**
 * The PostgreSQL floor of `npm run bench -- gate-pg`, a child process like the gates: bench/gate-bare.ts's receiver
 * (verify X-Grid-Signature, answer 200 or 401) plus what a durable gate on PostgreSQL cannot skip, one INSERT of the
 * verified webhook (id, time, body) committed by itself per webhook, on a pg pool sized as the gate's
 * (PgGateStore: 10 connections), on the same cluster, committed as the gate commits a rule's settlement
 * (synchronous_commit off for that transaction: the WAL writer, not the commit, waits for the disk). Nothing parsed,
 * decided or chained: the gate's figure against this one is what the gate adds beyond its one write. Prints
 * `listening <port>` once ready. BENCH_PUBLIC_KEY (PEM), BENCH_FLOOR_PG_URL (postgres://…).
 */
import pg from 'pg'
import { serveBaseline } from './receiver'

const url = process.env['BENCH_FLOOR_PG_URL']
if (!url) throw new Error('BENCH_FLOOR_PG_URL is required')

const pool = new pg.Pool({ connectionString: url, max: 10 })
await pool.query(
  'CREATE TABLE IF NOT EXISTS floor_webhooks (id TEXT PRIMARY KEY, received_at TEXT NOT NULL, body TEXT NOT NULL)'
)
// One statement, one round trip, its own transaction: set_config(…, true) applies to that implicit transaction only.
const INSERT = `INSERT INTO floor_webhooks (id, received_at, body)
  SELECT $1, $2, $3 FROM (SELECT set_config('synchronous_commit', 'off', true)) AS lazy`
let n = 0

serveBaseline(
  (body, answer) =>
    void pool.query(INSERT, [`floor-${process.pid}-${n++}`, new Date().toISOString(), body.toString('utf8')]).then(
      () => answer(200),
      () => answer(500)
    ),
  () => pool.end()
)
