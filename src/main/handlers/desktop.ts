import type { ThemeChoice } from '../../shared/appearance'
import type { desktopChannels, LinkedView } from '../../shared/ipc/channels/desktop'
import type { AppSettings } from '../domain/desktop/app-settings'
import type { UpdateService } from '../domain/desktop/updates'
import type { Handlers } from './dispatch'

/** What the desktop window lends these channels (Electron); browser mode lends none, and each answer says nothing. */
export interface DesktopWindow {
  /** Pops the native right-click menu over the window; `copyId` adds "Copy id". */
  showContextMenu?(copyId: string | null): void
  /** The view a link asked for before the page was listening, handed over once. */
  takeLaunchLink?(): LinkedView | null
  /** The operator chose a theme: the window's own background and native parts (menus, dialogs) follow it. */
  applyTheme?(theme: ThemeChoice): void
}

interface Deps {
  settings: AppSettings
  updates: UpdateService
  window: DesktopWindow | undefined
}

/** The desktop channels (src/shared/ipc/channels/desktop.ts): the window's menus and links, appearance, updates. */
export function desktopHandlers(d: Deps): Pick<Handlers, keyof typeof desktopChannels> {
  const { settings, updates } = d
  return {
    'desktop.contextMenu': async ({ copyId }) => {
      d.window?.showContextMenu?.(copyId)
      return null
    },
    'desktop.takeLaunchLink': async () => d.window?.takeLaunchLink?.() ?? null,
    'appearance.get': async () => settings.appearance,
    'appearance.set': async (input) => {
      const saved = await settings.setAppearance(input)
      d.window?.applyTheme?.(saved.theme)
      return saved
    },
    'updates.settings.get': async () => settings.updates,
    'updates.settings.set': async (input) => {
      const saved = await settings.setUpdates(input)
      updates.applySettings()
      return saved
    },
    'updates.status': async () => updates.status(),
    'updates.check': () => updates.check(),
    'updates.install': () => updates.install()
  }
}
