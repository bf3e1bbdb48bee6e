import { useCallback, useState } from 'react'
import { listMemory, useListMemory } from '../stores/list-memory'
import { ROW_HEIGHT } from './WindowedTable'

/** Rows above the first visible one that a restored window starts with. */
const MARGIN_ROWS = 30

/**
 * Filters, window offset, scroll and selection of one list, remembered in useListMemory so the list is as the
 * operator left it when they come back. Changing a filter starts again at the top.
 */
export function useListState<F extends Record<string, string>>(listKey: string, defaults: F) {
  const [memory] = useState(() => listMemory(listKey))
  const save = useListMemory((s) => s.save)
  const [filters, setFilters] = useState<F>(() => ({ ...defaults, ...memory.filters }) as F)
  const [offset, setOffset] = useState(() => Math.max(0, Math.floor(memory.scrollTop / ROW_HEIGHT) - MARGIN_ROWS))
  const [selectedId, setSelectedId] = useState<string | null>(memory.selectedId)
  const [generation, setGeneration] = useState(0)

  const setFilter = useCallback(
    (key: keyof F & string, value: string) => {
      setFilters((current) => {
        const next = { ...current, [key]: value }
        save(listKey, { filters: next, scrollTop: 0 })
        return next
      })
      setOffset(0)
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
    offset,
    setOffset,
    selectedId,
    select,
    onScroll,
    /** Key for the table: a new filter mounts a fresh one at the top. */
    tableKey: generation,
    /** Where the first table of this visit scrolls to. */
    initialScrollTop: generation === 0 ? memory.scrollTop : 0
  }
}
export type ListState<F extends Record<string, string>> = ReturnType<typeof useListState<F>>
