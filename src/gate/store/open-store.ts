/**
 * Opens the store the configuration chose: PostgreSQL when a database URL is set (replicas behind a balancer), else
 * the SQLite file (one gate, nothing to set up).
 */
import type { StoreChoice } from '../config'
import { PgGateStore } from './pg-store'
import { SqliteGateStore } from './sqlite-store'
import type { GateStore } from './store'

export async function openStore(
  choice: StoreChoice,
  now: () => number = Date.now,
  log?: (message: string) => void,
  /** The gate's server: SQLite's WAL checkpoints run in a thread of their own, off the event loop. */
  serving = false
): Promise<GateStore> {
  if (choice.kind === 'postgres') return PgGateStore.open({ url: choice.url, now, ...(log && { log }) })
  return new SqliteGateStore({ file: choice.file, now, checkpointThread: serving, ...(log && { log }) })
}
