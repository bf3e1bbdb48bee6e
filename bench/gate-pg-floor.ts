/**
 * The PostgreSQL floor of `npm run bench -- gate-pg`, a child process like the gates: bench/gate-bare.ts's receiver
 * (verify X-Grid-Signature, answer 200 or 401) plus what a durable gate on PostgreSQL cannot skip, one INSERT of the
 * verified webhook (id, time, body) committed by itself per webhook, on a pg pool sized as the gate's
 * (PgGateStore: 10 connections), on the same cluster, committed as the gate commits a rule's settlement
 * (synchronous_commit off for that transaction: the WAL writer, not the commit, waits for the disk). Nothing parsed,
 * decided or chained: the gate's figure against this one is what the gate adds beyond its one write. Prints
 * `listening <port>` once ready. BENCH_PUBLIC_KEY (PEM), BENCH_FLOOR_PG_URL (postgres://…).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import pg from 'pg'
import { publicKeyFrom, signatureValid } from '../src/gate/domain/signature'

const key = publicKeyFrom(process.env['BENCH_PUBLIC_KEY'] ?? '')
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

const server = createServer((req, res) => {
  // HAProxy's health check (GET /healthz), as the gate answers it.
  if (req.method === 'GET') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    const header = req.headers['x-grid-signature']
    const body = Buffer.concat(chunks)
    const ok = signatureValid(key, body, typeof header === 'string' ? header : undefined)
    const answer = (status: number): void =>
      void res.writeHead(status, { 'content-type': 'application/json' }).end('{}')
    if (!ok) return answer(401)
    pool.query(INSERT, [`floor-${process.pid}-${n++}`, new Date().toISOString(), body.toString('utf8')]).then(
      () => answer(200),
      () => answer(500)
    )
  })
})
server.keepAliveTimeout = 30_000
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`)
})
process.once('SIGTERM', () => {
  server.close(() => void pool.end().then(() => process.exit(0)))
  server.closeAllConnections()
})
