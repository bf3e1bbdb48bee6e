import { useEffect } from 'react'
import { create } from 'zustand'
import type { ProfileEnvironment } from '../../../shared/profile'
import { activeProfile, profileList } from '../data/profiles'
import { ROUTES, useUi } from '../stores/ui'
import { isTyping } from '../ui/typing'

/**
 * Every keyboard shortcut of Paydesk, in one place: the list `?` shows is drawn from here, so it cannot drift from
 * what the keys do. The global ones are handled below; the list keys by the lists (ui/list-keys.ts).
 */
export interface Shortcut {
  /** The keys, pressed together or one after another as `then` says. */
  keys: readonly string[]
  then?: boolean
  does: string
}

export interface ShortcutGroup {
  heading: string
  shortcuts: Shortcut[]
}

/** How long after `g` the section letter still counts. */
const G_WINDOW_MS = 1500

export function shortcutGroups(environment: ProfileEnvironment): ShortcutGroup[] {
  const sections = ROUTES.filter((r) => !('sandboxOnly' in r) || environment !== 'production')
  return [
    {
      heading: 'Anywhere',
      shortcuts: [
        { keys: ['Ctrl', 'K'], does: 'Open the command palette: find customers, accounts, transactions; run actions' },
        { keys: ['?'], does: 'Show these shortcuts' },
        { keys: ['Esc'], does: 'Close the palette, this list or a detail' }
      ]
    },
    {
      heading: 'Go to a section',
      shortcuts: sections.map((r) => ({ keys: ['g', r.key], then: true, does: r.label }))
    },
    {
      heading: 'In a list',
      shortcuts: [
        { keys: ['/'], does: 'Search or filter the list' },
        { keys: ['j'], does: 'Next row' },
        { keys: ['k'], does: 'Previous row' },
        { keys: ['Enter'], does: 'Open the selected row' }
      ]
    }
  ]
}

/** Whether the shortcuts list (`?`) is open. */
export const useShortcutsHelp = create<{ open: boolean; setOpen(open: boolean): void }>((set) => ({
  open: false,
  setOpen: (open) => set({ open })
}))

/** `g` then a letter goes to a section; Ctrl/Cmd+K opens the palette; `?` lists the shortcuts; Esc closes them. */
export function useGlobalShortcuts() {
  useEffect(() => {
    let pendingG = 0
    const onKey = (event: KeyboardEvent) => {
      const ui = useUi.getState()
      const help = useShortcutsHelp.getState()
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault()
        help.setOpen(false)
        ui.setPaletteOpen(!ui.paletteOpen)
        return
      }
      if (event.key === 'Escape' && (ui.paletteOpen || help.open)) {
        ui.setPaletteOpen(false)
        help.setOpen(false)
        return
      }
      if (isTyping(event.target) || event.ctrlKey || event.metaKey || event.altKey) return
      if (event.key === '?') {
        event.preventDefault()
        help.setOpen(!help.open)
        return
      }
      if (event.key === 'g') {
        pendingG = Date.now()
        // Taken: a view still loading must not receive it as one of its own keys (held-keys.ts).
        event.preventDefault()
        return
      }
      if (pendingG && Date.now() - pendingG < G_WINDOW_MS) {
        pendingG = 0
        const production = activeProfile(profileList())?.environment === 'production'
        const route = ROUTES.find((r) => r.key === event.key && !(production && 'sandboxOnly' in r))
        if (route) {
          event.preventDefault()
          help.setOpen(false)
          ui.go(route.id)
        }
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
}
