import type { Customer, ExternalAccount, InternalAccount } from '../../../shared/api'
import type {
  AccountOwnerScope,
  CustomersQueryInput,
  ExternalAccountsQueryInput
} from '../../../shared/ipc/channels/data'
import type { CacheStore } from './store'

/**
 * The small collections (customers, external and internal accounts) as the views ask for them: filtered, searched and
 * sorted over the cached documents. Transactions have their own indexed query in the store (`queryTransactions`).
 */

type Documents = Pick<CacheStore, 'all' | 'meta'>

/**
 * Meta keys holding the ids the service listed under `/platform/...`. Such an account is the platform's whatever its
 * `customerId` says: the published API's own examples list platform accounts that carry a customer id, and Home's
 * balances must show what the connection card counted.
 */
export const PLATFORM_INTERNAL_ACCOUNT_IDS = 'platformInternalAccountIds'
export const PLATFORM_EXTERNAL_ACCOUNT_IDS = 'platformExternalAccountIds'

function platformIds(cache: Pick<CacheStore, 'meta'>, key: string): Set<string> {
  const stored = cache.meta<unknown>(key)
  return new Set(Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [])
}

/**
 * The meta value to write with a platform listing: the ids it read, added to those already known when the listing
 * stopped part way (the rest is read at the next refresh, and nothing is dropped meanwhile).
 */
export function platformOwned(
  cache: Pick<CacheStore, 'meta'>,
  key: string,
  listed: readonly { id: string }[],
  complete: boolean
): Record<string, string[]> {
  const ids = complete ? new Set<string>() : platformIds(cache, key)
  for (const account of listed) ids.add(account.id)
  return { [key]: [...ids] }
}

export interface InternalAccountsFilter {
  scope: AccountOwnerScope
  customerId?: string | undefined
  currency?: string | undefined
}

/** Platform accounts have no customer or were listed as the platform's; a scope keeps one side or both. */
function inScope(
  a: { id: string; customerId?: string | null | undefined },
  scope: AccountOwnerScope,
  platformListed: Set<string>
): boolean {
  const platform = !a.customerId || platformListed.has(a.id)
  return scope === 'all' || (scope === 'platform') === platform
}

function page<T>(rows: T[], input: { offset: number; limit: number }): { rows: T[]; total: number } {
  return { rows: rows.slice(input.offset, input.offset + input.limit), total: rows.length }
}

export function queryCustomers(cache: Documents, input: CustomersQueryInput): { rows: Customer[]; total: number } {
  const needle = input.search?.toLowerCase()
  const rows = cache.all<Customer>('customers').filter((c) => {
    if (input.kycStatus && c.kycStatus !== input.kycStatus) return false
    if (!needle) return true
    return [c.id, c.fullName, c.platformCustomerId, c.umaAddress].some(
      (v) => typeof v === 'string' && v.toLowerCase().includes(needle)
    )
  })
  const dir = input.sort.direction === 'asc' ? 1 : -1
  const field = input.sort.field
  rows.sort((a, b) => {
    const va = String(a[field] ?? '')
    const vb = String(b[field] ?? '')
    return (va < vb ? -1 : va > vb ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * dir
  })
  return page(rows, input)
}

/** Newest first; the search looks at the id, the platform's own id and the account details. */
export function queryExternalAccounts(
  cache: Documents,
  input: ExternalAccountsQueryInput
): { rows: ExternalAccount[]; total: number } {
  const needle = input.search?.toLowerCase()
  const platformListed = platformIds(cache, PLATFORM_EXTERNAL_ACCOUNT_IDS)
  const rows = cache
    .all<ExternalAccount>('externalAccounts')
    .filter((a) => {
      if (!inScope(a, input.scope, platformListed)) return false
      if (input.customerId && a.customerId !== input.customerId) return false
      if (input.currency && a.currency !== input.currency) return false
      if (input.status && a.status !== input.status) return false
      if (needle && !JSON.stringify([a.id, a.platformAccountId, a.accountInfo]).toLowerCase().includes(needle))
        return false
      return true
    })
    .sort((a, b) => String(b.createdAt ?? '').localeCompare(String(a.createdAt ?? '')) || a.id.localeCompare(b.id))
  return page(rows, input)
}

export function listInternalAccounts(cache: Documents, input: InternalAccountsFilter): InternalAccount[] {
  const platformListed = platformIds(cache, PLATFORM_INTERNAL_ACCOUNT_IDS)
  return cache.all<InternalAccount>('internalAccounts').filter((a) => {
    if (!inScope(a, input.scope, platformListed)) return false
    if (input.customerId && a.customerId !== input.customerId) return false
    if (input.currency && a.balance.currency.code !== input.currency) return false
    return true
  })
}
