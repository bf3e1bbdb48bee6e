/**
 * `npm run bench names`: what the transactions list's windows cost with names (issue 31: no worse than before them),
 * measured against earlier versions of the list's queries on one cache under the same load. Each version reads through
 * its own connection, window after window of core's QUERIES, and each round goes through the versions in a rotating
 * order, so load that comes and goes hits each alike (runs minutes apart varied 2-3x on our shared machine). This
 * tree's time includes what main adds to a window for its names (naming the parsed documents' ids from the labels it
 * remembers, names.ts LabelMemory, on a connection of its own as main has). Prints each window's p50 and p99 per
 * version with the load, the geometric mean of their ratios to the first version, the same for the whole way to main's
 * answer (the window's structured clone, as the reader thread's postMessage makes it, and main's parse of its
 * documents: each version sends and parses its own shape), and what naming a window costs main when it remembers no
 * label (after a write of customers or accounts).
 *
 * PAYDESK_BENCH_NAMES_VERSIONS=before=<checkout>,ae6943b=<checkout> names the versions compared with this tree ("now"),
 * each a checkout of Paydesk (a git worktree) whose transaction-queries.ts is read (src/main/infra/cache, or
 * src/main/services/cache before f36f514 moved it); "now" twice
 * (now, now') when none is named, which shows the method's noise. PAYDESK_BENCH_NAMES_SIZES (default 100000),
 * PAYDESK_BENCH_NAMES_READS (reads per window and version, default 30), PAYDESK_BENCH_NAMES_DIR keeps the filled
 * caches (the bench key; synthetic rows) and reuses them, as they are or from an older schema (upgraded here first).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { deserialize, serialize } from 'node:v8'
import path from 'node:path'
import { existsSync } from 'node:fs'
import { LabelMemory } from '../src/main/infra/cache/names'
import { migrate } from '../src/main/infra/cache/schema'
import { openEncryptedDatabase, type SqliteDatabase } from '../src/main/infra/cache/sqlite'
import { TransactionQueries } from '../src/main/infra/cache/transaction-queries'
import { finishSchema, putDocuments, rebuildText } from '../src/main/infra/cache/writes'
import type { Transaction } from '../src/shared/api'
import type { TransactionFilter, TransactionSort } from '../src/shared/ipc/channels/data'
import { QUERIES } from './core'
import { transactionBatches } from './core-data'
import { BENCH_CACHE_KEY } from './write-block'

/** A window's documents: one string each (the versions before), or the text of one JSON array (this tree). */
type Window = (
  filter: TransactionFilter,
  sort: TransactionSort,
  offset: number,
  limit: number
) => { docs: string[] | string }
interface Version {
  name: string
  window: Window
  /** What main does with the window's answer besides parsing its documents (parsed in every version, untimed: see rowsOf). */
  onMain?: (rows: Transaction[]) => void
  labels?: LabelMemory
}

const env = (name: string) => process.env[`PAYDESK_BENCH_NAMES_${name}`]
const READS = Math.max(1, Number(env('READS') ?? 30))
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')

/** The reader thread's connection (read-thread.ts): same page cache, read-only. */
function readerConnection(file: string): SqliteDatabase {
  const db = openEncryptedDatabase(file, BENCH_CACHE_KEY)
  db.pragma(`cache_size = -${32 * 1024}`)
  db.pragma('query_only = ON')
  return db
}

async function versionsOf(file: string): Promise<Version[]> {
  const now = (name: string): Version => {
    const queries = new TransactionQueries(readerConnection(file))
    // Main names the ids of the documents it parses from its own connection (store.ts), as the labels it remembers.
    const labels = new LabelMemory(mainConnection(file))
    return { name, window: (...args) => queries.window(...args), onMain: (rows) => labels.ofTransactions(rows), labels }
  }
  const named = (env('VERSIONS') ?? '').split(',').filter(Boolean)
  if (named.length === 0) return [now('now'), now("now'")]
  const others = await Promise.all(
    named.map(async (entry) => {
      const [name, checkout] = entry.split('=') as [string, string]
      const moved = path.resolve(checkout, 'src/main/infra/cache/transaction-queries.ts')
      const module = existsSync(moved)
        ? moved
        : path.resolve(checkout, 'src/main/services/cache/transaction-queries.ts')
      const { TransactionQueries: Queries } = (await import(module)) as {
        TransactionQueries: typeof TransactionQueries
      }
      const queries = new Queries(readerConnection(file))
      return { name, window: ((...args) => queries.window(...args)) as Window }
    })
  )
  return [...others, now('now')]
}

/** Main's own connection (store.ts): it reads documents by id, metadata and labels. */
function mainConnection(file: string): SqliteDatabase {
  const db = openEncryptedDatabase(file, BENCH_CACHE_KEY)
  db.pragma(`cache_size = -${8 * 1024}`)
  db.pragma('query_only = ON')
  return db
}

/** A cache of `n` rows, with the bench's customers and accounts named: kept in PAYDESK_BENCH_NAMES_DIR when set. */
async function cacheOf(n: number, dir: string): Promise<string> {
  const file = path.join(dir, `cache-${n}.db`)
  const db = openEncryptedDatabase(file, BENCH_CACHE_KEY)
  db.pragma(`cache_size = -${256 * 1024}`)
  try {
    migrate(db)
    let t0 = performance.now()
    // An older cache upgraded: the rows' names are filled as the writer thread would (writes.ts finishSchema).
    finishSchema(db)
    const rows = Number(db.prepare('SELECT count(*) FROM tx').pluck().get())
    if (rows === n) {
      console.log(`cache of ${n.toLocaleString('en-US')} rows reused (${file}); schema finished in ${ms(t0)} ms`)
      return file
    }
    t0 = performance.now()
    putDocuments(db, { c: 'customers', docs: benchCustomers() })
    putDocuments(db, { c: 'internalAccounts', docs: benchInternalAccounts() })
    putDocuments(db, { c: 'externalAccounts', docs: benchExternalAccounts() })
    // As a first sync writes a history: the text index is left behind and rebuilt once at the end.
    for (const batch of transactionBatches(n, 10_000))
      putDocuments(db, { c: 'transactions', docs: batch, meta: { 'tx.textDeferred': true } })
    rebuildText(db)
    db.pragma('wal_checkpoint(TRUNCATE)')
    console.log(`cache of ${n.toLocaleString('en-US')} rows filled in ${ms(t0)} ms`)
    return file
  } finally {
    db.close()
  }
}

const FIRST_NAMES = ['Jane', 'Priya', 'Omar', 'Li', 'Ana', 'Tomás', 'Chidi', 'Sofia', 'Ken', 'Maria']
const LAST_NAMES = ['Smith', 'Raman', 'Haddad', 'Wei', 'Silva', 'Novak', 'Okafor', 'Rossi', 'Sato', 'García']
const usd = { code: 'USD', name: 'USD', symbol: '$', decimals: 2 }
/** The 2,000 customers, 8 internal and 500 external accounts the history names (core.ts transactionBatches). */
const benchCustomers = () =>
  Array.from({ length: 2_000 }, (_, i) => ({
    id: `Customer:${i}`,
    platformCustomerId: `pc-${i}`,
    customerType: 'INDIVIDUAL',
    umaAddress: `$c${i}@bench.example`,
    fullName: `${FIRST_NAMES[(i * 7) % 20 < 1 ? 0 : 1 + (i % 9)]} ${LAST_NAMES[Math.floor(i / 10) % 10]} ${i}`
  }))
const benchInternalAccounts = () =>
  Array.from({ length: 8 }, (_, i) => ({ id: `InternalAccount:${i}`, balance: { amount: 1_000, currency: usd } }))
const benchExternalAccounts = () =>
  Array.from({ length: 500 }, (_, i) => ({
    id: `ExternalAccount:${i}`,
    customerId: `Customer:${i}`,
    currency: 'USD',
    accountInfo: {
      accountType: 'US_ACCOUNT',
      accountNumber: `12345${String(i).padStart(4, '0')}`,
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: `Holder ${i}` }
    }
  }))

/**
 * A window's rows as main parses them: each document, or the one array. Either way it costs about the same (0.34 and
 * 0.35 ms for the default window's at 100,000 rows), so it is left out of every version's time.
 */
const rowsOf = (docs: string[] | string): Transaction[] =>
  typeof docs === 'string' ? (JSON.parse(docs) as Transaction[]) : docs.map((d) => JSON.parse(d) as Transaction)

const ms = (t0: number) => (performance.now() - t0).toFixed(0)

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}
const geomean = (values: number[]) => Math.exp(values.reduce((s, v) => s + Math.log(v), 0) / values.length)

/** The searches for a customer's name (core.ts QUERIES): a version before names finds fewer rows for them. */
const BY_NAME = /jane|priya/

async function interleaved(n: number, file: string): Promise<void> {
  const versions = await versionsOf(file)
  console.log(
    `\n### ${n.toLocaleString('en-US')} rows: ${versions.map((v) => v.name).join(' / ')}, ${READS} reads per window each; load ${load()}`
  )
  // times[query][version]: each window's first read is left out (it reads pages the others then find cached). `path`:
  // the same plus the answer's way to main (structured clone, as postMessage does) and main's parse of its documents.
  const times = QUERIES.map(() => versions.map(() => [] as number[]))
  const path = QUERIES.map(() => versions.map(() => [] as number[]))
  for (let round = 0; round <= READS; round++)
    QUERIES.forEach((q, qi) => {
      // Each version's rows, by id.
      const docs: string[][] = []
      for (let k = 0; k < versions.length; k++) {
        const vi = (round + qi + k) % versions.length
        const { window: read, onMain } = versions[vi]!
        let t0 = performance.now()
        const window = read(q.filter, q.sort, q.offset, 100)
        let took = performance.now() - t0
        t0 = performance.now()
        const rows = rowsOf((deserialize(serialize(window)) as ReturnType<Window>).docs)
        const way = performance.now() - t0
        if (onMain) {
          t0 = performance.now()
          onMain(rows)
          took += performance.now() - t0
        }
        if (round > 0) {
          times[qi]![vi]!.push(took)
          path[qi]![vi]!.push(took + way)
        }
        docs[vi] = rows.map((t) => t.id)
      }
      // The same rows from every version, or the comparison means nothing (a search for a name finds more now).
      if (
        round === 0 &&
        !BY_NAME.test(q.filter.search ?? '') &&
        docs.some((ids) => JSON.stringify(ids) !== JSON.stringify(docs[0]))
      )
        throw new Error(`${q.name}: the versions read different rows`)
    })
  const head = versions.map((v) => v.name.padStart(9)).join(' ')
  console.log(`p50 / p99 ms per window${' '.repeat(40)}${head} | ${head}`)
  const cells = (values: number[]) => values.map((v) => v.toFixed(2).padStart(9)).join(' ')
  QUERIES.forEach((q, qi) => {
    const [p50, p99] = [50, 99].map((p) => times[qi]!.map((t) => percentile(t, p)))
    console.log(`${q.name.slice(0, 62).padEnd(63)} ${cells(p50!)} | ${cells(p99!)}`)
  })
  // A search for a name found fewer rows before names: a new feature, not the same window slower.
  const compared = QUERIES.flatMap((q, qi) => (BY_NAME.test(q.filter.search ?? '') ? [] : [qi]))
  const means = (of: number[][][], p: number) =>
    versions
      .map((_, vi) => geomean(compared.map((qi) => percentile(of[qi]![vi]!, p) / percentile(of[qi]![0]!, p))))
      .map((m) => m.toFixed(2).padStart(9))
      .join(' ')
  console.log(
    `${`geometric mean of ratios to ${versions[0]!.name} (names searches apart)`.padEnd(63)} ${means(times, 50)} | ${means(times, 99)}`
  )
  console.log(
    `${'the same, with the answer’s way to main and main’s parse'.padEnd(63)} ${means(path, 50)} | ${means(path, 99)}`
  )
  // Naming a window with nothing remembered: what main spends on the first window after a write of names.
  const named = versions.find((v) => v.labels)
  if (named?.labels) {
    const cold = QUERIES.map((q) => {
      const rows = rowsOf(named.window(q.filter, q.sort, q.offset, 100).docs)
      const took: number[] = []
      for (let i = 0; i < READS; i++) {
        named.labels!.forget()
        const t0 = performance.now()
        named.onMain!(rows)
        took.push(performance.now() - t0)
      }
      return percentile(took, 50)
    })
    console.log(
      `${named.name} naming a window with no label remembered, p50 ms: median ${percentile(cold, 50).toFixed(3)}, max ${Math.max(...cold).toFixed(3)}`
    )
  }
  console.log(`load after: ${load()}`)
}

export async function runNamesBench(): Promise<void> {
  const sizes = (env('SIZES') ?? '100000').split(',').map(Number)
  const kept = env('DIR')
  const dir = kept ?? (await mkdtemp(path.join(tmpdir(), 'paydesk-bench-names-')))
  try {
    for (const n of sizes) await interleaved(n, await cacheOf(n, dir))
  } finally {
    if (!kept) await rm(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runNamesBench()
