import Database from 'better-sqlite3-multiple-ciphers'

export type SqliteDatabase = Database.Database

/**
 * The SQLite binding to load when the caller names none (undefined: the one next to the package). Under plain Node,
 * PAYDESK_SQLITE_BINDING may name one built for that Node's ABI (npm test's Node 22 pass, scripts/test-all.sh); inside
 * Electron it is ignored, so the environment cannot make the app load a foreign addon.
 */
function defaultNativeBinding(): string | undefined {
  if (process.versions['electron']) return undefined
  return process.env['PAYDESK_SQLITE_BINDING'] || undefined
}

/**
 * The one place Paydesk opens a SQLite database (lint allows the binding here only). The file is encrypted page by
 * page with AES-256 in SQLCipher's scheme under a raw 32-byte key from the OS keychain: no passphrase, nothing in a
 * file. `nativeBinding` lets a host load the addon built for another ABI (Electron).
 */
export function openEncryptedDatabase(
  file: string,
  key: Buffer,
  options: { nativeBinding?: string } = {}
): SqliteDatabase {
  if (key.length !== 32) throw new Error('the cache key must be 32 bytes')
  const db = new Database(file, { nativeBinding: options.nativeBinding ?? defaultNativeBinding() })
  try {
    db.pragma(`cipher='sqlcipher'`)
    db.pragma('legacy=4')
    db.pragma(`key="x'${key.toString('hex')}'"`)
    // A wrong key, a damaged first page or a file that is not ours fails here, on the first read.
    db.prepare('SELECT count(*) FROM sqlite_master').get()
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

/** Statements kept per connection, the most recently used last. */
const KEPT_STATEMENTS = 128
const statements = new WeakMap<SqliteDatabase, Map<string, Database.Statement>>()

/**
 * A statement of this connection, compiled once and kept (the least recently used of KEPT_STATEMENTS goes first). A
 * list's window runs four or five statements, and compiling them each time cost about 40 µs of a 0.3 ms window at
 * 100,000 rows. The caller sets its mode (`.raw()`, `.pluck()`) on every use: a kept statement keeps the last one set.
 * Never for a statement that is iterated: a connection's statement cannot run again while an iteration is open.
 */
export function statementOf(db: SqliteDatabase, sql: string): Database.Statement {
  let kept = statements.get(db)
  if (!kept) statements.set(db, (kept = new Map()))
  let statement = kept.get(sql)
  if (statement) kept.delete(sql)
  else statement = db.prepare(sql)
  kept.set(sql, statement)
  if (kept.size > KEPT_STATEMENTS) kept.delete(kept.keys().next().value!)
  return statement
}
