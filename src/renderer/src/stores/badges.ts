import { create } from 'zustand'
import { useProfiles } from '../data/profiles'

interface Badges {
  /** Each profile's count of payments its approval gate holds for a person, under the profile it came from. */
  byProfile: Record<string, number>
  setPendingApprovals(profileId: string, n: number): void
}

/**
 * Counts shown in the sidebar, Home and Approvals, fed by main-process events through bridge/events.ts. Each count is
 * kept under the profile it came from, so a screen can only ever show the active profile's: a switch shows the new
 * profile's count, never the previous profile's.
 */
export const useBadges = create<Badges>((set) => ({
  byProfile: {},
  setPendingApprovals: (profileId, n) => set((s) => ({ byProfile: { ...s.byProfile, [profileId]: n } }))
}))

/** A profile's count of payments waiting for a person (0 until its gate tells one, and with no profile). */
export const pendingApprovalsOf = (byProfile: Record<string, number>, profileId: string | undefined): number =>
  profileId ? (byProfile[profileId] ?? 0) : 0

/** Payments the active profile's approval gate holds for a person (0 when unknown). */
export function usePendingApprovals(): number {
  const active = useProfiles((list) => list?.activeProfileId)
  return useBadges((s) => pendingApprovalsOf(s.byProfile, active))
}
