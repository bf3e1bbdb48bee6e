/**
 * Whether a key event's target is a field the operator types into. Every keyboard layer (the global shortcuts, a
 * list's keys, the keys held while a view loads) leaves such keys to the field, so they must agree on what one is.
 */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName))
}
