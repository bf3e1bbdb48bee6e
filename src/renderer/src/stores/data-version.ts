import { create } from 'zustand'

type Collection = 'transactions' | 'customers' | 'externalAccounts' | 'internalAccounts' | 'discoveries' | 'approvals'

/**
 * A counter per collection, bumped when main says that collection changed (or the profile switched). Views put the
 * counter in their query's dependencies, so they re-query exactly what changed.
 */
export const useDataVersion = create<{
  versions: Record<Collection, number>
  bump(collections: readonly Collection[]): void
  bumpAll(): void
}>((set) => ({
  versions: { transactions: 0, customers: 0, externalAccounts: 0, internalAccounts: 0, discoveries: 0, approvals: 0 },
  bump: (collections) =>
    set((s) => {
      const versions = { ...s.versions }
      for (const c of collections) versions[c] += 1
      return { versions }
    }),
  bumpAll: () =>
    set((s) => ({
      versions: Object.fromEntries(Object.entries(s.versions).map(([k, v]) => [k, v + 1])) as Record<Collection, number>
    }))
}))
