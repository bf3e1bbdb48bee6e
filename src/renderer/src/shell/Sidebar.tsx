import type { ProfileEnvironment } from '../../../shared/profile'
import { ROUTES, useUi } from '../stores/ui'
import { useBadges } from '../stores/badges'

export function Sidebar({ environment }: { environment: ProfileEnvironment }) {
  const route = useUi((s) => s.route)
  const go = useUi((s) => s.go)
  const collapsed = useUi((s) => s.sidebarCollapsed)
  const toggle = useUi((s) => s.toggleSidebar)
  const approvals = useBadges((s) => s.pendingApprovals)
  const items = ROUTES.filter((r) => !('sandboxOnly' in r) || environment !== 'production')
  return (
    <nav className="sidebar" aria-label="Sections">
      <button
        className="sidebar-toggle"
        onClick={toggle}
        aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
      >
        {collapsed ? '»' : '«'}
      </button>
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <button
              className={route === item.id ? 'nav-item active' : 'nav-item'}
              aria-current={route === item.id ? 'page' : undefined}
              onClick={() => go(item.id)}
              title={`${item.label} (g then ${item.key})`}
            >
              <span className="nav-label">{item.label}</span>
              {item.id === 'approvals' && approvals > 0 && (
                <span className="badge" aria-label={`${approvals} awaiting approval`}>
                  {approvals}
                </span>
              )}
              <kbd className="nav-key" aria-hidden>
                g {item.key}
              </kbd>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  )
}
