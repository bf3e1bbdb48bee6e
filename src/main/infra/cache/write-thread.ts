import { parentPort, workerData } from 'node:worker_threads'
import { openEncryptedDatabase } from './sqlite'
import { answerRequests } from './thread'
import type { WriteRequest, WriterData } from './writer'
import { MergeSchedule, ReadMarks } from './merge-schedule'
import { finishSchema, mergeText, putDocuments, rebuildText, setMeta, textSegments, type PutRequest } from './writes'

/**
 * The cache's writer thread (built as out/main/cache-writer.js): it opens the same database as main and runs every
 * write there, one request at a time, in the order they were posted. WAL lets main keep reading while it writes. The
 * key arrives in workerData, in memory only.
 */
const { file, key, reads } = workerData as WriterData
const db = openEncryptedDatabase(file, Buffer.from(key))
const port = parentPort!
// Main writes on its own connection until it hears this: from here on, every write comes to this thread.
port.postMessage({ ready: true })

/** Pages written per merge step: tens of ms each at a million rows, so a write that arrives waits little. */
const MERGE_STEP_PAGES = 128
/** Segments above which an index found at start is merged (a long first sync that ended with the app leaves ~16). */
const MERGE_ABOVE_SEGMENTS = 4
/** Merges the text index's segments a step at a time, each its own transaction, between requests (merge-schedule.ts). */
const merge = new MergeSchedule(() => {
  try {
    return mergeText(db, MERGE_STEP_PAGES)
  } catch {
    // A step that failed rolled back whole: the index stays as it was, searches stay exact, only slower.
    return false
  }
}, new ReadMarks(reads))
// Not in the first moments either: the window's first screen is being read then, and the session is still starting.
// The first reads come within them and hold it on.
merge.hold()

answerRequests<WriteRequest>(port, (request) => {
  switch (request.op) {
    case 'put':
      return putDocuments(db, JSON.parse(request.put) as PutRequest)
    case 'meta':
      setMeta(db, request.values)
      return []
    case 'mergeText':
      // Main asks once it writes through this thread only: a step before then could meet its own write (SQLITE_BUSY).
      if (textSegments(db) > MERGE_ABOVE_SEGMENTS) merge.start()
      return []
    case 'rebuildText':
      rebuildText(db)
      // A rebuild writes a segment per batch of rows: merged in the background, searches read one.
      merge.start()
      return []
    case 'finishSchema':
      finishSchema(db)
      return []
    case 'compact':
      db.pragma('wal_checkpoint(TRUNCATE)')
      return []
    case 'close':
      merge.close()
      db.close()
      return []
  }
})
