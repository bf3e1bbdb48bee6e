import { QueryObserver } from '@tanstack/react-query'
import { beforeEach, describe, expect, it, vi } from 'vitest'

// Main's gate is not asked here: the test tells the counts and the profile lists itself, as main's events do.
vi.mock('../../../src/renderer/src/bridge/paydesk', () => ({ paydesk: { invoke: () => new Promise(() => {}) } }))
import { countsQuery, pendingApprovalsOf, setPendingApprovals } from '../../../src/renderer/src/data/pending-approvals'
import { activeProfileId, applyProfileList } from '../../../src/renderer/src/data/profiles'
import { queryClient } from '../../../src/renderer/src/data/query-client'
import type { ProfileList } from '../../../src/shared/profile'

const listWith = (activeProfileId: string) => ({ activeProfileId, profiles: [] }) as unknown as ProfileList
const shown = () => pendingApprovalsOf(queryClient.getQueryData(countsQuery.queryKey), activeProfileId())

describe('approval counts belong to the profile they came from', () => {
  beforeEach(() => {
    queryClient.clear()
    applyProfileList(listWith('local'))
    // The sidebar's badge reads the counts for as long as the page is open.
    new QueryObserver(queryClient, countsQuery).subscribe(() => {})
  })

  it('shows only the active profile’s count; a switch shows the other profile’s, never the previous one', () => {
    setPendingApprovals('local', 1)
    expect(shown()).toBe(1)
    // Another profile's gate counts in the background: nothing on screen changes.
    setPendingApprovals('prod', 3)
    expect(shown()).toBe(1)
    applyProfileList(listWith('team'))
    expect(shown()).toBe(0) // no count told for this profile yet
    applyProfileList(listWith('prod'))
    expect(shown()).toBe(3)
    // A late count of the profile left behind stays with it.
    setPendingApprovals('local', 2)
    expect(shown()).toBe(3)
    applyProfileList(listWith('local'))
    expect(shown()).toBe(2)
  })

  it('shows no count before the profile list is known', () => {
    expect(pendingApprovalsOf({ local: 4 }, undefined)).toBe(0)
  })
})
