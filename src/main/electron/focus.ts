import type { BrowserWindow } from 'electron'
import { EVENT_CHANNEL } from '../../shared/ipc/wire'

/**
 * Brings the window forward and tells the page which item to open: what a click on a notification (or a second launch)
 * does. It only opens the item; it never acts on it.
 */
export function showItem(
  window: Pick<BrowserWindow, 'isMinimized' | 'restore' | 'show' | 'focus' | 'webContents'> | null,
  route: string,
  id?: string,
  /** The profile the item belongs to: the page switches to it first. */
  profileId?: string
): void {
  if (!window) return
  showWindow(window)
  window.webContents.send(EVENT_CHANNEL, 'navigate', {
    route,
    ...(id !== undefined && { id }),
    ...(profileId !== undefined && { profileId })
  })
}

/** Brings the window forward (from the tray, the dock, or a second launch) without changing what it shows. */
export function showWindow(window: Pick<BrowserWindow, 'isMinimized' | 'restore' | 'show' | 'focus'> | null): void {
  if (!window) return
  if (window.isMinimized()) window.restore()
  window.show()
  window.focus()
}
