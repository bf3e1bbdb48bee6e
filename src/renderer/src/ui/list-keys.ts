import { useEffect } from 'react'
import { isTyping } from './typing'

/**
 * List keyboard: j/k move the selection, Enter opens, / focuses the filter, Esc closes the detail. Ignored while the
 * operator is typing in a field.
 */
export function useListKeys(options: {
  count: number
  selected: number
  select(index: number): void
  open?(index: number): void
  close?(): void
  filterRef?: React.RefObject<HTMLInputElement | null>
}) {
  const { count, selected, select, open, close, filterRef } = options
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null
      const typing = isTyping(target)
      // Enter on a focused button or link is that control's own action, not "open the selected row".
      const onControl = !!target && ['BUTTON', 'A'].includes(target.tagName)
      if (event.key === 'Escape') {
        if (typing) target?.blur()
        close?.()
        return
      }
      if (typing || event.ctrlKey || event.metaKey || event.altKey) return
      if (event.key === 'j' && count > 0) select(Math.min(count - 1, selected + 1))
      else if (event.key === 'k' && count > 0) select(Math.max(0, selected - 1))
      else if (event.key === 'Enter' && selected >= 0 && !onControl) open?.(selected)
      else if (event.key === '/' && filterRef?.current) {
        event.preventDefault()
        filterRef.current.focus()
      } else return
      event.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [count, selected, select, open, close, filterRef])
}
