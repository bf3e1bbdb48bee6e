import type { Transaction } from '../../../shared/api'
import type { TransactionFilter, TransactionSort } from '../../../shared/ipc/channels/data'

/**
 * In-memory indexes over the cached transactions, so a filtered, sorted window of 100,000 rows is answered without
 * scanning or sorting everything on every scroll:
 * - `order`: every id sorted by (createdAt, id), kept sorted on insert (sync appends in ascending order, so an insert is
 *   usually a push);
 * - one posting set per status, type, customer, currency and account, so a filter starts from its smallest set;
 * - the last few query results (the full list of matching ids, in order) memoised by filter+sort and invalidated by a
 *   version counter, so scrolling through a result costs only the window it shows.
 */

export interface TxKeys {
  createdAt: number
  updatedAt: number
  amount: number
  currency: string
  status: string
  type: string
  customerId: string
  accounts: string[]
}

type Loose = Record<string, unknown> & {
  sentAmount?: { amount: number; currency?: { code?: string } }
  receivedAmount?: { amount: number; currency?: { code?: string } }
  source?: { accountId?: string; umaAddress?: string }
  destination?: { accountId?: string; umaAddress?: string }
  reconciliationInstructions?: { reference?: string }
}

/** What a text search matches: id, description, customer ids, reference, UMA addresses and account ids. */
export function searchTextOf(t: Transaction): string {
  const r = t as Loose
  return [
    t.id,
    r['description'],
    r['customerId'],
    r['platformCustomerId'],
    r.reconciliationInstructions?.reference,
    r.source?.umaAddress,
    r.destination?.umaAddress,
    r.source?.accountId,
    r.destination?.accountId
  ]
    .filter((s): s is string => typeof s === 'string')
    .join('\n')
    .toLowerCase()
}

export function keysOf(t: Transaction): TxKeys {
  const r = t as Record<string, unknown> & {
    sentAmount?: { amount: number; currency?: { code?: string } }
    receivedAmount?: { amount: number; currency?: { code?: string } }
    source?: { accountId?: string; umaAddress?: string }
    destination?: { accountId?: string; umaAddress?: string }
    reconciliationInstructions?: { reference?: string }
  }
  const money = t.type === 'OUTGOING' ? r.sentAmount : (r.receivedAmount ?? r.sentAmount)
  const accounts = [r.source?.accountId, r.destination?.accountId].filter((a): a is string => typeof a === 'string')
  return {
    createdAt: Date.parse(String(r['createdAt'] ?? '')) || 0,
    updatedAt: Date.parse(String(r['updatedAt'] ?? r['createdAt'] ?? '')) || 0,
    amount: typeof money?.amount === 'number' ? money.amount : 0,
    currency: money?.currency?.code ?? '',
    status: String(r['status'] ?? ''),
    type: String(t.type),
    customerId: String(r['customerId'] ?? ''),
    accounts
  }
}

type Postings = Map<string, Set<string>>

function post(map: Postings, key: string, id: string): void {
  let set = map.get(key)
  if (!set) map.set(key, (set = new Set()))
  set.add(id)
}
function unpost(map: Postings, key: string, id: string): void {
  const set = map.get(key)
  if (!set) return
  set.delete(id)
  if (set.size === 0) map.delete(key)
}

const MEMO_SIZE = 8

export class TransactionIndex {
  /** Search text per id, built on the first text search (not at open) and dropped when the document changes. */
  private readonly texts = new Map<string, string>()
  constructor(private readonly doc: (id: string) => Transaction | undefined = () => undefined) {}
  private readonly keys = new Map<string, TxKeys>()
  private order: string[] = []
  private readonly byStatus: Postings = new Map()
  private readonly byType: Postings = new Map()
  private readonly byCustomer: Postings = new Map()
  private readonly byCurrency: Postings = new Map()
  private readonly byAccount: Postings = new Map()
  private version = 0
  private readonly memo = new Map<string, { version: number; ids: string[] }>()

  get size(): number {
    return this.keys.size
  }

  /** Bulk load (cache open): keys computed once, and no sort at all when the log was already in order (usual). */
  load(docs: Iterable<Transaction>): void {
    const ids: string[] = []
    const created: number[] = []
    for (const t of docs) {
      if (this.keys.has(t.id)) continue
      const k = keysOf(t)
      this.postAll(t.id, k)
      ids.push(t.id)
      created.push(k.createdAt)
    }
    let sorted = true
    for (let i = 1; i < ids.length && sorted; i++) {
      const d = created[i]! - created[i - 1]!
      if (d < 0 || (d === 0 && ids[i]! < ids[i - 1]!)) sorted = false
    }
    if (sorted) {
      this.order = ids
    } else {
      const at = ids.map((_, i) => i)
      at.sort((a, b) => created[a]! - created[b]! || (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0))
      this.order = at.map((i) => ids[i]!)
    }
    this.version++
  }

  upsert(t: Transaction): void {
    const next = keysOf(t)
    const prev = this.keys.get(t.id)
    if (prev) {
      this.unpostAll(t.id, prev)
      if (prev.createdAt !== next.createdAt) this.order.splice(this.position(t.id, prev), 1)
    }
    this.postAll(t.id, next)
    if (!prev || prev.createdAt !== next.createdAt) {
      const at = this.insertionPoint(t.id, next.createdAt)
      if (at === this.order.length) this.order.push(t.id)
      else this.order.splice(at, 0, t.id)
    }
    this.version++
  }

  remove(id: string): void {
    const prev = this.keys.get(id)
    if (!prev) return
    this.order.splice(this.position(id, prev), 1)
    this.unpostAll(id, prev)
    this.keys.delete(id)
    this.texts.delete(id)
    this.version++
  }

  clear(): void {
    this.keys.clear()
    this.texts.clear()
    this.order = []
    for (const m of [this.byStatus, this.byType, this.byCustomer, this.byCurrency, this.byAccount]) m.clear()
    this.version++
  }

  /** Ids of every match, in the requested order (memoised until the next change). */
  query(filter: TransactionFilter, sort: TransactionSort): string[] {
    const memoKey = JSON.stringify([filter, sort])
    const hit = this.memo.get(memoKey)
    if (hit && hit.version === this.version) return hit.ids
    const ids = this.compute(filter, sort)
    this.memo.delete(memoKey)
    this.memo.set(memoKey, { version: this.version, ids })
    while (this.memo.size > MEMO_SIZE) this.memo.delete(this.memo.keys().next().value as string)
    return ids
  }

  private compute(filter: TransactionFilter, sort: TransactionSort): string[] {
    const statuses = filter.awaitingApproval ? ['PENDING'] : filter.status
    const type = filter.awaitingApproval ? 'INCOMING' : filter.type
    // Candidate sets from the postings; the smallest one drives the scan.
    const sets: Set<string>[] = []
    if (statuses && statuses.length) {
      const union = new Set<string>()
      for (const s of statuses) for (const id of this.byStatus.get(s) ?? []) union.add(id)
      sets.push(union)
    }
    if (type) sets.push(this.byType.get(type) ?? new Set())
    if (filter.customerId) sets.push(this.byCustomer.get(filter.customerId) ?? new Set())
    if (filter.currency) sets.push(this.byCurrency.get(filter.currency) ?? new Set())
    if (filter.accountId) sets.push(this.byAccount.get(filter.accountId) ?? new Set())
    sets.sort((a, b) => a.size - b.size)
    const from = filter.createdFrom ? Date.parse(filter.createdFrom) : -Infinity
    const to = filter.createdTo ? Date.parse(filter.createdTo) : Infinity
    const needle = filter.search?.toLowerCase()
    const accept = (id: string): boolean => {
      for (let i = 1; i < sets.length; i++) if (!sets[i]!.has(id)) return false
      const k = this.keys.get(id)!
      if (k.createdAt < from || k.createdAt > to) return false
      if (needle && !this.textOf(id).includes(needle)) return false
      return true
    }
    const smallest = sets[0]
    const unfiltered = !smallest && from === -Infinity && to === Infinity && !needle
    if (unfiltered && sort.field === 'createdAt') {
      const ids = this.order.slice()
      return sort.direction === 'desc' ? ids.reverse() : ids
    }
    if (sort.field === 'createdAt') {
      // Walk the presorted order; with a small candidate set, sort just that set instead.
      let ids: string[]
      if (smallest && smallest.size * 16 < this.order.length) {
        ids = [...smallest].filter(accept).sort((a, b) => this.cmpCreated(a, b))
      } else {
        ids = smallest ? this.order.filter((id) => smallest.has(id) && accept(id)) : this.order.filter(accept)
      }
      return sort.direction === 'desc' ? ids.reverse() : ids
    }
    const ids = smallest ? [...smallest].filter(accept) : this.order.filter(accept)
    const dir = sort.direction === 'asc' ? 1 : -1
    const field = sort.field
    ids.sort((a, b) => {
      const ka = this.keys.get(a)!
      const kb = this.keys.get(b)!
      const va = ka[field]
      const vb = kb[field]
      const c = va < vb ? -1 : va > vb ? 1 : this.cmpCreated(a, b)
      return c * dir
    })
    return ids
  }

  private textOf(id: string): string {
    let text = this.texts.get(id)
    if (text === undefined) {
      const t = this.doc(id)
      text = t ? searchTextOf(t) : ''
      this.texts.set(id, text)
    }
    return text
  }

  private cmpCreated(a: string, b: string): number {
    const ka = this.keys.get(a)!.createdAt
    const kb = this.keys.get(b)!.createdAt
    return ka !== kb ? ka - kb : a < b ? -1 : a > b ? 1 : 0
  }

  private insertionPoint(id: string, createdAt: number): number {
    let lo = 0
    let hi = this.order.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const other = this.order[mid]!
      const ko = this.keys.get(other)!.createdAt
      if (ko < createdAt || (ko === createdAt && other < id)) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  private position(id: string, k: TxKeys): number {
    // The order array is sorted by (createdAt, id) using the keys in force when the id was placed.
    let lo = 0
    let hi = this.order.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const other = this.order[mid]!
      const ko = other === id ? k.createdAt : this.keys.get(other)!.createdAt
      if (ko < k.createdAt || (ko === k.createdAt && other < id)) lo = mid + 1
      else hi = mid
    }
    if (this.order[lo] === id) return lo
    const i = this.order.indexOf(id)
    return i
  }

  private postAll(id: string, k: TxKeys): void {
    this.keys.set(id, k)
    this.texts.delete(id)
    post(this.byStatus, k.status, id)
    post(this.byType, k.type, id)
    if (k.customerId) post(this.byCustomer, k.customerId, id)
    if (k.currency) post(this.byCurrency, k.currency, id)
    for (const a of k.accounts) post(this.byAccount, a, id)
  }

  private unpostAll(id: string, k: TxKeys): void {
    unpost(this.byStatus, k.status, id)
    unpost(this.byType, k.type, id)
    if (k.customerId) unpost(this.byCustomer, k.customerId, id)
    if (k.currency) unpost(this.byCurrency, k.currency, id)
    for (const a of k.accounts) unpost(this.byAccount, a, id)
  }
}
