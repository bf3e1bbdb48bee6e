import { create } from 'zustand'

/**
 * A counter per windowed channel, bumped with the query cache's invalidation. A windowed list loads its rows a window
 * at a time through its own loader (offsets follow the viewport), so it re-queries when its channel's counter moves.
 */
export const useWindowGenerations = create<{
  generations: Partial<Record<string, number>>
  /** Bumped with the active profile: what a list remembers of the last profile must not be shown again. */
  profileEpoch: number
  bump(channels: readonly string[]): void
  bumpAll(): void
}>((set) => ({
  generations: {},
  profileEpoch: 0,
  bump: (channels) =>
    set((s) => {
      const generations = { ...s.generations }
      for (const c of channels) generations[c] = (generations[c] ?? 0) + 1
      return { generations }
    }),
  bumpAll: () =>
    set((s) => ({
      profileEpoch: s.profileEpoch + 1,
      generations: Object.fromEntries(Object.entries(s.generations).map(([k, v]) => [k, (v ?? 0) + 1]))
    }))
}))

export const useWindowGeneration = (channel: string): number => useWindowGenerations((s) => s.generations[channel] ?? 0)
