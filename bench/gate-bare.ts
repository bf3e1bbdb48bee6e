/**
 * The baselines of `npm run bench -- gate`, run as child processes like the gate: a bare receiver (bench/receiver.ts) that
 * only verifies X-Grid-Signature (with the gate's own verifier) and answers 200 or 401. Nothing parsed, stored or decided,
 * so the gate's figure divided by this one is what deciding and storing cost. Prints `listening <port>` once ready.
 *
 * With BENCH_FLOOR_DB (a file path) it is the floor instead: the same receiver plus what a durable gate cannot skip,
 * one SQLite commit per verified webhook (its id and body, one row), on a connection opened as the gate opens its own
 * (sqlite-open.ts: WAL), committed as the gate commits a settlement (synchronous = NORMAL), its WAL checkpoints in the
 * gate's thread (sqlite-checkpointer.ts), or with BENCH_FLOOR_CHECKPOINTS=sqlite in SQLite's own (inside the commit
 * that crosses 1,000 pages, as the gate did before). Nothing parsed or decided: the gate's figure against this one is
 * what the gate adds beyond its one durable write.
 */
import { SqliteCheckpointer } from '../src/gate/store/sqlite-checkpointer'
import { openGateDatabase } from '../src/gate/store/sqlite-open'
import { serveBaseline } from './receiver'

/** One commit per webhook, or nothing for the bare receiver. */
function floorStore(file: string | undefined): { commit(body: Buffer): void; close(): Promise<void> } {
  if (!file) return { commit: () => undefined, close: async () => undefined }
  const db = openGateDatabase(file)
  db.exec('CREATE TABLE IF NOT EXISTS webhooks (id TEXT PRIMARY KEY, received_at TEXT NOT NULL, body BLOB NOT NULL)')
  const checkpoints =
    process.env['BENCH_FLOOR_CHECKPOINTS'] === 'sqlite' ? undefined : new SqliteCheckpointer(db, { file })
  const insert = db.prepare('INSERT INTO webhooks (id, received_at, body) VALUES (?, ?, ?)')
  const normal = db.prepare('PRAGMA synchronous = NORMAL')
  const full = db.prepare('PRAGMA synchronous = FULL')
  let n = 0
  return {
    commit(body) {
      normal.run()
      db.transaction(() => insert.run(`floor-${n++}`, new Date().toISOString(), body)).immediate()
      full.run()
    },
    close: async () => {
      await checkpoints?.close()
      db.close()
    }
  }
}

const store = floorStore(process.env['BENCH_FLOOR_DB'] || undefined)

serveBaseline((body, answer) => {
  store.commit(body)
  answer(200)
}, store.close)
