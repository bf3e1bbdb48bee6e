import type { ExternalAccount } from '../../../../shared/api'
import { UNSETTLED_EXTERNAL_ACCOUNT_STATUSES } from '../../../../shared/ipc/channels/accounts'
import { useChannelQuery } from '../../data/channel-query'

/**
 * While an account's status has not settled (PENDING, UNDER_REVIEW), asks main to follow it: main reads it from the
 * service until it settles, updating the cache, and the list's data.changed brings the new status on screen. Asks
 * again every few seconds only to show when main last checked.
 */
export function useFollowedStatus(account: ExternalAccount): { following: boolean; checkedAt: string | null } {
  const unsettled = UNSETTLED_EXTERNAL_ACCOUNT_STATUSES.includes(account.status)
  const followed = useChannelQuery(
    'externalAccounts.follow',
    { id: account.id as `ExternalAccount:${string}` },
    { every: unsettled ? 3_000 : false }
  )
  const checkedAt = followed.data?.checkedAt ?? null
  return { following: unsettled && (followed.data?.following ?? false), checkedAt }
}
