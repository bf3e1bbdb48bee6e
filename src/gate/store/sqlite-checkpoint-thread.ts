/**
 * The gate's SQLite checkpointer (a worker thread, built as out/main/gate-checkpoint.js; sqlite-checkpointer.ts starts
 * it). It holds a connection of its own to the gate's file and copies the WAL back into the database there, so the
 * copy and its two fsyncs never run inside a commit on the gate's event loop (docs/gate.md, "Durability (SQLite)").
 * Commits are durable in the WAL before any checkpoint: moving them into the database file changes nothing a crash
 * keeps or loses.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { openGateDatabase } from './sqlite-open'
import type { CheckpointReply, CheckpointRequest, CheckpointThreadData } from './sqlite-checkpointer'

const data = workerData as CheckpointThreadData
const port = parentPort!
const db = openGateDatabase(data.file, data.nativeBinding)
// A RESTART waits for the commit in flight (well under a millisecond), not for a long reader: it holds the writers'
// lock while it waits, so it gives up instead (busy) and the next pass tries again.
db.pragma('busy_timeout = 50')

interface WalState {
  /** Frames in the WAL, and how many of them are in the database file now. */
  log: number
  checkpointed: number
}

function checkpoint(mode: 'PASSIVE' | 'RESTART'): WalState {
  const [row] = db.pragma(`wal_checkpoint(${mode})`) as { busy: number; log: number; checkpointed: number }[]
  return { log: row?.log ?? 0, checkpointed: row?.checkpointed ?? 0 }
}

/**
 * PASSIVE never takes the writer's lock, so the gate's commits go on meanwhile. The WAL starts over from its beginning
 * only when a commit begins with every frame already copied; commits that landed during a copy (its two fsyncs take
 * milliseconds) are taken by up to CATCH_UP quick passes, so that moment comes when the gate is not too busy. Under
 * steady load it may not: when the WAL passes the cap, a RESTART holds the writers for one copy (of what the last
 * pass left: a few pages, and the fsyncs) and starts the WAL over, keeping the file's size for the next round. That
 * is the only time this thread makes a commit wait: once per cap's worth of pages (64 MB, ~30 s at 200 webhooks/s).
 */
const CATCH_UP = 3
function step(): WalState {
  let state = checkpoint('PASSIVE')
  for (let i = 0; i < CATCH_UP && state.checkpointed < state.log; i++) state = checkpoint('PASSIVE')
  if (state.log >= data.restartAbovePages) state = checkpoint('RESTART')
  return state
}

let timer: NodeJS.Timeout | undefined
function tick(): void {
  try {
    step()
  } catch (err) {
    // Told to main, which hands checkpoints back to SQLite's own (in its commits) and ends this thread.
    const reply: CheckpointReply = { type: 'failed', message: err instanceof Error ? err.message : String(err) }
    port.postMessage(reply)
    return
  }
  timer = setTimeout(tick, data.intervalMs)
}
timer = setTimeout(tick, data.intervalMs)

port.on('message', (m: CheckpointRequest) => {
  if (m.type === 'close') {
    clearTimeout(timer)
    db.close()
    port.close()
    return
  }
  let reply: CheckpointReply
  try {
    reply = { type: 'checkpointed', id: m.id, ...step() }
  } catch (err) {
    reply = { type: 'failed', id: m.id, message: err instanceof Error ? err.message : String(err) }
  }
  port.postMessage(reply)
})
