import { create } from 'zustand'
import type { UpdateStatus } from '../../../shared/ipc/channels/desktop'

/** Where the desktop app's update stands, as main last said. */
export const useUpdates = create<{ status: UpdateStatus | null; apply(status: UpdateStatus): void }>((set) => ({
  status: null,
  apply: (status) => set({ status })
}))
