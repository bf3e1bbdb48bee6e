import { useEffect } from 'react'
import { activeProfile, useProfiles } from '../stores/profiles'
import { ROUTES, useUi } from '../stores/ui'
import { isTyping } from '../ui/typing'

/** `g` then a letter goes to a section; Ctrl/Cmd+K opens the palette; Esc closes it. */
export function useGlobalShortcuts() {
  useEffect(() => {
    let pendingG = 0
    const onKey = (event: KeyboardEvent) => {
      const ui = useUi.getState()
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault()
        ui.setPaletteOpen(!ui.paletteOpen)
        return
      }
      if (event.key === 'Escape' && ui.paletteOpen) {
        ui.setPaletteOpen(false)
        return
      }
      if (isTyping(event.target) || event.ctrlKey || event.metaKey || event.altKey) return
      if (event.key === 'g') {
        pendingG = Date.now()
        // Taken: a view still loading must not receive it as one of its own keys (held-keys.ts).
        event.preventDefault()
        return
      }
      if (pendingG && Date.now() - pendingG < 1500) {
        pendingG = 0
        const production = activeProfile(useProfiles.getState().list)?.environment === 'production'
        const route = ROUTES.find((r) => r.key === event.key && !(production && 'sandboxOnly' in r))
        if (route) {
          event.preventDefault()
          ui.go(route.id)
        }
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
}
