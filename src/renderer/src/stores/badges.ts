import { create } from 'zustand'

/** Counts shown in the sidebar; fed by main-process events through bridge/events.ts. */
export const useBadges = create<{ pendingApprovals: number; setPendingApprovals(n: number): void }>((set) => ({
  pendingApprovals: 0,
  setPendingApprovals: (pendingApprovals) => set({ pendingApprovals })
}))
