/**
 * `npm run bench names`: what the transactions list's windows cost with names (issue 31: no worse than before them),
 * measured against earlier versions of the list's queries on one cache under the same load. Each version has a reader
 * thread and a main thread of its own (names-thread.ts), as the app has, so each pays for its own garbage only; they
 * read window after window of core's QUERIES, one call at a time, and each round goes through the versions in a
 * rotating order, so load that comes and goes hits each alike (runs minutes apart varied 2-3x on our shared machine). This
 * tree's time includes what main adds to a window for its names (naming the parsed documents' ids from the labels it
 * remembers, names.ts LabelMemory, on a connection of its own as main has). Prints each window's p50 and p99 per
 * version with the load, the geometric mean of their ratios to the first version, the same for the whole way to main's
 * answer (the window's structured clone, as the reader thread's postMessage makes it, and main's parse of its
 * documents: each version sends and parses its own shape), and what naming a window costs main when it remembers no
 * label (after a write of customers or accounts).
 *
 * By default the versions are before (c0ef738, the list's queries before names, extracted from this repository's
 * history with `git archive`), before' (the same again: the method's noise) and now. PAYDESK_BENCH_NAMES_VERSIONS=
 * before=<checkout>,ae6943b=<checkout> names others instead, each a checkout of Paydesk (a git worktree) whose
 * transaction-queries.ts is read (src/main/infra/cache, or src/main/services/cache before f36f514 moved it); without
 * git's history, "now" twice. PAYDESK_BENCH_NAMES_SIZES (default 100000,1000000), PAYDESK_BENCH_NAMES_READS (reads
 * per window and version, default 200: the p99 is then the second slowest), PAYDESK_BENCH_NAMES_DIR keeps the filled
 * caches (the bench key; synthetic rows) and reuses them, as they are or from an older schema (upgraded here first).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { MessageChannel, Worker } from 'node:worker_threads'
import { migrate } from '../src/main/infra/cache/schema'
import { openEncryptedDatabase } from '../src/main/infra/cache/sqlite'
import { finishSchema, putDocuments, rebuildText } from '../src/main/infra/cache/writes'
import { QUERIES } from './core'
import { transactionBatches } from './core-data'
import type { ThreadData, WindowAsk, WindowTimes } from './names-thread'
import { BENCH_CACHE_KEY } from './write-block'

/** A version: its reader thread, asked for windows, and its main thread, which answers with their times. */
interface Version {
  name: string
  ask: (ask: WindowAsk) => Promise<WindowTimes>
  names: boolean
  close: () => Promise<void>
}

const env = (name: string) => process.env[`PAYDESK_BENCH_NAMES_${name}`]
const READS = Math.max(1, Number(env('READS') ?? 200))
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')

/** names-thread.ts in a thread, through tsx's API: a worker does not inherit its parent's loader. */
function thread(data: ThreadData): Worker {
  const entry = path.join(import.meta.dirname, 'names-thread.ts')
  const boot = `require(require.resolve('tsx/esm/api', { paths: [${JSON.stringify(import.meta.dirname)}] }))
    .tsImport(${JSON.stringify(entry)}, ${JSON.stringify(pathToFileURL(entry).href)})`
  return new Worker(boot, { eval: true, workerData: data })
}

async function versionOf(name: string, file: string, queries: string, names: boolean): Promise<Version> {
  const reader = thread({ role: 'reader', file, queries })
  const main = thread({ role: 'main', file, names, reads: READS })
  const { port1, port2 } = new MessageChannel()
  const ready = (worker: Worker) =>
    new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject))
  const started = Promise.all([ready(reader), ready(main)])
  reader.postMessage(port1, [port1])
  main.postMessage(port2, [port2])
  await started
  // One window at a time is asked; a thread that fails fails it (and the bench), rather than leaving it unanswered.
  let pending: { resolve: (times: WindowTimes) => void; reject: (error: unknown) => void } | null = null
  main.on('message', (times: WindowTimes) => pending?.resolve(times))
  for (const worker of [reader, main]) worker.on('error', (error) => pending?.reject(new Error(`${name}: ${error}`)))
  return {
    name,
    names,
    ask: (ask) =>
      new Promise<WindowTimes>((resolve, reject) => {
        pending = { resolve, reject }
        reader.postMessage(ask)
      }),
    close: async () => {
      await Promise.all([reader.terminate(), main.terminate()])
    }
  }
}

/** The last commit before names (issue 31): its list is what "no worse than before" compares with. */
const BEFORE_NAMES = 'c0ef738'

/** `src` of this repository at `commit`, extracted into `dir`; null where there is no such history (not a clone). */
function sourcesAt(commit: string, dir: string): string | null {
  const archive = spawnSync('git', ['archive', '--format=tar', commit, 'src'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    maxBuffer: 1 << 30
  })
  if (archive.status !== 0) return null
  return spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout }).status === 0 ? dir : null
}

/**
 * The checkouts compared with this tree, as name=checkout: PAYDESK_BENCH_NAMES_VERSIONS's, else BEFORE_NAMES twice
 * (extracted once into `scratch`), else none.
 */
async function checkoutsCompared(scratch: string): Promise<string[]> {
  const named = (env('VERSIONS') ?? '').split(',').filter(Boolean)
  if (named.length > 0) return named
  const before = sourcesAt(BEFORE_NAMES, await mkdtemp(path.join(scratch, 'before-')))
  if (before) return [`before=${before}`, `before'=${before}`]
  console.log(`no git history with ${BEFORE_NAMES}: now against itself, which shows the method's noise only`)
  return []
}

/**
 * The versions compared: each checkout's transaction-queries.ts (src/main/infra/cache, or src/main/services/cache
 * before f36f514 moved it), then this tree's, whose main names the rows; this tree twice when no checkout is compared.
 */
async function versionsOf(file: string, checkouts: string[]): Promise<Version[]> {
  const own = path.resolve(import.meta.dirname, '../src/main/infra/cache/transaction-queries.ts')
  if (checkouts.length === 0) return [await versionOf('now', file, own, true), await versionOf("now'", file, own, true)]
  const versions: Version[] = []
  for (const entry of checkouts) {
    const [name, checkout] = entry.split('=') as [string, string]
    const moved = path.resolve(checkout, 'src/main/infra/cache/transaction-queries.ts')
    const queries = existsSync(moved) ? moved : path.resolve(checkout, 'src/main/services/cache/transaction-queries.ts')
    versions.push(await versionOf(name, file, queries, false))
  }
  return [...versions, await versionOf('now', file, own, true)]
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

const ms = (t0: number) => (performance.now() - t0).toFixed(0)

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}
const geomean = (values: number[]) => Math.exp(values.reduce((s, v) => s + Math.log(v), 0) / values.length)

/** The searches for a customer's name (core.ts QUERIES): a version before names finds fewer rows for them. */
const BY_NAME = /jane|priya/

async function interleaved(n: number, file: string, checkouts: string[]): Promise<void> {
  const versions = await versionsOf(file, checkouts)
  console.log(
    `\n### ${n.toLocaleString('en-US')} rows: ${versions.map((v) => v.name).join(' / ')}, ${READS} reads per window each; load ${load()}`
  )
  // times[query][version]: each window's first read is left out (it reads pages the others then find cached). `ways`:
  // the same plus the answer's way to main (structured clone, as postMessage does) and main's parse of its documents.
  const times = QUERIES.map(() => versions.map(() => [] as number[]))
  const ways = QUERIES.map(() => versions.map(() => [] as number[]))
  for (let round = 0; round <= READS; round++)
    for (const [qi, q] of QUERIES.entries()) {
      // Each version's rows, by id.
      const docs: string[][] = []
      for (let k = 0; k < versions.length; k++) {
        const vi = (round + qi + k) % versions.length
        const { took, way, ids } = await versions[vi]!.ask({ ...q, ids: round === 0 })
        if (round > 0) {
          times[qi]![vi]!.push(took)
          ways[qi]![vi]!.push(way)
        }
        docs[vi] = ids ?? []
      }
      // The same rows from every version, or the comparison means nothing (a search for a name finds more now).
      if (
        round === 0 &&
        !BY_NAME.test(q.filter.search ?? '') &&
        docs.some((ids) => JSON.stringify(ids) !== JSON.stringify(docs[0]))
      )
        throw new Error(`${q.name}: the versions read different rows`)
    }
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
    `${'the same, with the answer’s way to main and main’s parse'.padEnd(63)} ${means(ways, 50)} | ${means(ways, 99)}`
  )
  // Naming a window with nothing remembered: what main spends on the first window after a write of names.
  const named = versions.find((v) => v.names)
  if (named) {
    const cold: number[] = []
    for (const q of QUERIES) cold.push((await named.ask({ ...q, ids: false, cold: true })).cold!)
    console.log(
      `${named.name} naming a window with no label remembered, p50 ms: median ${percentile(cold, 50).toFixed(3)}, max ${Math.max(...cold).toFixed(3)}`
    )
  }
  await Promise.all(versions.map((v) => v.close()))
  console.log(`load after: ${load()}`)
}

export async function runNamesBench(): Promise<void> {
  const sizes = (env('SIZES') ?? '100000,1000000').split(',').map(Number)
  const kept = env('DIR')
  const scratch = await mkdtemp(path.join(tmpdir(), 'paydesk-bench-names-'))
  try {
    const checkouts = await checkoutsCompared(scratch)
    for (const n of sizes) await interleaved(n, await cacheOf(n, kept ?? scratch), checkouts)
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runNamesBench()
