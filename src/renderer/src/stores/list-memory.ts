import { create } from 'zustand'

/** What a list looked like when the operator left it: filters, scroll and selection, restored on return. */
export interface ListMemory {
  filters: Record<string, string>
  scrollTop: number
  selectedId: string | null
}

const EMPTY: ListMemory = { filters: {}, scrollTop: 0, selectedId: null }

export const useListMemory = create<{
  lists: Record<string, ListMemory>
  save(list: string, patch: Partial<ListMemory>): void
}>((set) => ({
  lists: {},
  save: (list, patch) => set((s) => ({ lists: { ...s.lists, [list]: { ...(s.lists[list] ?? EMPTY), ...patch } } }))
}))

export function listMemory(list: string): ListMemory {
  return useListMemory.getState().lists[list] ?? EMPTY
}
