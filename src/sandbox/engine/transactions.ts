/** Reading transactions: one by id, and the filtered, paged list served from the narrowest index that applies. */
import { transactionDateRange, type TransactionListQuery } from '../../shared/api/transaction'
import type { TransactionObj, TransactionRec } from '../state/model'
import { paginate, type Page } from '../state/paging'
import type { SortedIndex } from '../state/sorted-index'
import type { Store } from '../state/sandbox-store'
import { txKeyOf } from '../state/stored-transaction'
import type { EngineCore } from './core'

/**
 * One filter of the list: the index holding exactly its matches, and the same filter as a test (on the keys, so a
 * transaction loaded from the state file is not parsed to be left out).
 */
interface Candidate {
  index: SortedIndex<TransactionRec> | undefined
  test: (r: TransactionRec) => boolean
  /** The index holds more than the matches, so the test still runs on the rows it gives. */
  wide?: true
}

function candidates(s: Store, q: TransactionListQuery): Candidate[] {
  const out: Candidate[] = []
  if (q.customerId !== undefined)
    out.push({ index: s.txByCustomer.get(q.customerId), test: (r) => txKeyOf(r, 'customerId') === q.customerId })
  if (q.platformCustomerId !== undefined)
    out.push({
      index: s.txByPlatformCustomer.get(q.platformCustomerId),
      test: (r) => txKeyOf(r, 'platformCustomerId') === q.platformCustomerId
    })
  if (q.status !== undefined && q.type !== undefined) {
    out.push({
      index: s.txByTypeStatus.get(`${q.type}|${q.status}`),
      test: (r) => txKeyOf(r, 'status') === q.status && txKeyOf(r, 'type') === q.type
    })
  } else if (q.status !== undefined) {
    out.push({ index: s.txByStatus.get(q.status), test: (r) => txKeyOf(r, 'status') === q.status })
  } else if (q.type !== undefined) {
    out.push({ index: s.txByType.get(q.type), test: (r) => txKeyOf(r, 'type') === q.type })
  }
  if (q.senderAccountIdentifier !== undefined)
    out.push({
      index: s.txBySender.get(q.senderAccountIdentifier),
      test: (r) => txKeyOf(r, 'sender') === q.senderAccountIdentifier
    })
  const either = q.accountIdentifier
  if (either !== undefined) {
    // Sender or receiver: no one index holds both, so the whole list is read unless neither index knows the account.
    const known = s.txBySender.get(either) !== undefined || s.txByReceiver.get(either) !== undefined
    out.push({
      index: known ? s.txAll : undefined,
      test: (r) => txKeyOf(r, 'sender') === either || txKeyOf(r, 'receiver') === either,
      wide: true
    })
  }
  if (q.receiverAccountIdentifier !== undefined)
    out.push({
      index: s.txByReceiver.get(q.receiverAccountIdentifier),
      test: (r) => txKeyOf(r, 'receiver') === q.receiverAccountIdentifier
    })
  if (q.reference !== undefined)
    out.push({ index: s.txByReference.get(q.reference), test: (r) => txKeyOf(r, 'reference') === q.reference })
  return out
}

export function transactionOperations(core: EngineCore) {
  const txCountCache = new Map<string, { version: number; count: number }>()

  return {
    getTransaction(id: string): TransactionObj {
      return core.transaction(id).data
    },

    listTransactions(q: TransactionListQuery): Page<TransactionRec> {
      const s = core.store
      const cands = candidates(s, q)
      // The smallest index answers; a filter with no index at all matches nothing.
      let index: SortedIndex<TransactionRec> | undefined = s.txAll
      let chosen: Candidate | undefined
      for (const c of cands) {
        if (!c.index) {
          index = undefined
          chosen = c
          break
        }
        if (!chosen || c.index.size < (chosen.index?.size ?? Infinity)) {
          chosen = c
          index = c.index
        }
      }
      const rest = cands.filter((c) => c !== chosen || c.wide).map((c) => c.test)
      const { fromMs, toMs } = transactionDateRange(q)
      const filterKey = JSON.stringify([
        q.customerId,
        q.platformCustomerId,
        q.accountIdentifier,
        q.status,
        q.type,
        q.senderAccountIdentifier,
        q.receiverAccountIdentifier,
        q.reference,
        fromMs,
        toMs
      ])
      return paginate(index, {
        limit: q.limit,
        cursor: q.cursor,
        order: q.sortOrder,
        from: Number.isFinite(fromMs) ? fromMs : undefined,
        to: Number.isFinite(toMs) ? toMs : undefined,
        predicate: rest.length === 0 ? undefined : (r) => rest.every((f) => f(r)),
        countCache: { map: txCountCache, key: filterKey, version: s.txVersion }
      })
    },

    /** Sum of journal entries per account; equals every balance when the ledger is right (tests, admin view). */
    ledgerTotals(): Map<string, number> {
      const totals = new Map<string, number>()
      for (const e of core.store.journal) totals.set(e.accountId, (totals.get(e.accountId) ?? 0) + e.delta)
      return totals
    }
  }
}
