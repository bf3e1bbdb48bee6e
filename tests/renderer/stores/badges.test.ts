import { beforeEach, describe, expect, it, vi } from 'vitest'

// The profile store's bridge is not needed: the test applies profile lists itself.
vi.mock('../../../src/renderer/src/bridge/paydesk', () => ({ paydesk: {} }))
import { useBadges } from '../../../src/renderer/src/stores/badges'
import { useProfiles } from '../../../src/renderer/src/stores/profiles'
import type { ProfileList } from '../../../src/shared/profile'

const listWith = (activeProfileId: string) => ({ activeProfileId, profiles: [] }) as unknown as ProfileList

describe('approval counts belong to the profile they came from', () => {
  beforeEach(() => {
    useBadges.setState({ byProfile: {}, profileId: null, pendingApprovals: 0 })
    useProfiles.getState().apply(listWith('local'))
  })

  it('shows only the active profile’s count; a switch shows the other profile’s, never the previous one', () => {
    useBadges.getState().setPendingApprovals('local', 1)
    expect(useBadges.getState().pendingApprovals).toBe(1)
    // Another profile's gate counts in the background: nothing on screen changes.
    useBadges.getState().setPendingApprovals('prod', 3)
    expect(useBadges.getState().pendingApprovals).toBe(1)
    useProfiles.getState().apply(listWith('team'))
    expect(useBadges.getState().pendingApprovals).toBe(0) // no count told for this profile yet
    useProfiles.getState().apply(listWith('prod'))
    expect(useBadges.getState().pendingApprovals).toBe(3)
    // A late count of the profile left behind stays with it.
    useBadges.getState().setPendingApprovals('local', 2)
    expect(useBadges.getState().pendingApprovals).toBe(3)
    useProfiles.getState().apply(listWith('local'))
    expect(useBadges.getState().pendingApprovals).toBe(2)
  })
})
