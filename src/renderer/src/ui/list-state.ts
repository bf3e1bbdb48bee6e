import { useCallback, useState } from 'react'
import { listMemory, useListMemory } from '../stores/list-memory'

/**
 * Filters, scroll and selection of one list, remembered in useListMemory so the list is as the operator left it when
 * they come back. Changing a filter starts again at the top (the same table scrolls up; nothing is remounted).
 */
export function useListState<F extends Record<string, string>>(listKey: string, defaults: F) {
  const [memory] = useState(() => listMemory(listKey))
  const save = useListMemory((s) => s.save)
  const [filters, setFilters] = useState<F>(() => ({ ...defaults, ...memory.filters }) as F)
  const [selectedId, setSelectedId] = useState<string | null>(memory.selectedId)
  const [generation, setGeneration] = useState(0)

  const setFilter = useCallback(
    (key: keyof F & string, value: string) => {
      setFilters((current) => {
        const next = { ...current, [key]: value }
        save(listKey, { filters: next, scrollTop: 0 })
        return next
      })
      setGeneration((g) => g + 1)
    },
    [listKey, save]
  )

  const select = useCallback(
    (id: string | null) => {
      setSelectedId(id)
      save(listKey, { selectedId: id })
    },
    [listKey, save]
  )

  const onScroll = useCallback((scrollTop: number) => save(listKey, { scrollTop }), [listKey, save])

  return {
    filters,
    setFilter,
    selectedId,
    select,
    onScroll,
    /** Changes with every filter change: the table scrolls back to the top when it does. */
    scrollResetKey: generation,
    /** Where the first table of this visit scrolls to. */
    initialScrollTop: generation === 0 ? memory.scrollTop : 0
  }
}
export type ListState<F extends Record<string, string>> = ReturnType<typeof useListState<F>>
