import { parentPort, workerData } from 'node:worker_threads'
import { openEncryptedDatabase } from './sqlite'
import { answerRequests } from './thread'
import type { WriteRequest, WriterData } from './writer'
import { putDocuments, rebuildText, setMeta, type PutRequest } from './writes'

/**
 * The cache's writer thread (built as out/main/cache-writer.js): it opens the same database as main and runs every
 * write there, one request at a time, in the order they were posted. WAL lets main keep reading while it writes. The
 * key arrives in workerData, in memory only.
 */
const { file, key } = workerData as WriterData
const db = openEncryptedDatabase(file, Buffer.from(key))
const port = parentPort!
// Main writes on its own connection until it hears this: from here on, every write comes to this thread.
port.postMessage({ ready: true })

answerRequests<WriteRequest>(port, (request) => {
  switch (request.op) {
    case 'put':
      return putDocuments(db, JSON.parse(request.put) as PutRequest)
    case 'meta':
      setMeta(db, request.values)
      return []
    case 'rebuildText':
      rebuildText(db)
      return []
    case 'compact':
      db.pragma('wal_checkpoint(TRUNCATE)')
      return []
    case 'close':
      db.close()
      return []
  }
})
