import type { Handlers } from './dispatch'
import type { CurrencyTotal } from '../../shared/ipc/channels/workbench'
import type { TransactionFilter } from '../../shared/ipc/channels/data'
import type { SavedViewFiles } from '../domain/saved-views'

type WorkbenchChannel = 'transactions.totals' | 'views.list' | 'views.save' | 'views.remove'

interface ActiveProfile {
  profileId: string
  cache: {
    transactionTotals(filter: TransactionFilter): Promise<CurrencyTotal[]>
    meta<T>(key: string): T | undefined
  }
}

/** The transactions workbench's channels: totals from the active profile's cache, and its saved views. */
export function workbenchHandlers(
  views: SavedViewFiles,
  active: () => Promise<ActiveProfile>
): Pick<Handlers, WorkbenchChannel> {
  return {
    'transactions.totals': async ({ filter }) => {
      const session = await active()
      const totals = await session.cache.transactionTotals(filter)
      return { profileId: session.profileId, totals, syncedAt: session.cache.meta<string>('tx.syncedAt') ?? null }
    },
    'views.list': async () => {
      const { profileId } = await active()
      return { profileId, views: await views.list(profileId) }
    },
    'views.save': async (view) => {
      const { profileId } = await active()
      return { profileId, views: await views.save(profileId, view) }
    },
    'views.remove': async ({ name }) => {
      const { profileId } = await active()
      return { profileId, views: await views.remove(profileId, name) }
    }
  }
}
