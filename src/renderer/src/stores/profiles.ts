import { create } from 'zustand'
import type { ProfileList, ProfileView } from '../../../shared/profile'
import type { IpcError } from '../../../shared/ipc/define'
import { paydesk } from '../bridge/paydesk'
import { forgetProfileData } from '../data/query-client'

interface ProfilesState {
  list: ProfileList | null
  error: IpcError | null
  load(): Promise<void>
  switchTo(id: string): Promise<IpcError | null>
  apply(list: ProfileList): void
}

export const useProfiles = create<ProfilesState>((set) => ({
  list: null,
  error: null,
  load: async () => {
    const result = await paydesk.invoke('profiles.list', null)
    set(result.ok ? { list: result.value, error: null } : { error: result.error })
  },
  switchTo: async (id) => {
    const result = await paydesk.invoke('profiles.switch', { id })
    if (!result.ok) return result.error
    set({ list: result.value, error: null })
    forgetProfileData()
    return null
  },
  apply: (list) => set({ list })
}))

export function activeProfile(list: ProfileList | null): ProfileView | undefined {
  return list?.profiles.find((p) => p.id === list.activeProfileId)
}
