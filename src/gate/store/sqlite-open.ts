import { chmodSync, closeSync, openSync } from 'node:fs'
import Database from 'better-sqlite3-multiple-ciphers'

export type SqliteDatabase = Database.Database

/**
 * The one place the gate opens SQLite. `nativeBinding` names a `better_sqlite3.node` built for another ABI; under
 * plain Node PAYDESK_SQLITE_BINDING may name one (npm test's Node 22 pass). The file is owner-only, created before
 * SQLite opens it so its -wal and -shm follow; receiver information in it is sealed by the domain, not by a cipher.
 */
export function openGateDatabase(file: string, nativeBinding?: string): SqliteDatabase {
  if (file !== ':memory:') {
    closeSync(openSync(file, 'a', 0o600))
    chmodSync(file, 0o600)
  }
  const db = new Database(file, {
    nativeBinding: nativeBinding ?? (process.env['PAYDESK_SQLITE_BINDING'] || undefined)
  })
  try {
    db.pragma('journal_mode = WAL')
    // FULL by default: what a commit records is on disk when it returns. The store relaxes this to NORMAL only for the
    // settlements whose answer the service keeps anyway (sqlite-store.ts, docs/gate.md "Durability").
    db.pragma('synchronous = FULL')
    db.pragma('busy_timeout = 2000')
    return db
  } catch (err) {
    db.close()
    throw err
  }
}
