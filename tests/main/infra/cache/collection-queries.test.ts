import { describe, expect, it } from 'vitest'
import type { InternalAccount } from '../../../../src/shared/api'
import {
  listInternalAccounts,
  PLATFORM_INTERNAL_ACCOUNT_IDS,
  platformOwned
} from '../../../../src/main/infra/cache/collection-queries'

const account = (id: string, customerId?: string): InternalAccount =>
  ({
    id,
    ...(customerId && { customerId }),
    balance: { amount: 100, currency: { code: 'USD', decimals: 2 } },
    createdAt: '2026-01-01T00:00:00Z'
  }) as unknown as InternalAccount

/** The two reads the queries make of the cache: its documents and its metadata. */
function cacheOf(accounts: InternalAccount[], meta: Record<string, unknown> = {}) {
  return {
    all: <T>() => accounts as unknown as T[],
    meta: <T>(key: string) => meta[key] as T | undefined
  }
}

describe('internal accounts by owner', () => {
  const platform = account('InternalAccount:p')
  // The published API's own example of a platform account carries a customer id.
  const listedAsPlatform = account('InternalAccount:example', 'Customer:1')
  const customers = account('InternalAccount:c', 'Customer:2')

  it('counts an account the service listed under /platform as the platform’s, whatever its customerId says', () => {
    const cache = cacheOf([platform, listedAsPlatform, customers], {
      [PLATFORM_INTERNAL_ACCOUNT_IDS]: [listedAsPlatform.id]
    })
    expect(listInternalAccounts(cache, { scope: 'platform' }).map((a) => a.id)).toEqual([
      platform.id,
      listedAsPlatform.id
    ])
    expect(listInternalAccounts(cache, { scope: 'customer' }).map((a) => a.id)).toEqual([customers.id])
    expect(listInternalAccounts(cache, { scope: 'all' })).toHaveLength(3)
  })

  it('without a platform listing yet, an account with a customer is that customer’s', () => {
    const cache = cacheOf([platform, listedAsPlatform], { [PLATFORM_INTERNAL_ACCOUNT_IDS]: 'not a list' })
    expect(listInternalAccounts(cache, { scope: 'platform' }).map((a) => a.id)).toEqual([platform.id])
  })
})

describe('platformOwned', () => {
  const cache = cacheOf([], { [PLATFORM_INTERNAL_ACCOUNT_IDS]: ['InternalAccount:old'] })

  it('a complete listing replaces the known ids', () => {
    expect(platformOwned(cache, PLATFORM_INTERNAL_ACCOUNT_IDS, [{ id: 'InternalAccount:new' }], true)).toEqual({
      [PLATFORM_INTERNAL_ACCOUNT_IDS]: ['InternalAccount:new']
    })
  })

  it('a listing that stopped part way adds to them and drops nothing', () => {
    expect(platformOwned(cache, PLATFORM_INTERNAL_ACCOUNT_IDS, [{ id: 'InternalAccount:new' }], false)).toEqual({
      [PLATFORM_INTERNAL_ACCOUNT_IDS]: ['InternalAccount:old', 'InternalAccount:new']
    })
  })
})
