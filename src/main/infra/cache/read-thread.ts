import { parentPort, workerData } from 'node:worker_threads'
import { readHomeRows } from './home-figures'
import { READ_GATE, type ReadReply, type ReadRequest, type ReaderData } from './reader'
import { openEncryptedDatabase, type SqliteDatabase } from './sqlite'
import { answerRequests } from './thread'
import { TransactionQueries } from './transaction-queries'
import { transactionTotals } from './transaction-totals'

/**
 * The cache's reader thread (built as out/main/cache-reader.js): it opens the same database as main, read-only, and
 * answers the transaction views' queries one at a time. WAL lets it read while the writer thread writes. The key
 * arrives in workerData, in memory only.
 */
const { file, key, cacheKiB, testReadGate } = workerData as ReaderData
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
// Main answers the first window of the whole list itself until it hears this (store.ts): the thread takes a while to
// start on a loaded machine, and that window is a few index pages at any size.
port.postMessage({ ready: true } satisfies ReadReply)
// Each answer reads one snapshot: its total and its rows agree even while the writer commits.
const snapshot = <T>(read: () => T): T => db.transaction(read)()

/** Tests only (ReaderData.testReadGate): tells the test a request arrived, then blocks while its gate is closed. */
function waitAtGate(gate: Int32Array): void {
  Atomics.add(gate, READ_GATE.arrived, 1)
  Atomics.notify(gate, READ_GATE.arrived)
  while (Atomics.load(gate, READ_GATE.closed) === 1) Atomics.wait(gate, READ_GATE.closed, 1)
}

answerRequests<ReadRequest>(port, (request) => {
  if (testReadGate) waitAtGate(testReadGate)
  switch (request.op) {
    case 'window':
      return snapshot(() => queries.window(request.filter, request.sort, request.offset, request.limit))
    case 'page':
      return snapshot(() => queries.page(request.filter, request.sort, request.after, request.limit))
    case 'count':
      return snapshot(() => queries.count(request.filter))
    case 'home':
      return snapshot(() => readHomeRows(db, request))
    case 'totals':
      return snapshot(() => transactionTotals(db, request.filter))
    case 'close':
      db.close()
      return null
  }
})
