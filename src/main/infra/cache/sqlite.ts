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
