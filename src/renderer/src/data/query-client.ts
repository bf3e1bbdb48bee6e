import { QueryClient, type Query } from '@tanstack/react-query'
import type { ChannelInput, ChannelName } from '../../../shared/ipc/contract'
import type { DataCollection } from '../../../shared/ipc/channels/data'

/** What main reports as changed: a synced collection, or what the active profile's approval gate holds. */
export type Collection = DataCollection | 'gate'

/** The query key of one read: the channel and its input (compared by value). */
export const channelKey = <K extends ChannelName>(channel: K, input: ChannelInput<K>) =>
  [channel, input ?? null] as const

/** Which query channels read each collection main reports as changed (`data.changed` and friends). */
export const CHANNELS_OF: Record<Collection, readonly ChannelName[]> = {
  transactions: [
    'transactions.query',
    'transactions.totals',
    'transactions.get',
    'transfers.journal',
    'quotes.open',
    'gate.failedApprovals',
    'home.figures'
  ],
  // Transactions are shown with their customers' and accounts' names (transactions.query's `names`).
  customers: ['customers.query', 'customers.get', 'transactions.query', 'transactions.get'],
  externalAccounts: ['externalAccounts.query', 'transactions.query', 'transactions.get'],
  internalAccounts: ['internalAccounts.list', 'transactions.query', 'transactions.get', 'home.figures'],
  discoveries: ['discoveries.list'],
  gate: ['gate.link', 'gate.prompts', 'gate.log', 'gate.rules.get', 'gate.preApprovals.list', 'gate.receiverInfo.get']
}

/**
 * Every read from main goes through this cache, keyed by [channel, input]: two views asking the same thing share one
 * call. Data is fresh until main says otherwise, but a view that mounts asks again (as it did before the cache), and
 * failures are shown, not retried behind the operator's back.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
      mutations: { retry: false }
    }
  })
}

export const queryClient = createQueryClient()

const readsAny = (channels: ReadonlySet<string>) => (query: Query) => channels.has(String(query.queryKey[0]))

/**
 * Re-queries what reads the given channels (a write of this page settled, or main said the data changed). A read still
 * on its way to its first answer is not asked again by react-query, which joins that fetch instead: its answer may
 * predate the change (a list read before its first sync lands), so such reads ask once more after it arrives.
 */
export async function invalidateChannels(
  channels: readonly ChannelName[],
  client: QueryClient = queryClient
): Promise<void> {
  const predicate = readsAny(new Set(channels))
  const firstFetches = new Set(
    client
      .getQueryCache()
      .findAll({ predicate, fetchStatus: 'fetching' })
      .filter((query) => query.state.data === undefined)
      .map((query) => query.queryHash)
  )
  await client.invalidateQueries({ predicate })
  if (firstFetches.size) await client.invalidateQueries({ predicate: (query) => firstFetches.has(query.queryHash) })
}

/**
 * Main said these collections changed: every query reading them asks again, windowed lists included (their windows are
 * queries of this cache).
 */
export function invalidateCollections(collections: readonly Collection[], client: QueryClient = queryClient): void {
  void invalidateChannels(
    collections.flatMap((c) => CHANNELS_OF[c]),
    client
  )
}

/**
 * The active profile changed: another profile's data must never stay on screen. Answers no view shows are dropped;
 * those on screen are asked again (kept until the new answer lands, like any re-query).
 */
export function forgetProfileData(client: QueryClient = queryClient): void {
  // The profile list is every profile's, and main has just told it (data/profiles.ts).
  const predicate = (query: Query) => query.queryKey[0] !== 'profiles.list'
  client.removeQueries({ type: 'inactive', predicate })
  // A read on its way was asked of the profile left behind. react-query joins a first read (no answer yet) instead of
  // asking again, so its answer would be shown under the new profile: each is cancelled first, silently, so whoever
  // awaits it is handed the new read's answer.
  for (const query of client.getQueryCache().findAll({ predicate }))
    if (query.state.fetchStatus !== 'idle') void query.cancel({ silent: true })
  void client.invalidateQueries({ predicate })
}
