import type { Worker } from 'node:worker_threads'
import type { TransactionFilter, TransactionSort } from '../../../shared/ipc/channels/data'
import type { CurrencyTotal } from '../../../shared/ipc/channels/workbench'
import type { HomeRequest, HomeRows } from './home-figures'
import { settleAnswer, startCacheThread, type ThreadAnswer } from './thread'

/**
 * Main's handle on the cache's reader thread (read-thread.ts), which answers the transaction views' queries on a
 * connection of its own, so main's event loop never runs them: at a million rows a dense search, a first deep window
 * or a first count of a customer takes from 0.1 to several seconds. Requests queue in the thread until it has opened
 * the database. A thread that stops (a crash, an error while opening) answers every pending request with an error
 * and is started again by the next one; after repeated failed starts, `available` says so and the store reads on
 * main's own connection instead, slower but never stuck.
 */

export interface ReaderData {
  file: string
  key: Uint8Array
  cacheKiB: number
  /**
   * Tests only (the store never passes it): a gate on shared memory that the thread waits at before answering each
   * request, so a test holds a read in flight (a thread stopping mid-read) instead of racing the read's answer.
   * Slot READ_GATE.closed is 1 while reads are held; slot READ_GATE.arrived counts the requests that reached it.
   */
  testReadGate?: Int32Array
}

/** The slots of `ReaderData.testReadGate`. */
export const READ_GATE = { closed: 0, arrived: 1 } as const

type Requests = {
  window: { filter: TransactionFilter; sort: TransactionSort; offset: number; limit: number }
  page: { filter: TransactionFilter; sort: TransactionSort; after: unknown[] | null; limit: number }
  count: { filter: TransactionFilter }
  totals: { filter: TransactionFilter }
  home: HomeRequest
  close: Record<never, never>
}
export type ReadRequest = { id: number } & { [K in keyof Requests]: { op: K } & Requests[K] }[keyof Requests]

export type ReadReply =
  | ThreadAnswer<unknown>
  /** The thread has the database open: from here on it answers at once. */
  | { ready: true }
  /** The thread could not open the database, and ends. */
  | { failed: string }

export interface ReadAnswers {
  /** `docs`: the text of one JSON array of the documents, in order (transaction-queries.ts windowRows). */
  window: { docs: string; total: number }
  page: { docs: string; last: unknown[] | null }
  count: number
  totals: CurrencyTotal[]
  home: HomeRows
}

/** Failed starts in a row (no answer in between) after which the thread is not started again. */
const MAX_FAILED_STARTS = 3

export class CacheReader {
  private worker: Worker | undefined
  private nextId = 1
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (e: Error) => void }>()
  private failedStarts = 0
  private answered = false
  private closed = false
  /** True while a thread is up with the database open (false while one starts, and after it stopped). */
  ready = false

  constructor(private readonly data: ReaderData) {}

  /** False once the thread failed to start repeatedly: the caller reads on its own connection. */
  get available(): boolean {
    return !this.closed && this.failedStarts < MAX_FAILED_STARTS
  }

  read<K extends keyof ReadAnswers>(op: K, request: Requests[K]): Promise<ReadAnswers[K]> {
    if (this.closed) return Promise.reject(new Error('the cache is closed'))
    const worker = this.start()
    if (!worker) return Promise.reject(new Error('the cache reader could not start'))
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      // A thread with questions in flight keeps the process alive; an idle one does not.
      worker.ref()
      worker.postMessage({ ...request, op, id } as ReadRequest)
    })
  }

  /** Starts the thread (ahead of the first read, so it opens the database meanwhile). */
  start(): Worker | undefined {
    if (this.worker) return this.worker
    if (!this.available) return undefined
    // A copy of the key, structured-cloned into the thread's memory; it is never written anywhere.
    const worker = startCacheThread('cache-reader.js', 'read-thread.ts', {
      ...this.data,
      key: new Uint8Array(this.data.key)
    } satisfies ReaderData)
    let failure: Error | undefined
    worker.on('message', (reply: ReadReply) => {
      if ('failed' in reply) {
        failure = new Error(`the cache reader could not open the cache: ${reply.failed}`)
        return
      }
      if ('ready' in reply) {
        this.ready = true
        return
      }
      this.answered = true
      this.failedStarts = 0
      const waiter = this.pending.get(reply.id)
      this.pending.delete(reply.id)
      if (this.pending.size === 0) worker.unref()
      settleAnswer(waiter, reply)
    })
    worker.on('error', (error) => {
      failure ??= new Error(`the cache reader stopped: ${(error as Error | undefined)?.message ?? String(error)}`)
    })
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined
      this.ready = false
      // A thread that never answered anything failed to start; one that had answered crashed, and starts again.
      if (!this.answered && !this.closed) this.failedStarts += 1
      this.answered = false
      const error = failure ?? new Error(this.closed ? 'the cache is closed' : 'the cache reader stopped')
      for (const waiter of this.pending.values()) waiter.reject(error)
      this.pending.clear()
    })
    worker.unref()
    this.worker = worker
    return worker
  }

  /** Ends the thread; reads still pending are answered with an error (the connection only reads: nothing is lost). */
  async close(): Promise<void> {
    this.closed = true
    const worker = this.worker
    if (worker) await worker.terminate()
  }
}
