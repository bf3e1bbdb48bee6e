import { chmodSync, closeSync, openSync } from 'node:fs'
import Database from 'better-sqlite3-multiple-ciphers'

export type SqliteDatabase = Database.Database

export interface OpenSqliteOptions {
  /** Path of a `better_sqlite3.node` built for the host's ABI (Electron); default: the one next to the package. */
  nativeBinding?: string
}

/**
 * The SQLite binding to load when the caller names none (undefined: the one next to the package). Under plain Node,
 * PAYDESK_SQLITE_BINDING may name one built for that Node's ABI (npm test's Node 22 pass, scripts/test-all.sh); inside
 * Electron it is ignored, so the environment cannot make the app load a foreign addon.
 */
export function defaultNativeBinding(): string | undefined {
  if (process.versions['electron']) return undefined
  return process.env['PAYDESK_SQLITE_BINDING'] || undefined
}

/**
 * The one place the sandbox opens SQLite. Its data is demo data, so the file is plain (no cipher key); WAL keeps a
 * save of a few rows from rewriting anything else.
 */
export function openSqlite(file: string, options: OpenSqliteOptions = {}): SqliteDatabase {
  // Owner-only, like everything in Paydesk's data folder: created before SQLite opens it, so -wal and -shm follow.
  if (file !== ':memory:') {
    closeSync(openSync(file, 'a', 0o600))
    chmodSync(file, 0o600)
  }
  const db = new Database(file, { nativeBinding: options.nativeBinding ?? defaultNativeBinding() })
  try {
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    return db
  } catch (err) {
    db.close()
    throw err
  }
}
