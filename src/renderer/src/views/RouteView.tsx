import type { ProfileView } from '../../../shared/profile'
import { useUi } from '../stores/ui'
import { HomeView } from './HomeView'
import { SettingsView } from './SettingsView'
import { ApprovalsView } from './approvals/ApprovalsView'
import { TransactionsView } from './transactions/TransactionsView'

export function RouteView({ profile }: { profile: ProfileView | undefined }) {
  const route = useUi((s) => s.route)
  switch (route) {
    case 'home':
      return <HomeView profile={profile} />
    case 'settings':
      return <SettingsView />
    case 'transactions':
      return <TransactionsView />
    case 'approvals':
      return <ApprovalsView />
    default:
      return <HomeView profile={profile} />
  }
}
