import { useEffect } from 'react'
import { connectEvents } from './bridge/events'
import { activeProfile, useProfileList } from './data/profiles'
import { useUi } from './stores/ui'
import { Sidebar } from './shell/Sidebar'
import { TopBar } from './shell/TopBar'
import { ProductionBand } from './shell/ProductionBand'
import { CommandPalette } from './shell/CommandPalette'
import { ShortcutsDialog } from './shell/ShortcutsDialog'
import { Toasts } from './shell/Toasts'
import { NoticesBanner } from './shell/NoticesBanner'
import { UpdateBanner } from './shell/UpdateBanner'
import { useGlobalShortcuts } from './shell/shortcuts'
import { RouteView } from './views/RouteView'

export function App() {
  const { list, error, reload } = useProfileList()
  const collapsed = useUi((s) => s.sidebarCollapsed)
  const profile = activeProfile(list)
  useGlobalShortcuts()

  useEffect(() => connectEvents(), [])

  const environment = profile?.environment ?? 'local'
  return (
    <div className={`app env-${environment}${collapsed ? ' sidebar-collapsed' : ''}`} data-environment={environment}>
      {environment === 'production' && <ProductionBand />}
      <TopBar profile={profile} />
      <Sidebar environment={environment} />
      <main className="content" id="content">
        <NoticesBanner />
        <UpdateBanner />
        {error && !list ? (
          <div className="state state-error" role="alert">
            <h2>Paydesk could not load its profiles</h2>
            <p>{error.message}</p>
            <button onClick={reload}>Try again</button>
          </div>
        ) : (
          <RouteView profile={profile} />
        )}
      </main>
      <CommandPalette />
      <ShortcutsDialog />
      <Toasts />
    </div>
  )
}
