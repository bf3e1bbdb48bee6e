import { randomBytes } from 'node:crypto'
import type { Transaction } from '../../../shared/api'
import type { TransactionFilter, TransactionSort } from '../../../shared/ipc/channels/data'
import { setAside } from '../atomic-file'
import { cacheKeyAccount, type SecretStore } from '../keychain'
import { EncryptedLog, type OpenOutcome } from './encrypted-log'
import { TransactionIndex } from './transaction-index'

/**
 * A profile's offline cache: collections of documents by id, persisted through the encrypted record log, with the
 * transaction indexes kept in memory. Every mutation is one appended frame (atomic, durable before it resolves);
 * unchanged documents are skipped, so a poll that sees nothing new writes nothing.
 */

export const COLLECTIONS = [
  'transactions',
  'customers',
  'externalAccounts',
  'internalAccounts',
  'discoveries',
  'meta'
] as const
export type CollectionName = (typeof COLLECTIONS)[number]

/** One change: put a document (v) or delete it (v = null). */
interface Op {
  c: CollectionName
  k: string
  v: unknown
}

/** Frames written by compaction hold at most this many documents each. */
const SNAPSHOT_CHUNK = 2_000
/** Compaction when appended bytes exceed the live snapshot size (and at least this much). */
const MIN_COMPACT_BYTES = 4 * 1024 * 1024

export interface CacheOpenInfo {
  outcome: OpenOutcome
  setAsideAs?: string
  reason?: string
  documents: number
  ms: number
}

/** The 32-byte cache key of a profile, created on first use and kept in the OS keychain next to its secret. */
export async function cacheKeyFor(secrets: SecretStore, profileId: string): Promise<{ key: Buffer; created: boolean }> {
  const account = cacheKeyAccount(profileId)
  const stored = await secrets.get(account)
  if (stored) {
    const key = Buffer.from(stored, 'base64')
    if (key.length === 32) return { key, created: false }
  }
  const key = randomBytes(32)
  await secrets.set(account, key.toString('base64'))
  return { key, created: true }
}

export class CacheStore {
  private readonly data = new Map<CollectionName, Map<string, unknown>>()
  /** Serialized form of each stored document, to skip writes of unchanged ones. Transactions use status|updatedAt. */
  private readonly fingerprints = new Map<CollectionName, Map<string, string>>()
  readonly transactions = new TransactionIndex(
    (id) => this.data.get('transactions')!.get(id) as Transaction | undefined
  )
  private snapshotBytes = 0
  private compacting: Promise<void> | undefined
  /** An append failed: memory is ahead of disk until the next snapshot. */
  private needsSnapshot = false
  private closed = false

  private constructor(private readonly log: EncryptedLog) {
    for (const c of COLLECTIONS) {
      this.data.set(c, new Map())
      this.fingerprints.set(c, new Map())
    }
  }

  static async open(file: string, key: Buffer): Promise<{ store: CacheStore; info: CacheOpenInfo }> {
    const started = performance.now()
    const opened = await EncryptedLog.open(file, key)
    const store = new CacheStore(opened.log)
    let outcome = opened.outcome
    let reason = opened.reason
    let setAsideAs = opened.setAsideAs
    try {
      for (let i = 0; i < opened.frames.length; i++) {
        store.applyOps(JSON.parse(opened.frames[i]!.toString('utf8')) as Op[])
        opened.frames[i] = Buffer.alloc(0)
        // Let IPC and timers breathe between snapshot frames: a 100,000-row cache must not freeze main for seconds.
        await new Promise<void>((resolve) => setImmediate(resolve))
      }
    } catch {
      // Authenticated but not understood (a format from another version): rebuild rather than guess.
      await opened.log.close()
      const where = await setAside(file, 'corrupt')
      const fresh = await EncryptedLog.open(file, key)
      const rebuilt = new CacheStore(fresh.log)
      outcome = 'set-aside'
      reason = 'unreadable records'
      setAsideAs = where
      rebuilt.snapshotBytes = fresh.log.size
      return {
        store: rebuilt,
        info: { outcome, reason, ...(setAsideAs && { setAsideAs }), documents: 0, ms: performance.now() - started }
      }
    }
    store.transactions.load(store.data.get('transactions')!.values() as Iterable<Transaction>)
    store.snapshotBytes = opened.log.size
    let documents = 0
    for (const m of store.data.values()) documents += m.size
    return {
      store,
      info: {
        outcome,
        ...(reason !== undefined && { reason }),
        ...(setAsideAs !== undefined && { setAsideAs }),
        documents,
        ms: performance.now() - started
      }
    }
  }

  private applyOps(ops: Op[]): void {
    for (const op of ops) {
      const coll = this.data.get(op.c)
      if (!coll) continue
      if (op.v === null) {
        coll.delete(op.k)
        this.fingerprints.get(op.c)!.delete(op.k)
      } else {
        coll.set(op.k, op.v)
        this.fingerprints.get(op.c)!.set(op.k, fingerprint(op.c, op.v))
      }
    }
  }

  get<T>(c: CollectionName, id: string): T | undefined {
    return this.data.get(c)!.get(id) as T | undefined
  }

  all<T>(c: CollectionName): T[] {
    return [...this.data.get(c)!.values()] as T[]
  }

  count(c: CollectionName): number {
    return this.data.get(c)!.size
  }

  meta<T>(key: string): T | undefined {
    return this.get<T>('meta', key)
  }

  /**
   * Puts documents (and deletes `remove` ids) in one durable frame. Returns the ids that actually changed; unchanged
   * documents cost nothing. With `replaceAll`, ids of the collection not in `docs` are deleted (a full listing).
   */
  async put<T extends { id: string }>(
    c: CollectionName,
    docs: T[],
    opts: { remove?: string[]; replaceAll?: boolean; meta?: Record<string, unknown> } = {}
  ): Promise<string[]> {
    if (this.closed) return []
    const ops: Op[] = []
    const changed: string[] = []
    const fps = this.fingerprints.get(c)!
    const seen = new Set<string>()
    for (const doc of docs) {
      seen.add(doc.id)
      const fp = fingerprint(c, doc)
      if (fps.get(doc.id) === fp) continue
      ops.push({ c, k: doc.id, v: doc })
      changed.push(doc.id)
    }
    const removals = new Set(opts.remove ?? [])
    if (opts.replaceAll) for (const id of this.data.get(c)!.keys()) if (!seen.has(id)) removals.add(id)
    for (const id of removals) {
      if (!this.data.get(c)!.has(id)) continue
      ops.push({ c, k: id, v: null })
      changed.push(id)
    }
    for (const [k, v] of Object.entries(opts.meta ?? {})) ops.push({ c: 'meta', k, v })
    if (ops.length === 0) return changed
    await this.commit(ops)
    return changed
  }

  /**
   * Applies ops to memory at once, then appends them as one durable frame. Memory first, so that a compaction queued
   * behind this append (it snapshots memory when its turn comes) always contains them: a snapshot can never drop a
   * frame that was written before it. If the append fails, disk still holds a consistent older state; the store is
   * marked so that the next compaction writes memory out in full.
   */
  private async commit(ops: Op[]): Promise<void> {
    this.applyOps(ops)
    for (const op of ops) {
      if (op.c !== 'transactions') continue
      if (op.v === null) this.transactions.remove(op.k)
      else this.transactions.upsert(op.v as Transaction)
    }
    try {
      await this.log.append(Buffer.from(JSON.stringify(ops), 'utf8'))
    } catch (error) {
      this.needsSnapshot = true
      throw error
    }
    this.maybeCompact()
  }

  async setMeta(values: Record<string, unknown>): Promise<void> {
    if (this.closed) return
    const ops: Op[] = Object.entries(values).map(([k, v]) => ({ c: 'meta' as const, k, v }))
    if (!ops.length) return
    await this.commit(ops)
  }

  queryTransactions(filter: TransactionFilter, sort: TransactionSort, offset: number, limit: number) {
    const ids = this.transactions.query(filter, sort)
    const coll = this.data.get('transactions')!
    const rows = ids.slice(offset, offset + limit).map((id) => coll.get(id) as Transaction)
    return { rows, total: ids.length }
  }

  get fileBytes(): number {
    return this.log.size
  }

  private maybeCompact(): void {
    const appended = this.log.size - this.snapshotBytes
    if (this.compacting) return
    if (!this.needsSnapshot && appended < Math.max(MIN_COMPACT_BYTES, this.snapshotBytes)) return
    this.compacting = this.compact().finally(() => (this.compacting = undefined))
  }

  /**
   * Rewrites the log as a snapshot of the live documents (atomic replace). The snapshot is taken when the rewrite's
   * turn comes in the log's queue, i.e. after every append queued before it, and documents are never mutated in place,
   * so serialising them in chunks (yielding to IPC in between) still writes one consistent state.
   */
  async compact(): Promise<void> {
    await this.log.rewriteWith(async () => {
      const entries: Op[] = []
      for (const c of COLLECTIONS) for (const [k, v] of this.data.get(c)!) entries.push({ c, k, v })
      this.needsSnapshot = false
      const frames: Buffer[] = []
      for (let i = 0; i < entries.length; i += SNAPSHOT_CHUNK) {
        frames.push(Buffer.from(JSON.stringify(entries.slice(i, i + SNAPSHOT_CHUNK)), 'utf8'))
        await new Promise<void>((resolve) => setImmediate(resolve))
      }
      return frames
    })
    this.snapshotBytes = this.log.size
  }

  async close(): Promise<void> {
    this.closed = true
    await this.compacting?.catch(() => {})
    if (this.needsSnapshot) await this.compact().catch(() => {})
    await this.log.close()
  }
}

function fingerprint(c: CollectionName, v: unknown): string {
  if (c === 'transactions') {
    const t = v as { status?: unknown; updatedAt?: unknown; settledAt?: unknown; failureReason?: unknown }
    // Cheap and sufficient: the service bumps updatedAt on every change; status guards servers that do not.
    return `${String(t.status)}|${String(t.updatedAt)}|${String(t.settledAt)}|${String(t.failureReason)}`
  }
  return JSON.stringify(v)
}
