import type { Worker } from 'node:worker_threads'
import { settleAnswer, startCacheThread, type ThreadAnswer } from './thread'
import type { PutRequest } from './writes'
import { ReadMarks } from './merge-schedule'

/**
 * Main's handle on the cache's writer thread (write-thread.ts). Writes are posted in order and answered in order, so
 * a bulk sync into a million-row cache never blocks main's event loop. Until the thread has opened the database (well
 * under a second when built; longer on a loaded machine), `ready` is false and the store writes on main's own
 * connection: those writes are synchronous and finish before the thread takes over, so order is kept, and a write
 * that must land at once (an approval right after start) never waits for a thread to load.
 */

export interface WriterData {
  file: string
  key: Uint8Array
  /** ReadMarks' memory: when the views last read, for the merge to rest. */
  reads: SharedArrayBuffer
}

export type WriteRequest = { id: number } & (
  | { op: 'put'; put: string }
  | { op: 'meta'; values: Record<string, unknown> }
  | { op: 'compact' }
  | { op: 'rebuildText' }
  | { op: 'finishSchema' }
  /** Merge the text index's segments in the background if it has many (write-thread.ts). */
  | { op: 'mergeText' }
  | { op: 'close' }
)

type WriteReply = { ready: true } | ThreadAnswer<string[]>

type Op = WriteRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never

export class CacheWriter {
  private worker: Worker | undefined
  private nextId = 1
  private readonly pending = new Map<number, { resolve: (ids: string[]) => void; reject: (e: Error) => void }>()
  private onReady: Array<() => void> = []
  /** True once the thread has the database open: from then on every write goes there. */
  ready = false
  private failedStarts = 0
  private readonly reads = ReadMarks.create()

  constructor(
    private readonly file: string,
    private readonly key: Buffer
  ) {}

  put(request: PutRequest): Promise<string[]> {
    // As JSON text: posting a string costs main a copy, while a structured clone of 1,000 documents walks every
    // object on main's thread (tens of ms under load; JSON.stringify takes about 2 ms).
    return this.send({ op: 'put', put: JSON.stringify(request) })
  }

  async setMeta(values: Record<string, unknown>): Promise<void> {
    await this.send({ op: 'meta', values })
  }

  async compact(): Promise<void> {
    await this.send({ op: 'compact' })
  }

  async rebuildText(): Promise<void> {
    await this.send({ op: 'rebuildText' })
  }

  async finishSchema(): Promise<void> {
    await this.send({ op: 'finishSchema' })
  }

  /** The views are reading: the thread's background merge rests a moment (merge-schedule.ts). */
  holdMerge(): void {
    this.reads.mark()
  }

  /** Resolves when the thread has taken over the writes. */
  whenReady(): Promise<void> {
    if (this.ready) return Promise.resolve()
    // Someone waits on the thread: it keeps the process alive until it is up.
    this.worker?.ref()
    return new Promise((resolve) => this.onReady.push(resolve))
  }

  /** Finishes every write already posted, closes the thread's connection and ends the thread. */
  async close(): Promise<void> {
    const worker = this.worker
    if (!worker) return
    if (!this.ready) {
      // Still loading: nothing was posted to it, so there is nothing to finish.
      await worker.terminate()
      return
    }
    const exited = new Promise((resolve) => worker.once('exit', resolve))
    await this.send({ op: 'close' }).catch(() => undefined)
    await exited
  }

  private send(op: Op): Promise<string[]> {
    const id = this.nextId++
    const worker = this.worker ?? this.start()
    if (!worker) return Promise.reject(new Error('the cache writer could not start'))
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      worker.ref()
      worker.postMessage({ ...op, id })
    })
  }

  /**
   * Starts the thread ahead of the first write, so a write that must land quickly (an approval) never waits for the
   * thread to load; idle, it does not keep the process alive.
   */
  start(): Worker | undefined {
    if (this.worker) return this.worker
    // A thread that cannot even open the database is not started over and over: main keeps writing itself.
    if (this.failedStarts >= 3) return undefined
    // A copy of the key, structured-cloned into the thread's memory; it is never written anywhere.
    const worker = startCacheThread('cache-writer.js', 'write-thread.ts', {
      file: this.file,
      key: new Uint8Array(this.key),
      reads: this.reads.buffer
    } satisfies WriterData)
    worker.on('message', (reply: WriteReply) => {
      if ('ready' in reply) {
        this.ready = true
        if (this.pending.size === 0) worker.unref()
        for (const resolve of this.onReady.splice(0)) resolve()
        // From here main writes only through the thread, so the thread may write on its own between requests.
        void this.send({ op: 'mergeText' }).catch(() => undefined)
        return
      }
      const waiter = this.pending.get(reply.id)
      this.pending.delete(reply.id)
      // An idle thread does not keep the process alive; one with writes in flight does.
      if (this.pending.size === 0) worker.unref()
      settleAnswer(waiter, reply)
    })
    const fail = (error: Error) => {
      for (const waiter of this.pending.values()) waiter.reject(error)
      this.pending.clear()
    }
    worker.on('error', (error) => fail(new Error(`the cache writer stopped: ${error.message}`)))
    worker.on('exit', () => {
      // A thread that ended (closed, or crashed) is started again by the next write; main writes until it is up.
      if (this.worker === worker) this.worker = undefined
      if (!this.ready) this.failedStarts += 1
      this.ready = false
      fail(new Error('the cache writer stopped'))
    })
    this.worker = worker
    worker.unref()
    return worker
  }
}
