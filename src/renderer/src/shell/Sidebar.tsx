import {
  ArrowLeftRight,
  Calculator,
  FlaskConical,
  History,
  House,
  Landmark,
  PanelLeftClose,
  PanelLeftOpen,
  Settings,
  ShieldCheck,
  Users,
  Wallet,
  type LucideIcon
} from 'lucide-react'
import type { ProfileEnvironment } from '../../../shared/profile'
import { ROUTES, useUi, type RouteId } from '../stores/ui'
import { usePendingApprovals } from '../data/pending-approvals'

/** One icon per section: all the collapsed sidebar shows, with the section's name as its tooltip and accessible name. */
const ICONS: Record<RouteId, LucideIcon> = {
  home: House,
  approvals: ShieldCheck,
  transactions: ArrowLeftRight,
  customers: Users,
  'external-accounts': Landmark,
  'internal-accounts': Wallet,
  quotes: Calculator,
  history: History,
  sandbox: FlaskConical,
  settings: Settings
}

function NavIcon({ route }: { route: RouteId }) {
  const Icon = ICONS[route]
  return <Icon className="nav-icon" size={18} aria-hidden />
}

export function Sidebar({ environment }: { environment: ProfileEnvironment }) {
  const route = useUi((s) => s.route)
  const go = useUi((s) => s.go)
  const collapsed = useUi((s) => s.sidebarCollapsed)
  const toggle = useUi((s) => s.toggleSidebar)
  const approvals = usePendingApprovals()
  const items = ROUTES.filter((r) => !('sandboxOnly' in r) || environment !== 'production')
  return (
    <nav className="sidebar" aria-label="Sections">
      <button
        className="sidebar-toggle"
        onClick={toggle}
        aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
      >
        {collapsed ? <PanelLeftOpen size={18} aria-hidden /> : <PanelLeftClose size={18} aria-hidden />}
      </button>
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <button
              className={route === item.id ? 'nav-item active' : 'nav-item'}
              aria-current={route === item.id ? 'page' : undefined}
              onClick={() => go(item.id)}
              title={collapsed ? undefined : `${item.label} (g then ${item.key})`}
            >
              <NavIcon route={item.id} />
              {/* Collapsed, the label stays the button's name and shows as its tooltip on hover and focus. */}
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
