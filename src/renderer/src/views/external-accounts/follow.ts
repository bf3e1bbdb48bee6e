import { useEffect, useState } from 'react'
import type { ExternalAccount } from '../../../../shared/api'
import { UNSETTLED_EXTERNAL_ACCOUNT_STATUSES } from '../../../../shared/ipc/channels/accounts'
import { paydesk } from '../../bridge/paydesk'

/**
 * While an account's status has not settled (PENDING, UNDER_REVIEW), asks main to follow it: main reads it from the
 * service until it settles, updating the cache, and the list's data.changed brings the new status on screen. Asks
 * again every few seconds only to show when main last checked.
 */
export function useFollowedStatus(account: ExternalAccount): { following: boolean; checkedAt: string | null } {
  const unsettled = UNSETTLED_EXTERNAL_ACCOUNT_STATUSES.includes(account.status)
  const [state, setState] = useState<{ following: boolean; checkedAt: string | null }>({
    following: false,
    checkedAt: null
  })
  useEffect(() => {
    let stopped = false
    const ask = async () => {
      const r = await paydesk.invoke('externalAccounts.follow', { id: account.id as `ExternalAccount:${string}` })
      if (!stopped && r.ok) setState({ following: r.value.following, checkedAt: r.value.checkedAt })
    }
    void ask()
    if (!unsettled) return () => void (stopped = true)
    const timer = setInterval(() => void ask(), 3_000)
    return () => {
      stopped = true
      clearInterval(timer)
    }
  }, [account.id, unsettled])
  return unsettled ? state : { following: false, checkedAt: state.checkedAt }
}
