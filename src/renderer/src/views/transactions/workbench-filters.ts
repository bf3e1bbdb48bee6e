import { amountSearchOf } from '../../../../shared/amount-search'
import { KNOWN_DECIMALS, parseMoneyInput } from '../../../../shared/format/money'
import type { TransactionFilter, TransactionSort } from '../../../../shared/ipc/channels/data'
import {
  isTooShortTransactionSearch,
  MIN_TRANSACTION_SEARCH_CHARS,
  TRANSACTION_SORT_FIELDS
} from '../../../../shared/ipc/channels/data'

/**
 * The workbench's filters as the operator typed them: strings, kept in the list memory so they survive navigation,
 * and turned into the shared TransactionFilter only when queried (a date preset means "the last 7 days from now").
 */
export const WORKBENCH_DEFAULTS = {
  search: '',
  /** Comma-separated statuses. */
  status: '',
  type: '',
  customerId: '',
  platformCustomerId: '',
  senderAccountId: '',
  receiverAccountId: '',
  reference: '',
  currency: '',
  /** Decimal text in the currency's units ("12.50"). */
  amountMin: '',
  amountMax: '',
  /** '', today, 7d, 30d or custom (then dateFrom/dateTo, YYYY-MM-DD in the operator's zone, both inclusive). */
  datePreset: '',
  dateFrom: '',
  dateTo: '',
  /** field:direction */
  sort: 'createdAt:desc'
}
export type WorkbenchFilters = typeof WORKBENCH_DEFAULTS
type Key = keyof WorkbenchFilters

export const DATE_PRESETS = [
  ['today', 'Today'],
  ['7d', 'Last 7 days'],
  ['30d', 'Last 30 days'],
  ['custom', 'Custom range']
] as const

/** Why the Amount header does not sort: amounts in different currencies cannot be put in one order. */
export const AMOUNT_SORT_HINT = 'Filter one currency to sort by amount'

const DAY_MS = 86_400_000

function startOfLocalDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate())
}

/** "2026-11-24" as the start (or end) of that day in the operator's zone; null when not a date. */
function localDay(text: string, end: boolean): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (!match) return null
  const day = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]))
  return end ? new Date(day.getTime() + DAY_MS - 1) : day
}

/** The decimals an amount bound is typed in: the chosen currency's. */
export function amountDecimals(currency: string): number | undefined {
  return currency ? (KNOWN_DECIMALS[currency] ?? 2) : undefined
}

export interface WorkbenchQuery {
  filter: TransactionFilter
  sort: TransactionSort
  /** Fields the operator must fix; their condition is left out of the query meanwhile. */
  errors: Partial<Record<Key, string>>
}

export function workbenchQuery(f: WorkbenchFilters, now: Date = new Date()): WorkbenchQuery {
  const errors: WorkbenchQuery['errors'] = {}
  const filter: TransactionFilter = {}
  // One or two characters are not a search (the shared filter refuses them): no condition, here or restored. A search
  // that reads as an amount ("1250", "$1,250.00") finds that amount in any currency, instead of text.
  if (f.search.trim() && !isTooShortTransactionSearch(f.search)) {
    const amountIs = amountSearchOf(f.search)
    if (amountIs) filter.amountIs = amountIs
    else filter.search = f.search.trim()
  }
  const statuses = f.status.split(',').filter(Boolean)
  if (statuses.length) filter.status = statuses
  if (f.type === 'INCOMING' || f.type === 'OUTGOING') filter.type = f.type
  for (const key of ['customerId', 'platformCustomerId', 'senderAccountId', 'receiverAccountId', 'reference'] as const)
    if (f[key].trim()) filter[key] = f[key].trim()
  const currency = f.currency.trim().toUpperCase()
  if (currency) filter.currency = currency
  const decimals = amountDecimals(currency)
  for (const key of ['amountMin', 'amountMax'] as const) {
    if (!f[key].trim()) continue
    if (decimals === undefined) {
      errors[key] = 'Choose a currency first: an amount means something only in one currency'
      continue
    }
    const parsed = parseMoneyInput(f[key], decimals)
    if (parsed.ok) filter[key] = parsed.amount
    else errors[key] = parsed.error
  }
  if (filter.amountMin !== undefined && filter.amountMax !== undefined && filter.amountMin > filter.amountMax) {
    errors.amountMax = 'The largest amount is below the smallest'
    delete filter.amountMax
  }
  const range = dateRange(f, now)
  if ('error' in range) errors[range.field] = range.error
  else Object.assign(filter, range)
  return { filter, sort: sortOf(f), errors }
}

/**
 * The sort the list applies: the operator's, except that amounts sort only within one currency ($5 is not "larger"
 * than ¥100), so without a currency filter an amount sort falls back to newest first.
 */
export function sortOf(f: WorkbenchFilters): TransactionSort {
  const [field, direction] = f.sort.split(':')
  const known = (TRANSACTION_SORT_FIELDS as readonly string[]).includes(field ?? '')
  if (!known || (field === 'amount' && !f.currency.trim())) return { field: 'createdAt', direction: 'desc' }
  return { field: field as TransactionSort['field'], direction: direction === 'asc' ? 'asc' : 'desc' }
}

/** A header's click: the same column flips its direction, another starts largest or newest first. */
export function nextSort(current: TransactionSort, field: TransactionSort['field']): string {
  if (current.field === field) return `${field}:${current.direction === 'desc' ? 'asc' : 'desc'}`
  return `${field}:${field === 'status' ? 'asc' : 'desc'}`
}

function dateRange(
  f: WorkbenchFilters,
  now: Date
): { createdFrom?: string; createdTo?: string } | { field: Key; error: string } {
  switch (f.datePreset) {
    case 'today':
      return { createdFrom: startOfLocalDay(now).toISOString() }
    case '7d':
      return { createdFrom: new Date(now.getTime() - 7 * DAY_MS).toISOString() }
    case '30d':
      return { createdFrom: new Date(now.getTime() - 30 * DAY_MS).toISOString() }
    case 'custom': {
      const from = f.dateFrom ? localDay(f.dateFrom, false) : undefined
      const to = f.dateTo ? localDay(f.dateTo, true) : undefined
      if (from === null) return { field: 'dateFrom', error: 'Enter a date as YYYY-MM-DD' }
      if (to === null) return { field: 'dateTo', error: 'Enter a date as YYYY-MM-DD' }
      if (from && to && from > to) return { field: 'dateTo', error: 'The range ends before it starts' }
      return { ...(from && { createdFrom: from.toISOString() }), ...(to && { createdTo: to.toISOString() }) }
    }
    default:
      return {}
  }
}

/** Shown by the box while what is typed is too short to search. */
export const SEARCH_TOO_SHORT_HINT = `Type ${MIN_TRANSACTION_SEARCH_CHARS} or more characters to search`

/**
 * The text the list searches for: what is typed once it can be searched (or is cleared), else what it searched for
 * before, so typing the first characters of a new search, or deleting back through them, keeps the list as it was.
 */
export function searchToApply(typed: string, applied: string): string {
  return isTooShortTransactionSearch(typed) ? applied : typed
}

export interface Chip {
  label: string
  /** What removing the chip clears. */
  keys: Key[]
}

/** One removable chip per active filter (search has its own box; sort is not a filter). */
export function chipsOf(f: WorkbenchFilters): Chip[] {
  const chips: Chip[] = []
  const add = (label: string, ...keys: Key[]) => chips.push({ label, keys })
  if (f.status) add(`Status: ${f.status.split(',').join(', ')}`, 'status')
  if (f.type) add(`Type: ${f.type === 'INCOMING' ? 'Incoming' : 'Outgoing'}`, 'type')
  if (f.customerId) add(`Customer: ${f.customerId}`, 'customerId')
  if (f.platformCustomerId) add(`Platform customer: ${f.platformCustomerId}`, 'platformCustomerId')
  if (f.senderAccountId) add(`Sender account: ${f.senderAccountId}`, 'senderAccountId')
  if (f.receiverAccountId) add(`Receiver account: ${f.receiverAccountId}`, 'receiverAccountId')
  if (f.reference) add(`Reference: ${f.reference}`, 'reference')
  if (f.currency) add(`Currency: ${f.currency.toUpperCase()}`, 'currency', 'amountMin', 'amountMax')
  if (f.amountMin || f.amountMax) {
    const unit = f.currency ? ` ${f.currency.toUpperCase()}` : ''
    const label =
      f.amountMin && f.amountMax
        ? `${f.amountMin}–${f.amountMax}`
        : f.amountMin
          ? `≥ ${f.amountMin}`
          : `≤ ${f.amountMax}`
    add(`Amount: ${label}${unit}`, 'amountMin', 'amountMax')
  }
  if (f.datePreset) {
    const preset = DATE_PRESETS.find(([value]) => value === f.datePreset)?.[1] ?? f.datePreset
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
    const label =
      f.datePreset === 'custom' ? `${f.dateFrom || '…'} to ${f.dateTo || '…'} (${zone})` : `${preset} (${zone})`
    add(`Created: ${label}`, 'datePreset', 'dateFrom', 'dateTo')
  }
  return chips
}
