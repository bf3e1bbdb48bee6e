import { useEffect } from 'react'
import { isTyping } from '../ui/typing'

/**
 * Keys pressed while a view loads on demand. The view's own keys (list keys: j/k, Enter, "/" then text for its filter)
 * are registered only once its module is in, so without this a key pressed in that moment was lost. The keys nobody
 * handled are held while the view loads, then given to it, in order, once it is on screen.
 */
interface HeldKey {
  key: string
  code: string
  shiftKey: boolean
}

let held: HeldKey[] = []

function isTextField(el: Element | null): el is HTMLInputElement | HTMLTextAreaElement {
  return el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && /^(text|search|)$/.test(el.type))
}

/** While mounted (a view is loading): keys that no shortcut took, pressed outside any field, are held. */
export function useHoldKeys(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // Registered after the global shortcuts, so a key they took (g then a letter, the palette) is already marked.
      if (event.defaultPrevented || isTyping(event.target) || event.ctrlKey || event.metaKey || event.altKey) return
      held.push({ key: event.key, code: event.code, shiftKey: event.shiftKey })
    }
    window.addEventListener('keydown', onKey)
    return () => {
      window.removeEventListener('keydown', onKey)
      // The view that arrives takes them in this same commit (replayHeldKeys); keys held for a view the operator left
      // before it loaded are dropped, never given to a later one.
      const mine = held
      setTimeout(() => {
        if (held === mine) held = []
      }, 0)
    }
  }, [])
}

/**
 * Gives the held keys to the view now on screen, as if pressed again: each goes to the focused element first, so "/"
 * focuses the view's filter and the letters typed after it land in that filter. Taken now, given in a task of their
 * own, as real keys are: inside a React effect, React would batch the updates of all of them into one.
 */
export function replayHeldKeys(): void {
  const keys = held
  held = []
  if (keys.length > 0) setTimeout(() => give(keys), 0)
}

function give(keys: HeldKey[]): void {
  for (const k of keys) {
    const target = document.activeElement ?? document.body
    const event = new KeyboardEvent('keydown', { ...k, bubbles: true, cancelable: true })
    const handled = !target.dispatchEvent(event)
    if (handled || k.key.length !== 1 || !isTextField(document.activeElement)) continue
    // A printable key in a text field: typed into it. React hears the input event as if the operator typed.
    const field = document.activeElement
    field.setRangeText(
      k.key,
      field.selectionStart ?? field.value.length,
      field.selectionEnd ?? field.value.length,
      'end'
    )
    field.dispatchEvent(new Event('input', { bubbles: true }))
  }
}
