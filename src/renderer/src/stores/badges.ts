import { create } from 'zustand'
import { useProfiles } from './profiles'

interface Badges {
  /** Each profile's count of payments its approval gate holds for a person, under the profile it came from. */
  byProfile: Record<string, number>
  /** The profile whose counts are on screen. */
  profileId: string | null
  /** The shown profile's count (0 until its gate tells one): never another profile's. */
  pendingApprovals: number
  setPendingApprovals(profileId: string, n: number): void
  showProfile(profileId: string | null): void
}

/**
 * Counts shown in the sidebar, Home and Approvals, fed by main-process events through bridge/events.ts. Each count is
 * kept under the profile it came from, so a screen can only ever show the active profile's: a switch shows the new
 * profile's count, never the previous profile's.
 */
export const useBadges = create<Badges>((set) => ({
  byProfile: {},
  profileId: null,
  pendingApprovals: 0,
  setPendingApprovals: (profileId, n) =>
    set((s) => {
      const byProfile = { ...s.byProfile, [profileId]: n }
      return { byProfile, pendingApprovals: s.profileId ? (byProfile[s.profileId] ?? 0) : 0 }
    }),
  showProfile: (profileId) =>
    set((s) => ({ profileId, pendingApprovals: profileId ? (s.byProfile[profileId] ?? 0) : 0 }))
}))

// The profile on screen is the active one, however the profile list arrived (first load or a switch).
useProfiles.subscribe((s) => {
  const active = s.list?.activeProfileId ?? null
  if (useBadges.getState().profileId !== active) useBadges.getState().showProfile(active)
})

/** Payments the active profile's approval gate holds for a person (0 when unknown). */
export function usePendingApprovals(): number {
  const active = useProfiles((s) => s.list?.activeProfileId)
  return useBadges((s) => (active ? (s.byProfile[active] ?? 0) : 0))
}
