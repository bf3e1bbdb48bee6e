import type { HomeFigures } from '../../shared/ipc/channels/home'
import type { Handlers } from './dispatch'
import { balancesByCurrency, FAILED_WINDOW_MS, homeWindow, volumeByCurrency } from '../infra/cache/home-figures'
import type { ProfileSession } from '../domain/profile-session'

type HomeSession = Pick<ProfileSession, 'profileId' | 'cache' | 'listInternalAccounts'>

/** Home's figures for the active profile's cache (src/shared/ipc/channels/home.ts). */
async function homeFigures(session: HomeSession, timeZone: string, now: number): Promise<HomeFigures> {
  // The platform's accounts as their own list reads them (and refreshes them): the balances Home walks back from.
  const accounts = session.listInternalAccounts({ scope: 'platform' })
  const window = homeWindow(now, timeZone)
  const rows = await session.cache.homeRows({
    bounds: window.bounds,
    accountIds: accounts.rows.map((a) => a.id),
    failedFrom: now - FAILED_WINDOW_MS
  })
  return {
    profileId: session.profileId,
    timeZone,
    days: window.days,
    volume: volumeByCurrency(rows.volume),
    balances: balancesByCurrency(accounts.rows, rows.flows),
    failed: rows.failed,
    syncedAt: session.cache.meta<string>('tx.syncedAt') ?? null,
    balancesSyncedAt: accounts.syncedAt
  }
}

export function homeHandlers(
  active: () => Promise<HomeSession>,
  now: () => number = Date.now
): Pick<Handlers, 'home.figures'> {
  return { 'home.figures': async ({ timeZone }) => homeFigures(await active(), timeZone, now()) }
}
