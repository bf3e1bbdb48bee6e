import { describe, expect, it } from 'vitest'
import { homeHandlers } from '../../../src/main/handlers/home'
import type { HomeRequest, HomeRows } from '../../../src/main/infra/cache/home-figures'
import type { InternalAccount } from '../../../src/shared/api'

const NOW = Date.parse('2026-11-28T15:00:00Z')

describe('home.figures handler', () => {
  it('asks the cache once for the platform accounts’ 30 days and shapes the answer per currency', async () => {
    const asked: HomeRequest[] = []
    const platform = [
      { id: 'InternalAccount:p', balance: { amount: 1_000, currency: { code: 'USD', decimals: 2 } } }
    ] as unknown as InternalAccount[]
    const session = {
      profileId: 'local',
      listInternalAccounts: (filter: { scope: string }) => {
        expect(filter.scope).toBe('platform')
        return { profileId: 'local', rows: platform, syncedAt: '2026-11-28T14:59:00Z' }
      },
      cache: {
        meta: <T>(key: string) => (key === 'tx.syncedAt' ? ('2026-11-28T14:58:00Z' as T) : undefined),
        homeRows: async (request: HomeRequest): Promise<HomeRows> => {
          asked.push(request)
          return { volume: [[29, 'INCOMING', 'USD', 250]], flows: [[29, 'InternalAccount:p', 250]], failed: 2 }
        }
      }
    }
    const handlers = homeHandlers(
      async () => session as never,
      () => NOW
    )
    const figures = await handlers['home.figures']({ timeZone: 'UTC' })
    expect(asked).toHaveLength(1)
    expect(asked[0]!.accountIds).toEqual(['InternalAccount:p'])
    expect(asked[0]!.failedFrom).toBe(NOW - 30 * 86_400_000)
    expect(figures.days.at(-1)).toBe('2026-11-28')
    expect(figures.volume[0]!.incoming[29]).toBe(250)
    expect(figures.balances[0]!.endOfDay.slice(-2)).toEqual([750, 1_000])
    expect(figures).toMatchObject({ profileId: 'local', failed: 2, syncedAt: '2026-11-28T14:58:00Z' })
    expect(figures.balancesSyncedAt).toBe('2026-11-28T14:59:00Z')
  })
})
