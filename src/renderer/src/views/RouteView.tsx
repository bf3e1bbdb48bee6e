import { lazy, Suspense, useEffect, type ComponentType } from 'react'
import type { ProfileView } from '../../../shared/profile'
import { useUi, type RouteId } from '../stores/ui'
import { HomeView } from './HomeView'

/**
 * A view loaded on demand: the first paint evaluates the shell and Home, not every view (nor the zod schemas of their
 * forms). Once its module is in, the view renders directly, with no suspense on the way.
 */
function lazyView(load: () => Promise<ComponentType>) {
  let loaded: ComponentType | undefined
  let loading: Promise<ComponentType> | undefined
  const preload = () =>
    (loading ??= load().then(
      (view) => (loaded = view),
      (error: unknown) => {
        // A failed download may succeed on the next visit: do not keep the failure.
        loading = undefined
        throw error
      }
    ))
  const Lazy = lazy(() => preload().then((view) => ({ default: view })))
  function View() {
    const Loaded = loaded
    return Loaded ? <Loaded /> : <Lazy />
  }
  return { View, preload }
}

const VIEWS = {
  settings: lazyView(() => import('./SettingsView').then((m) => m.SettingsView)),
  transactions: lazyView(() => import('./transactions/TransactionsView').then((m) => m.TransactionsView)),
  approvals: lazyView(() => import('./approvals/ApprovalsView').then((m) => m.ApprovalsView)),
  customers: lazyView(() => import('./customers/CustomersView').then((m) => m.CustomersView)),
  'external-accounts': lazyView(() =>
    import('./external-accounts/ExternalAccountsView').then((m) => m.ExternalAccountsView)
  ),
  'internal-accounts': lazyView(() =>
    import('./internal-accounts/InternalAccountsView').then((m) => m.InternalAccountsView)
  ),
  quotes: lazyView(() => import('./quotes/QuotesView').then((m) => m.QuotesView)),
  sandbox: lazyView(() => import('./sandbox-tools/SandboxToolsView').then((m) => m.SandboxToolsView))
} satisfies Partial<Record<RouteId, ReturnType<typeof lazyView>>>

/** Most used first: the one an operator opens next should be in first. */
const PRELOAD_ORDER: (keyof typeof VIEWS)[] = [
  'transactions',
  'approvals',
  'customers',
  'internal-accounts',
  'external-accounts',
  'quotes',
  'sandbox',
  'settings'
]

/**
 * After the first paint, every view is fetched and evaluated in the background, one at a time, so a click on the
 * sidebar does not wait for a download. Transactions, the view an operator opens most, starts at once; the others wait
 * for an idle moment each.
 */
function usePreloadViews() {
  useEffect(() => {
    let cancelled = false
    const idle = (next: () => void) =>
      typeof requestIdleCallback === 'function' ? requestIdleCallback(next, { timeout: 2000 }) : setTimeout(next, 50)
    const step = (index: number) => {
      const name = PRELOAD_ORDER[index]
      if (cancelled || !name) return
      const next = () => idle(() => step(index + 1))
      void VIEWS[name].preload().then(next, next)
    }
    step(0)
    return () => {
      cancelled = true
    }
  }, [])
}

export function RouteView({ profile }: { profile: ProfileView | undefined }) {
  const route = useUi((s) => s.route)
  usePreloadViews()
  const lazyRoute = route in VIEWS ? VIEWS[route as keyof typeof VIEWS] : undefined
  if (!lazyRoute) return <HomeView profile={profile} />
  return (
    <Suspense fallback={<div className="skeleton-rows" role="status" aria-busy="true" aria-label="Loading view" />}>
      <lazyRoute.View />
    </Suspense>
  )
}
