import type { ProfileView } from '../../../shared/profile'
import { useUi } from '../stores/ui'
import { HomeView } from './HomeView'
import { SettingsView } from './SettingsView'
import { ApprovalsView } from './approvals/ApprovalsView'
import { TransactionsView } from './transactions/TransactionsView'
import { CustomersView } from './customers/CustomersView'
import { ExternalAccountsView } from './external-accounts/ExternalAccountsView'
import { InternalAccountsView } from './internal-accounts/InternalAccountsView'
import { SandboxToolsView } from './sandbox-tools/SandboxToolsView'
import { QuotesView } from './quotes/QuotesView'

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
    case 'customers':
      return <CustomersView />
    case 'external-accounts':
      return <ExternalAccountsView />
    case 'internal-accounts':
      return <InternalAccountsView />
    case 'quotes':
      return <QuotesView />
    case 'sandbox':
      return <SandboxToolsView />
    default:
      return <HomeView profile={profile} />
  }
}
