import { beforeEach, describe, expect, it, vi } from 'vitest'

// The profile list's bridge is not needed: the test applies profile lists itself, as main's events do.
vi.mock('../../../src/renderer/src/bridge/paydesk', () => ({ paydesk: {} }))
import { pendingApprovalsOf, useBadges } from '../../../src/renderer/src/stores/badges'
import { activeProfileId, applyProfileList } from '../../../src/renderer/src/data/profiles'
import type { ProfileList } from '../../../src/shared/profile'

const listWith = (activeProfileId: string) => ({ activeProfileId, profiles: [] }) as unknown as ProfileList
const shown = () => pendingApprovalsOf(useBadges.getState().byProfile, activeProfileId())

describe('approval counts belong to the profile they came from', () => {
  beforeEach(() => {
    useBadges.setState({ byProfile: {} })
    applyProfileList(listWith('local'))
  })

  it('shows only the active profile’s count; a switch shows the other profile’s, never the previous one', () => {
    useBadges.getState().setPendingApprovals('local', 1)
    expect(shown()).toBe(1)
    // Another profile's gate counts in the background: nothing on screen changes.
    useBadges.getState().setPendingApprovals('prod', 3)
    expect(shown()).toBe(1)
    applyProfileList(listWith('team'))
    expect(shown()).toBe(0) // no count told for this profile yet
    applyProfileList(listWith('prod'))
    expect(shown()).toBe(3)
    // A late count of the profile left behind stays with it.
    useBadges.getState().setPendingApprovals('local', 2)
    expect(shown()).toBe(3)
    applyProfileList(listWith('local'))
    expect(shown()).toBe(2)
  })

  it('shows no count before the profile list is known', () => {
    expect(pendingApprovalsOf({ local: 4 }, undefined)).toBe(0)
  })
})
