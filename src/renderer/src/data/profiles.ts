import { queryOptions, useQuery } from '@tanstack/react-query'
import type { IpcError } from '../../../shared/ipc/define'
import type { ProfileList, ProfileView } from '../../../shared/profile'
import { paydesk } from '../bridge/paydesk'
import { read } from './channel-query'
import { channelKey, forgetProfileData, invalidateChannels, queryClient } from './query-client'

const PROFILES_KEY = channelKey('profiles.list', null)

/**
 * The profile list is read once and then kept by main's `profiles.changed` events (applyProfileList), so a view that
 * mounts reads it from the cache instead of asking main again.
 */
const profilesQuery = queryOptions<ProfileList, IpcError>({
  queryKey: PROFILES_KEY,
  queryFn: () => read('profiles.list', null),
  staleTime: Infinity
})

export function activeProfile(list: ProfileList | null | undefined): ProfileView | undefined {
  return list?.profiles.find((p) => p.id === list.activeProfileId)
}

/** The profile list, its failure and a way to ask again (the first screen shows the failure with a button). */
export function useProfileList(): { list: ProfileList | null; error: IpcError | null; reload(): void } {
  const query = useQuery(profilesQuery)
  return { list: query.data ?? null, error: query.error ?? null, reload: () => void reloadProfiles() }
}

/** Part of the profile list (`select` keeps a view from drawing again when the rest of the list changes). */
export const useProfiles = <T>(select: (list: ProfileList | undefined) => T): T =>
  useQuery({ ...profilesQuery, select }).data ?? select(undefined)

export const useActiveProfile = (): ProfileView | undefined => useProfiles(activeProfile)

/** The profile list outside React (event handlers), or undefined before it is known. */
export const profileList = (): ProfileList | undefined => queryClient.getQueryData<ProfileList>(PROFILES_KEY)

export const activeProfileId = (): string | undefined => profileList()?.activeProfileId

/** Asks for the list now: the page's first call, which the first screen waits for (bridge/events.ts says why). */
export const loadProfiles = (): Promise<void> => queryClient.prefetchQuery(profilesQuery)

/** Asks main again: after a write to a profile that main reports by answer rather than by event. */
export const reloadProfiles = (): Promise<void> => invalidateChannels(['profiles.list'])

/** A list told by main (its `profiles.changed` event or a switch's answer); another active profile drops the old data. */
export function applyProfileList(list: ProfileList): boolean {
  const before = activeProfileId()
  queryClient.setQueryData(PROFILES_KEY, list)
  const switched = before !== list.activeProfileId
  // Another profile's data must never stay on screen: every view re-queries.
  if (switched) forgetProfileData()
  return switched
}

/** Makes a profile the active one; its failure, or null. */
export async function switchProfile(id: string): Promise<IpcError | null> {
  const result = await paydesk.invoke('profiles.switch', { id })
  if (!result.ok) return result.error
  applyProfileList(result.value)
  return null
}
