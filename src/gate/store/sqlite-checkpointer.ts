/**
 * Moves SQLite's WAL checkpoints off the gate's event loop. By default SQLite checkpoints inside the commit that takes
 * the WAL past 1,000 pages: better-sqlite3 is synchronous, so that commit, on the event loop, copied the pages and
 * fsynced the database file, and every webhook queued behind it waited (8 to 30 ms every ~140 webhooks on the
 * project's VM: docs/gate.md, "Measured"). Here the store's connection never checkpoints (wal_autocheckpoint = 0) and a
 * worker thread with its own connection does (sqlite-checkpoint-thread.ts). Should that thread fail or stop, the
 * store's connection checkpoints again as before, so the WAL stays bounded either way.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { SqliteDatabase } from './sqlite-open'

export interface CheckpointThreadData {
  file: string
  nativeBinding?: string
  /** How often the thread copies the WAL into the database. */
  intervalMs: number
  /** WAL frames (pages) above which it starts the WAL over with a RESTART, holding writers for that one copy. */
  restartAbovePages: number
}

export type CheckpointRequest = { type: 'checkpoint'; id: number } | { type: 'close' }
export type CheckpointReply =
  | { type: 'checkpointed'; id: number; log: number; checkpointed: number }
  | { type: 'failed'; id?: number; message: string }

/** SQLite's own default: what the store's connection goes back to without the thread. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000
/** A few hundred pages per copy at 200 webhooks/s (3 to 7 pages each). */
const INTERVAL_MS = 200
/** 16,384 pages of 4 KB: a WAL of 64 MB at most, reached when commits kept landing during every copy. */
const RESTART_ABOVE_PAGES = 16_384

/** The built thread beside the built gate (out/main, or out/main/chunks for code in a chunk), else its source via tsx. */
function startThread(workerData: CheckpointThreadData): Worker {
  for (const dir of [import.meta.dirname, path.dirname(import.meta.dirname)]) {
    const file = path.join(dir, 'gate-checkpoint.js')
    if (existsSync(file)) return new Worker(file, { workerData })
  }
  const entry = path.join(import.meta.dirname, 'sqlite-checkpoint-thread.ts')
  // A worker does not inherit its parent's loader: from source (tsx, vitest) it loads the entry through tsx's API.
  const boot = `require(require.resolve('tsx/esm/api', { paths: [${JSON.stringify(import.meta.dirname)}] }))
    .tsImport(${JSON.stringify(entry)}, ${JSON.stringify(pathToFileURL(entry).href)})`
  return new Worker(boot, { eval: true, workerData })
}

interface CheckpointerOptions {
  file: string
  nativeBinding?: string
  /** Told once if the thread fails or stops by itself (the store then checkpoints in its commits again). */
  log?: (message: string) => void
  intervalMs?: number
  restartAbovePages?: number
}

export class SqliteCheckpointer {
  private readonly worker: Worker
  private readonly waiting = new Map<number, (r: CheckpointReply) => void>()
  private nextId = 1
  private closing = false
  private readonly stopped: Promise<void>

  /** Hands `db`'s checkpoints to a new thread (on the same file). */
  constructor(
    private readonly db: SqliteDatabase,
    o: CheckpointerOptions
  ) {
    db.pragma('wal_autocheckpoint = 0')
    this.worker = startThread({
      file: o.file,
      ...(o.nativeBinding !== undefined && { nativeBinding: o.nativeBinding }),
      intervalMs: o.intervalMs ?? INTERVAL_MS,
      restartAbovePages: o.restartAbovePages ?? RESTART_ABOVE_PAGES
    })
    // The gate's server keeps the process alive; this thread alone never does.
    this.worker.unref()
    const fallBack = (why: string): void => {
      if (this.closing) return
      this.closing = true
      if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`)
      o.log?.(`SQLite checkpoint thread stopped (${why}): checkpoints run in the gate's commits again`)
      void this.worker.terminate()
    }
    this.worker.on('message', (r: CheckpointReply) => {
      if (r.id !== undefined) {
        this.waiting.get(r.id)?.(r)
        this.waiting.delete(r.id)
      }
      if (r.type === 'failed') fallBack(r.message)
    })
    this.worker.on('error', (err) => fallBack(err.message))
    this.stopped = new Promise((resolve) =>
      this.worker.once('exit', (code) => {
        fallBack(`exit ${code}`)
        for (const w of this.waiting.values()) w({ type: 'failed', message: 'the checkpoint thread stopped' })
        this.waiting.clear()
        resolve()
      })
    )
  }

  /** One pass of the thread now (its timer's own), answered with the WAL's frames and how many are in the database. */
  checkpoint(): Promise<CheckpointReply> {
    if (this.closing) return Promise.resolve({ type: 'failed', message: 'the checkpoint thread is stopped' })
    const id = this.nextId++
    return new Promise((resolve) => {
      this.waiting.set(id, resolve)
      this.worker.postMessage({ type: 'checkpoint', id } satisfies CheckpointRequest)
    })
  }

  /** Resolves once the thread has closed its connection and ended; call before closing the store's connection. */
  async close(): Promise<void> {
    if (!this.closing) {
      this.closing = true
      this.worker.postMessage({ type: 'close' } satisfies CheckpointRequest)
    }
    await this.stopped
  }

  /** Resolves when the thread has ended, whether closed or failed (tests hold on this). */
  ended(): Promise<void> {
    return this.stopped
  }
}
