import { IdGenerator } from './ids'
import type {
  CustomerRec,
  ExternalAccountRec,
  IdempotencyEntry,
  InternalAccountRec,
  JournalEntry,
  QuoteRec,
  TransactionRec
} from './model'
import type { Job } from './scheduler'
import type { PlatformSettings } from './platform-config'
import { IndexMap, SortedIndex } from './sorted-index'
import { txKeysOf } from './stored-transaction'

export const STATE_FORMAT = 'paydesk-sandbox-state'
export const STATE_VERSION = 1

export interface PlatformInfo {
  /** Id used as customerId of transactions made on behalf of the platform. */
  id: string
  platformCustomerId: string
  umaDomain: string
}

/** The JSON document persisted in the data file. */
export interface PersistedState {
  format: typeof STATE_FORMAT
  version: typeof STATE_VERSION
  savedAt: string
  seq: number
  platform: PlatformInfo
  customers: CustomerRec[]
  externalAccounts: ExternalAccountRec[]
  internalAccounts: InternalAccountRec[]
  transactions: TransactionRec[]
  quotes: QuoteRec[]
  journal: JournalEntry[]
  idempotency: IdempotencyEntry[]
  jobs: Job[]
  /** How many synthetic transactions `--generate-transactions` added (once per data file). */
  generatedTransactions?: number
  /** The platform's configuration and webhook signing key (absent in states saved before webhooks). */
  settings?: PlatformSettings
}

/** What the webhooks follow (webhooks/events.ts): told after the change, before the operation returns. */
export interface StoreEvents {
  transactionAdded(rec: TransactionRec): void
  transactionStatusChanged(rec: TransactionRec): void
  balanceChanged(account: InternalAccountRec): void
}

/**
 * All sandbox data, with the indexes the lists need. Mutations that change an indexed field go through the methods
 * here so that indexes never disagree with the records.
 */
export class Store {
  readonly customers = new Map<string, CustomerRec>()
  readonly customerIndex = new SortedIndex<CustomerRec>()
  readonly customerByUma = new Map<string, string>()

  readonly externalAccounts = new Map<string, ExternalAccountRec>()
  readonly externalIndex = new SortedIndex<ExternalAccountRec>()
  readonly externalByCustomer = new IndexMap<ExternalAccountRec>()

  readonly internalAccounts = new Map<string, InternalAccountRec>()
  readonly internalIndex = new SortedIndex<InternalAccountRec>()

  readonly transactions = new Map<string, TransactionRec>()
  readonly txAll = new SortedIndex<TransactionRec>()
  readonly txByCustomer = new IndexMap<TransactionRec>()
  readonly txByPlatformCustomer = new IndexMap<TransactionRec>()
  readonly txByStatus = new IndexMap<TransactionRec>()
  readonly txByType = new IndexMap<TransactionRec>()
  /** `${type}|${status}`: the common "outgoing and failed" kind of filter without a scan. */
  readonly txByTypeStatus = new IndexMap<TransactionRec>()
  /** Bumped on every change to the set of transactions or an indexed field (invalidates cached counts). */
  txVersion = 0
  /** Ids of transactions added or changed since the last save: the state file writes only these. */
  readonly dirtyTx = new Set<string>()
  /** On only when a state file saves this store, so a memory-only sandbox does not collect ids forever. */
  trackChanges = false
  readonly txBySender = new IndexMap<TransactionRec>()
  readonly txByReceiver = new IndexMap<TransactionRec>()
  readonly txByReference = new IndexMap<TransactionRec>()

  readonly quotes = new Map<string, QuoteRec>()
  readonly journal: JournalEntry[] = []
  readonly idempotency = new Map<string, IdempotencyEntry>()

  readonly ids: IdGenerator
  platform: PlatformInfo
  /** Set once a synthetic history was generated (see generate.ts), so a restart does not add it again. */
  generatedTransactions: number | undefined
  /** Set by the server at start (a fresh state, or one saved before webhooks, gets a new key pair). */
  settings: PlatformSettings | undefined
  events: StoreEvents | undefined

  constructor(seq: number, platform: PlatformInfo) {
    this.ids = new IdGenerator(seq)
    this.platform = platform
  }

  static fromPersisted(s: PersistedState): Store {
    const store = new Store(s.seq, s.platform)
    for (const c of s.customers) store.customers.set(c.id, c)
    store.customerIndex.load(s.customers)
    for (const c of s.customers) store.customerByUma.set(c.data.umaAddress, c.id)
    for (const a of s.externalAccounts) {
      store.externalAccounts.set(a.id, a)
      store.externalByCustomer.add(a.data.customerId, a)
    }
    store.externalIndex.load(s.externalAccounts)
    for (const a of s.internalAccounts) store.internalAccounts.set(a.id, a)
    store.internalIndex.load(s.internalAccounts)
    store.loadTransactions(s.transactions)
    for (const q of s.quotes) store.quotes.set(q.id, q)
    store.journal.push(...s.journal)
    for (const e of s.idempotency) store.idempotency.set(e.key, e)
    store.generatedTransactions = s.generatedTransactions
    store.settings = s.settings
    return store
  }

  addCustomer(rec: CustomerRec): void {
    this.customers.set(rec.id, rec)
    this.customerIndex.insert(rec)
    this.customerByUma.set(rec.data.umaAddress, rec.id)
  }

  setCustomerUma(rec: CustomerRec, uma: string): void {
    this.customerByUma.delete(rec.data.umaAddress)
    rec.data.umaAddress = uma
    this.customerByUma.set(uma, rec.id)
  }

  addExternalAccount(rec: ExternalAccountRec): void {
    this.externalAccounts.set(rec.id, rec)
    this.externalIndex.insert(rec)
    this.externalByCustomer.add(rec.data.customerId, rec)
  }

  removeExternalAccount(rec: ExternalAccountRec): void {
    this.externalAccounts.delete(rec.id)
    this.externalIndex.remove(rec)
    this.externalByCustomer.remove(rec.data.customerId, rec)
  }

  addInternalAccount(rec: InternalAccountRec): void {
    this.internalAccounts.set(rec.id, rec)
    this.internalIndex.insert(rec)
  }

  addTransaction(rec: TransactionRec): void {
    this.transactions.set(rec.id, rec)
    this.txAll.insert(rec)
    this.indexTx(rec, (m, k, r) => m.add(k, r))
    this.txVersion++
    this.markTxDirty(rec.id)
    this.events?.transactionAdded(rec)
  }

  /** Change a transaction's status, keeping the status index right. */
  setTxStatus(rec: TransactionRec, status: string): void {
    if (rec.data.status === status) return
    this.txByStatus.remove(rec.data.status, rec)
    this.txByTypeStatus.remove(`${rec.data.type}|${rec.data.status}`, rec)
    rec.data.status = status
    this.txByStatus.add(status, rec)
    this.txByTypeStatus.add(`${rec.data.type}|${status}`, rec)
    this.txVersion++
    this.markTxDirty(rec.id)
    this.events?.transactionStatusChanged(rec)
  }

  markTxDirty(id: string): void {
    if (this.trackChanges) this.dirtyTx.add(id)
  }

  /** Bulk load (state file, benchmark): one sort per index instead of n insertions. */
  loadTransactions(recs: TransactionRec[]): void {
    for (const r of recs) this.transactions.set(r.id, r)
    const all = [...this.txAll.items, ...recs]
    this.txAll.load(all)
    for (const m of [
      this.txByCustomer,
      this.txByPlatformCustomer,
      this.txByStatus,
      this.txByType,
      this.txByTypeStatus,
      this.txBySender,
      this.txByReceiver,
      this.txByReference
    ])
      m.clear()
    // txAll is sorted, so appending in order keeps every per-key index sorted (insert takes its fast path).
    for (const r of this.txAll.items) this.indexTx(r, (m, k, rec) => m.add(k, rec))
    this.txVersion++
  }

  private indexTx(
    rec: TransactionRec,
    op: (m: IndexMap<TransactionRec>, key: string | undefined, r: TransactionRec) => void
  ): void {
    // The keys, not the document: a transaction loaded from the state file is indexed without being parsed.
    const keys = txKeysOf(rec)
    op(this.txByCustomer, keys.customerId, rec)
    op(this.txByPlatformCustomer, keys.platformCustomerId, rec)
    op(this.txByStatus, keys.status, rec)
    op(this.txByType, keys.type, rec)
    op(this.txByTypeStatus, `${keys.type}|${keys.status}`, rec)
    op(this.txBySender, keys.sender, rec)
    op(this.txByReceiver, keys.receiver, rec)
    op(this.txByReference, keys.reference, rec)
  }
}
