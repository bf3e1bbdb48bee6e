import { parentPort, workerData } from 'node:worker_threads'
import { openEncryptedDatabase } from './sqlite'
import type { WriteReply, WriteRequest, WriterData } from './writer'
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

port.on('message', (request: WriteRequest) => {
  let reply: WriteReply
  try {
    switch (request.op) {
      case 'put':
        reply = { id: request.id, ok: true, value: putDocuments(db, JSON.parse(request.put) as PutRequest) }
        break
      case 'meta':
        setMeta(db, request.values)
        reply = { id: request.id, ok: true, value: [] }
        break
      case 'rebuildText':
        rebuildText(db)
        reply = { id: request.id, ok: true, value: [] }
        break
      case 'compact':
        db.pragma('wal_checkpoint(TRUNCATE)')
        reply = { id: request.id, ok: true, value: [] }
        break
      case 'close':
        db.close()
        reply = { id: request.id, ok: true, value: [] }
        break
    }
  } catch (error) {
    // The message only: SQLite's errors never carry the key, and nothing else of the request is echoed.
    const { message, code } = error as { message?: string; code?: string }
    reply = { id: request.id, ok: false, message: message ?? String(error), ...(code !== undefined && { code }) }
  }
  port.postMessage(reply)
  if (request.op === 'close') port.close()
})
