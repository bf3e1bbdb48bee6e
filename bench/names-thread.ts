/**
 * One side of one version in `npm run bench names` (names.ts), in a thread of its own as in the app: the reader thread
 * (read-thread.ts) reads a window and posts it, main parses it and names its ids. Each version's reader and main are
 * threads of their own, so each has its own heap, as main and the reader have in the app: when the versions shared
 * one heap, a scavenge (1.7-3.4 ms there) fell in whichever version's call filled the young generation, and its p99
 * measured the others' garbage (docs/transactions-export.md).
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads'
import { deserialize, serialize } from 'node:v8'
import { tsImport } from 'tsx/esm/api'
import type { Transaction } from '../src/shared/api'
import type { TransactionFilter, TransactionSort } from '../src/shared/ipc/channels/data'
import { LabelMemory } from '../src/main/infra/cache/names'
import { openEncryptedDatabase, type SqliteDatabase } from '../src/main/infra/cache/sqlite'
import { BENCH_CACHE_KEY } from './write-block'

export type ThreadData =
  | { role: 'reader'; file: string; queries: string }
  | { role: 'main'; file: string; names: boolean; reads: number }

/** What the driver asks a version's reader for: one window, or (cold) the naming of one with nothing remembered. */
export interface WindowAsk {
  filter: TransactionFilter
  sort: TransactionSort
  offset: number
  ids: boolean
  cold?: boolean
}

/** What a version's main answers the driver. */
export interface WindowTimes {
  /** The reader's statement plus main's naming. */
  took: number
  /** The same, plus the answer's structured clone (serialized in the reader, read in main) and main's parse. */
  way: number
  ids?: string[]
  /** Naming the window with nothing remembered, p50 of `reads` (cold asks). */
  cold?: number
}

interface Posted {
  ask: WindowAsk
  took: number
  serialized: number
  answer: Uint8Array
}

type Window = { docs: string[] | string }

/** The reader thread's connection (read-thread.ts), or main's own (store.ts): same page cache sizes, read-only. */
function connection(file: string, cacheMb: number): SqliteDatabase {
  const db = openEncryptedDatabase(file, BENCH_CACHE_KEY)
  db.pragma(`cache_size = -${cacheMb * 1024}`)
  db.pragma('query_only = ON')
  return db
}

async function reader(data: Extract<ThreadData, { role: 'reader' }>, main: MessagePort): Promise<void> {
  const { TransactionQueries } = (await tsImport(data.queries, import.meta.url)) as {
    TransactionQueries: new (db: SqliteDatabase) => {
      window(filter: TransactionFilter, sort: TransactionSort, offset: number, limit: number): Window
    }
  }
  const queries = new TransactionQueries(connection(data.file, 32))
  parentPort!.on('message', (ask: WindowAsk) => {
    let t0 = performance.now()
    const window = queries.window(ask.filter, ask.sort, ask.offset, 100)
    const took = performance.now() - t0
    t0 = performance.now()
    const answer = serialize(window)
    const posted: Posted = { ask, took, serialized: performance.now() - t0, answer }
    main.postMessage(posted)
  })
}

/** A window's rows as main parses them: each document (the versions before), or the one array (this tree). */
const rowsOf = (docs: string[] | string): Transaction[] =>
  typeof docs === 'string' ? (JSON.parse(docs) as Transaction[]) : docs.map((d) => JSON.parse(d) as Transaction)

function main(data: Extract<ThreadData, { role: 'main' }>, from: MessagePort): void {
  const labels = data.names ? new LabelMemory(connection(data.file, 8)) : null
  from.on('message', ({ ask, took, serialized, answer }: Posted) => {
    let t0 = performance.now()
    const rows = rowsOf((deserialize(answer) as Window).docs)
    const way = serialized + performance.now() - t0
    t0 = performance.now()
    labels?.ofTransactions(rows)
    const named = performance.now() - t0
    const times: WindowTimes = { took: took + named, way: took + named + way }
    if (ask.ids) times.ids = rows.map((row) => row.id)
    if (ask.cold && labels) times.cold = coldNaming(labels, rows, data.reads)
    parentPort!.postMessage(times)
  })
}

/** What naming a window costs main when it remembers no label (the first window after a write of names), p50. */
function coldNaming(labels: LabelMemory, rows: Transaction[], reads: number): number {
  const took: number[] = []
  for (let i = 0; i < reads; i++) {
    labels.forget()
    const t0 = performance.now()
    labels.ofTransactions(rows)
    took.push(performance.now() - t0)
  }
  return took.sort((a, b) => a - b)[Math.floor(took.length / 2)]!
}

// The driver sends the port between a version's reader and its main as the first message.
parentPort!.once('message', (port: MessagePort) => {
  const data = workerData as ThreadData
  const started = data.role === 'reader' ? reader(data, port) : Promise.resolve(main(data, port))
  void started.then(() => parentPort!.postMessage('ready'))
})
