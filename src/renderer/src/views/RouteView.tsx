import { lazy, Suspense, useEffect, type ComponentType } from 'react'
import type { ProfileView } from '../../../shared/profile'
import { useUi, type RouteId } from '../stores/ui'
import { replayHeldKeys, useHoldKeys } from './held-keys'
import { HomeView } from './HomeView'
import { preloadInTurn } from './preload'

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
  const Lazy = lazy(() => preload().then((view) => ({ default: () => <Ready view={view} /> })))
  function View() {
    const Loaded = loaded
    return Loaded ? <Ready view={Loaded} /> : <Lazy />
  }
  return { View, preload }
}

/** A view on screen: keys pressed while it loaded are given to it once its own key handlers are registered. */
function Ready({ view: View }: { view: ComponentType }) {
  // A parent's effect runs after its children's: the view's handlers are in place by then.
  useEffect(() => replayHeldKeys(), [])
  return <View />
}

/** What shows while a view loads: keys pressed meanwhile are held for it. */
function ViewLoading() {
  useHoldKeys()
  return <div className="skeleton-rows" role="status" aria-busy="true" aria-label="Loading view" />
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
  history: lazyView(() => import('./history/HistoryView').then((m) => m.HistoryView)),
  sandbox: lazyView(() => import('./sandbox-tools/SandboxToolsView').then((m) => m.SandboxToolsView))
} satisfies Partial<Record<RouteId, ReturnType<typeof lazyView>>>

/**
 * After the first paint, every view is fetched and evaluated in the background so that a click on the sidebar (or a
 * `g` shortcut) does not wait for a download: Transactions, the view an operator opens most, first, then the others
 * one at a time (preload.ts says why). Waiting for idle moments instead left views unloaded for seconds on a busy
 * machine.
 */
function usePreloadViews() {
  useEffect(() => {
    let cancelled = false
    void preloadInTurn([VIEWS.transactions, ...Object.values(VIEWS)], () => cancelled)
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
    <Suspense fallback={<ViewLoading />}>
      <lazyRoute.View />
    </Suspense>
  )
}
