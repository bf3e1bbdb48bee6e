import { useEffect, type RefObject } from 'react'

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea, [tabindex]'

/**
 * Focus handling of a modal dialog: Tab and Shift+Tab cycle inside it, and on close focus returns to what had it
 * before it opened (the button or the list row the operator was on).
 */
export function useDialogFocus(ref: RefObject<HTMLElement | null>, open: boolean): void {
  useEffect(() => {
    if (!open) return
    const before = document.activeElement as HTMLElement | null
    const onKey = (event: KeyboardEvent) => {
      const dialog = ref.current
      if (event.key !== 'Tab' || !dialog) return
      const items = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.tabIndex >= 0)
      const first = items[0]
      const last = items[items.length - 1]
      if (!first || !last) return
      const inside = dialog.contains(document.activeElement)
      if (event.shiftKey && (document.activeElement === first || !inside)) {
        event.preventDefault()
        last.focus()
      } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
        event.preventDefault()
        first.focus()
      }
    }
    document.addEventListener('keydown', onKey, true)
    return () => {
      document.removeEventListener('keydown', onKey, true)
      if (before && before.isConnected && before !== document.body) before.focus()
    }
  }, [ref, open])
}
