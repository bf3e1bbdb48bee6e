import { create } from 'zustand'
import type { Notice } from '../../../shared/notice'

/** Damaged or orphaned state main told us about, until the operator dismisses it; fed by bridge/events.ts. */
export const useNotices = create<{ notices: Notice[]; apply(notices: Notice[]): void }>((set) => ({
  notices: [],
  apply: (notices) => set({ notices })
}))
