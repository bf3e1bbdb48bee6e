import type { Transaction } from '../../../../shared/api'
import type { ChannelInput } from '../../../../shared/ipc/contract'
import { rowNames } from '../../data/row-names'
import { holdsTransactionNeedle, transactionSearchNeedle } from '../../../../shared/transaction-search'

type Query = Omit<ChannelInput<'transactions.query'>, 'offset' | 'limit'>

/**
 * The transactions a longer search answers, taken from the whole answer of a shorter one (`rows`, in its order), or
 * null when that is not exact. Exact when both queries search (main answered `from` through its text index, as it will
 * `to`), `to`'s needle holds `from`'s (so every row of `to` is a row of `from`), every other filter and the sort are
 * the same, and main's rule for the needle is `holdsTransactionNeedle` (four characters or more), which reads a row's
 * customer name from the names its answer came with.
 */
export function narrowTransactions(from: Query, to: Query, rows: Transaction[]): Transaction[] | null {
  const wider = transactionSearchNeedle(from.filter?.search)
  const needle = transactionSearchNeedle(to.filter?.search)
  if (!wider || !needle.includes(wider) || needle === wider) return null
  const same = (q: Query) => JSON.stringify({ ...q, filter: { ...q.filter, search: undefined } })
  if (same(from) !== same(to)) return null
  const kept: Transaction[] = []
  for (const row of rows) {
    const customerId = (row as { customerId?: unknown }).customerId
    const names = rowNames(row)
    const holds = holdsTransactionNeedle(row, needle, typeof customerId === 'string' ? names?.[customerId] : undefined)
    if (holds === null) return null
    if (holds) kept.push(row)
  }
  return kept
}
