import { parentPort, workerData } from 'node:worker_threads'
import type { ReadReply, ReadRequest, ReaderData } from './reader'
import { openEncryptedDatabase, type SqliteDatabase } from './sqlite'
import { TransactionQueries } from './transaction-queries'

/**
 * The cache's reader thread (built as out/main/cache-reader.js): it opens the same database as main, read-only, and
 * answers the transaction views' queries one at a time. WAL lets it read while the writer thread writes. The key
 * arrives in workerData, in memory only.
 */
const { file, key, cacheKiB } = workerData as ReaderData
const port = parentPort!
let db: SqliteDatabase
try {
  db = openEncryptedDatabase(file, Buffer.from(key))
  db.pragma(`cache_size = -${cacheKiB}`)
  // This connection never writes: a bug that tried would fail here instead of racing the writer thread.
  db.pragma('query_only = ON')
} catch (error) {
  // Main answers the reads waiting for this thread with the reason (SQLite's message: it never carries the key).
  port.postMessage({ failed: (error as { message?: string }).message ?? String(error) } satisfies ReadReply)
  process.exit(1)
}
const queries = new TransactionQueries(db)
// Each answer reads one snapshot: its total and its rows agree even while the writer commits.
const snapshot = <T>(read: () => T): T => db.transaction(read)()

port.on('message', (request: ReadRequest) => {
  let reply: ReadReply
  try {
    switch (request.op) {
      case 'window': {
        const { filter, sort, offset, limit } = request
        reply = { id: request.id, ok: true, value: snapshot(() => queries.window(filter, sort, offset, limit)) }
        break
      }
      case 'page': {
        const { filter, sort, after, limit } = request
        reply = { id: request.id, ok: true, value: snapshot(() => queries.page(filter, sort, after, limit)) }
        break
      }
      case 'count':
        reply = { id: request.id, ok: true, value: snapshot(() => queries.count(request.filter)) }
        break
      case 'close':
        db.close()
        reply = { id: request.id, ok: true, value: null }
        break
    }
  } catch (error) {
    // The message only: SQLite's errors never carry the key, and nothing of the request is echoed.
    const { message, code } = error as { message?: string; code?: string }
    reply = { id: request.id, ok: false, message: message ?? String(error), ...(code !== undefined && { code }) }
  }
  port.postMessage(reply)
  if (request.op === 'close') port.close()
})
