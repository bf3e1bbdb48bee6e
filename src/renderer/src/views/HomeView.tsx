import type { ProfileView } from '../../../shared/profile'
import { ConnectionPanel } from './ConnectionPanel'

export function HomeView({ profile }: { profile: ProfileView | undefined }) {
  return (
    <section className="page" aria-labelledby="home-title">
      <h1 id="home-title">Home</h1>
      {profile ? <ConnectionPanel profile={profile} /> : <div className="skeleton-rows" aria-busy="true" />}
    </section>
  )
}
