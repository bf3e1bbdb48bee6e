import type { Transaction } from '../../../shared/api'
import type { TransactionFilter, TransactionSort } from '../../../shared/ipc/channels/data'
import { amountInMinorUnits, CURRENCIES_NOT_OF_2_DECIMALS } from '../../../shared/amount-search'
import { transactionSearchText } from '../../../shared/transaction-search'
import { candidatesOf, textSearchOf, type TextPlan, type TextSearch } from './text-search'

/**
 * How a transaction is kept in the cache database: the document as JSON, plus the columns every filter and sort of
 * the views reads from an index, and the text a search matches (full-text indexed, trigram, so any substring of three
 * characters or more is found through the index).
 */
export interface TransactionRow {
  id: string
  created_at: number
  updated_at: number
  amount: number
  currency: string
  status: string
  type: string
  customer_id: string
  platform_customer_id: string
  source_account: string | null
  destination_account: string | null
  reference: string | null
  search: string
  fp: string
  doc: string
}

type Loose = Record<string, unknown> & {
  sentAmount?: { amount?: unknown; currency?: { code?: string } }
  receivedAmount?: { amount?: unknown; currency?: { code?: string } }
  source?: { accountId?: string; umaAddress?: string }
  destination?: { accountId?: string; umaAddress?: string }
  reconciliationInstructions?: { reference?: string }
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null)

/** The customer a transaction's row names (its customer_id column). */
const customerOf = (t: Transaction) => String((t as { customerId?: unknown }).customerId ?? '')

/** What a text search matches (one definition with the renderer's, in src/shared). */
const searchTextOf = transactionSearchText

/**
 * Cheap and sufficient to skip unchanged writes: the service bumps updatedAt on every change; status guards servers
 * that do not.
 */
function transactionFingerprint(t: Transaction): string {
  const r = t as Loose
  return `${String(r['status'])}|${String(r['updatedAt'])}|${String(r['settledAt'])}|${String(r['failureReason'])}`
}

export function rowOf(t: Transaction): TransactionRow {
  const r = t as Loose
  // The amount a list shows: received for incoming, sent for outgoing.
  const money = t.type === 'OUTGOING' ? r.sentAmount : (r.receivedAmount ?? r.sentAmount)
  const created = Date.parse(String(r['createdAt'] ?? '')) || 0
  return {
    id: t.id,
    created_at: created,
    updated_at: Date.parse(String(r['updatedAt'] ?? r['createdAt'] ?? '')) || 0,
    amount: typeof money?.amount === 'number' && Number.isSafeInteger(money.amount) ? money.amount : 0,
    currency: money?.currency?.code ?? '',
    status: String(r['status'] ?? ''),
    type: String(t.type),
    customer_id: customerOf(t),
    platform_customer_id: String(r['platformCustomerId'] ?? ''),
    source_account: str(r.source?.accountId),
    destination_account: str(r.destination?.accountId),
    reference: str(r.reconciliationInstructions?.reference),
    search: searchTextOf(t),
    fp: transactionFingerprint(t),
    doc: JSON.stringify(t)
  }
}

const SORT_COLUMN: Record<TransactionSort['field'], string> = {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  amount: 'amount',
  status: 'status'
}

/**
 * A WHERE clause and its parameters for a filter; every condition reads an indexed column or the text index. `plan`
 * says how a text search's candidates are met (see text-search.ts).
 */
export function whereOf(
  filter: TransactionFilter,
  plan: TextPlan = 'drive',
  walk?: TransactionSort['field'],
  /** The search as the caller planned it (transaction-queries.ts textCandidates); else the needle as a phrase. */
  search?: TextSearch
): { sql: string; params: unknown[] } {
  const conditions: string[] = []
  const params: unknown[] = []
  const statuses = filter.status
  const type = filter.type
  // Walking a sort's index, a unary + keeps the planner off the filters' own indexes: they are read from its entries.
  const own = (column: string) => (walk && SORT_COLUMN[walk] !== column ? `+${column}` : column)
  if (statuses && statuses.length) {
    conditions.push(`${own('status')} IN (${statuses.map(() => '?').join(', ')})`)
    params.push(...statuses)
  }
  if (type) {
    conditions.push(`${own('type')} = ?`)
    params.push(type)
  }
  if (filter.customerId) {
    conditions.push(`${own('customer_id')} = ?`)
    params.push(filter.customerId)
  }
  if (filter.currency) {
    conditions.push(`${own('currency')} = ?`)
    params.push(filter.currency)
  }
  if (filter.accountId) {
    // Both account indexes carry the other filters and the sort keys; the planner unions the two (schema 2).
    conditions.push(`(${own('source_account')} = ? OR ${own('destination_account')} = ?)`)
    params.push(filter.accountId, filter.accountId)
  }
  // Each reads its own index (tx_platform_customer, tx_source, tx_destination, tx_reference, tx_amount).
  const exact: [string | undefined, string][] = [
    [filter.platformCustomerId, 'platform_customer_id'],
    [filter.senderAccountId, 'source_account'],
    [filter.receiverAccountId, 'destination_account'],
    [filter.reference, 'reference']
  ]
  for (const [value, column] of exact) {
    if (value === undefined) continue
    conditions.push(`${own(column)} = ?`)
    params.push(value)
  }
  if (filter.amountMin !== undefined) {
    conditions.push(`${own('amount')} >= ?`)
    params.push(filter.amountMin)
  }
  if (filter.amountMax !== undefined) {
    conditions.push(`${own('amount')} <= ?`)
    params.push(filter.amountMax)
  }
  if (filter.amountIs) {
    // Each currency's rows in their own minor units: 1250 is 125000 cents and 1250 yen (amount-search.ts).
    const terms = amountInMinorUnits(filter.amountIs).map(({ minor, currencies, other }) => {
      const listed = other ? CURRENCIES_NOT_OF_2_DECIMALS : currencies
      params.push(minor, ...listed)
      const list = listed.map(() => '?').join(', ')
      return `(${own('amount')} = ? AND ${own('currency')} ${other ? 'NOT IN' : 'IN'} (${list}))`
    })
    conditions.push(terms.length ? `(${terms.join(' OR ')})` : '0')
  }
  if (filter.createdFrom) {
    conditions.push(`${own('created_at')} >= ?`)
    params.push(Date.parse(filter.createdFrom))
  }
  if (filter.createdTo) {
    conditions.push(`${own('created_at')} <= ?`)
    params.push(Date.parse(filter.createdTo))
  }
  const text = textSearchOf(filter.search)
  if (text) {
    // Probing, the unary + keeps the planner off the rowid lookup, so it walks an index and tests membership.
    const candidates = candidatesOf(search ?? text)
    conditions.push(`${plan === 'probe' ? '+rid' : 'rid'} IN (${candidates.sql})`)
    params.push(...candidates.params)
  }
  return { sql: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params }
}

/**
 * Whether every condition of a filter can be read from the sort indexes' entries (schema 4: they carry status, type,
 * currency, amount and creation time; a text search is tested by rowid), so a window may walk its sort's index
 * without reading rows. Other filters (customers, accounts, reference) read each walked entry's row.
 */
export function walkable(filter: TransactionFilter): boolean {
  return (
    !filter.customerId &&
    !filter.platformCustomerId &&
    !filter.accountId &&
    filter.senderAccountId === undefined &&
    filter.receiverAccountId === undefined &&
    filter.reference === undefined
  )
}

/** Whether a filter reads only status, type and currency: it is then counted from the kept group counts (schema 4). */
export function grouped(filter: TransactionFilter): boolean {
  return (
    walkable(filter) &&
    filter.amountMin === undefined &&
    filter.amountMax === undefined &&
    filter.amountIs === undefined &&
    !filter.createdFrom &&
    !filter.createdTo &&
    !filter.search?.trim()
  )
}

/** The columns a sort orders by: its own, then creation time, then id (so the order is total). */
export function sortKeysOf(sort: TransactionSort): string[] {
  const column = SORT_COLUMN[sort.field]
  return column === 'created_at' ? ['created_at', 'id'] : [column, 'created_at', 'id']
}

/** ORDER BY for a sort: ties fall back to creation time, then id, in the same direction. */
export function orderOf(sort: TransactionSort): string {
  const dir = sort.direction === 'asc' ? 'ASC' : 'DESC'
  return `ORDER BY ${sortKeysOf(sort)
    .map((k) => `${k} ${dir}`)
    .join(', ')}`
}

/**
 * The same sort the other way round: its keys end with the unique id, so the order is total and this one is exactly
 * its reverse, ties included (a window read from the end, transaction-queries.ts).
 */
export function reversedOf(sort: TransactionSort): TransactionSort {
  return { field: sort.field, direction: sort.direction === 'asc' ? 'desc' : 'asc' }
}

/**
 * The condition for "after this row" in a sort's order (keyset paging): a page starts where the last one ended,
 * through the sort's index, however far into the set it is, and rows written meanwhile neither repeat nor shift it.
 */
export function afterOf(sort: TransactionSort, last: readonly unknown[]): { sql: string; params: unknown[] } {
  const keys = sortKeysOf(sort)
  return {
    sql: `(${keys.join(', ')}) ${sort.direction === 'asc' ? '>' : '<'} (${keys.map(() => '?').join(', ')})`,
    params: [...last]
  }
}

/** The condition for "this row or before it" in a sort's order: the end of a bounded walk through the sort's index. */
export function upToOf(sort: TransactionSort, last: readonly unknown[]): { sql: string; params: unknown[] } {
  const keys = sortKeysOf(sort)
  return {
    sql: `(${keys.join(', ')}) ${sort.direction === 'asc' ? '<=' : '>='} (${keys.map(() => '?').join(', ')})`,
    params: [...last]
  }
}
