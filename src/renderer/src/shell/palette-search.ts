import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import type { ChannelInput, ChannelName, ChannelOutput } from '../../../shared/ipc/contract'
import type { IpcError } from '../../../shared/ipc/define'
import { isTooShortTransactionSearch } from '../../../shared/transaction-search'
import { read, useChannelQuery } from '../data/channel-query'
import { channelKey } from '../data/query-client'
import { CUSTOMER_CHOICES, customerName } from '../views/customers/names'
import {
  customerEntry,
  externalAccountEntry,
  internalAccountEntries,
  MIN_RECORD_SEARCH_CHARS,
  PALETTE_LIMIT,
  recordHeading,
  transactionEntry,
  type PaletteGroup
} from './palette-entries'

/** Typing settles for this long before the records are asked for: one read per pause, not one per key. */
const SETTLE_MS = 150

interface Found<T> {
  data: T | undefined
  /** The answer shown is the one for the text searched now (not the last one kept while the next is on its way). */
  current: boolean
  error: IpcError | null
}

/** One search over a channel, through the shared query cache like every other read of the renderer. */
function useFound<K extends ChannelName>(
  channel: K,
  input: ChannelInput<K>,
  enabled: boolean
): Found<ChannelOutput<K>> {
  const query = useQuery<ChannelOutput<K>, IpcError>({
    queryKey: channelKey(channel, input),
    queryFn: () => read(channel, input),
    enabled,
    placeholderData: keepPreviousData
  })
  return {
    data: enabled ? query.data : undefined,
    current: !enabled || (!query.isPlaceholderData && !query.isPending),
    error: enabled ? (query.error ?? null) : null
  }
}

export interface RecordSearch {
  groups: PaletteGroup[]
  /** Every search for the text typed now has answered (a search too short to run counts as answered). */
  settled: boolean
  errors: { what: string; error: IpcError }[]
}

/**
 * Customers, accounts (the customers' and the platform's, internal and external) and transactions whose name or id
 * holds what was typed, read from the active profile's cache through the existing data channels.
 */
export function useRecordSearch(query: string): RecordSearch {
  const [settledText, setSettledText] = useState(query.trim())
  useEffect(() => {
    const timer = setTimeout(() => setSettledText(query.trim()), SETTLE_MS)
    return () => clearTimeout(timer)
  }, [query])
  const text = settledText
  const searching = [...text].length >= MIN_RECORD_SEARCH_CHARS
  const searchesTransactions = searching && !isTooShortTransactionSearch(text)

  const customers = useFound('customers.query', { search: text, limit: PALETTE_LIMIT }, searching)
  const externals = useFound('externalAccounts.query', { search: text, limit: PALETTE_LIMIT }, searching)
  const transactions = useFound(
    'transactions.query',
    { filter: { search: text }, limit: PALETTE_LIMIT },
    searchesTransactions
  )
  // The same reads the accounts screens make: usually already answered from the renderer's cache.
  const internals = useChannelQuery('internalAccounts.list', { scope: 'all' }, { enabled: searching })
  const names = useChannelQuery('customers.query', CUSTOMER_CHOICES, { enabled: searching })

  const customerNames = useMemo(
    () => new Map<string, string>((names.data?.rows ?? []).map((c) => [c.id, customerName(c)])),
    [names.data]
  )

  if (!searching) return { groups: [], settled: text === query.trim(), errors: [] }
  const groups: PaletteGroup[] = []
  if (customers.data?.rows.length) {
    const rows = customers.data.rows
    groups.push({
      heading: recordHeading('Customers', rows.length, customers.data.total),
      entries: rows.map(customerEntry)
    })
  }
  const internal = internalAccountEntries(internals.data?.rows ?? [], customerNames, text)
  if (internal.entries.length) {
    groups.push({
      heading: recordHeading('Internal accounts', internal.entries.length, internal.total),
      entries: internal.entries
    })
  }
  if (externals.data?.rows.length) {
    const rows = externals.data.rows
    groups.push({
      heading: recordHeading('External accounts', rows.length, externals.data.total),
      entries: rows.map(externalAccountEntry)
    })
  }
  if (transactions.data?.rows.length) {
    const rows = transactions.data.rows
    groups.push({
      heading: recordHeading('Transactions', rows.length, transactions.data.total),
      entries: rows.map((t) => transactionEntry(t, customerNames))
    })
  }
  const errors = [
    { what: 'customers', error: customers.error },
    { what: 'external accounts', error: externals.error },
    { what: 'transactions', error: transactions.error },
    { what: 'internal accounts', error: internals.error }
  ].filter((e): e is { what: string; error: IpcError } => e.error !== null)
  const settled =
    text === query.trim() &&
    customers.current &&
    externals.current &&
    transactions.current &&
    !internals.loading &&
    !names.loading
  return { groups, settled, errors }
}
