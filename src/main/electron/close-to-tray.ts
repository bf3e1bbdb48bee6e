import type { BrowserWindow } from 'electron'
import { decideClose, KEPT_IN_TRAY_NOTIFICATION } from '../domain/desktop/close-policy'
import type { AppSettings } from '../domain/desktop/app-settings'
import type { AppNotification } from '../domain/notifications/batch'

/**
 * Closing the window: hidden to the tray while any profile has an approval gate (told once, the first time ever), closed
 * otherwise. Electron's `close` event is the only place a close can still be turned into a hide.
 */
export function closeToTray(
  window: Pick<BrowserWindow, 'on' | 'hide'>,
  deps: {
    isQuitting: () => boolean
    anyGateFollowed: () => boolean
    trayAvailable: boolean
    settings: Pick<AppSettings, 'keptInTrayAnnounced' | 'markKeptInTrayAnnounced'>
    notify: (n: AppNotification) => void
    onHidden: () => void
    log: (m: string) => void
  }
): void {
  window.on('close', (event) => {
    const decision = decideClose({
      quitting: deps.isQuitting(),
      anyGateFollowed: deps.anyGateFollowed(),
      trayAvailable: deps.trayAvailable,
      alreadyAnnounced: deps.settings.keptInTrayAnnounced
    })
    if (decision.action === 'quit') return
    event.preventDefault()
    window.hide()
    deps.onHidden()
    if (decision.announce) {
      deps.notify({ ...KEPT_IN_TRAY_NOTIFICATION })
      void deps.settings.markKeptInTrayAnnounced().catch(() => deps.log('could not remember the tray notice'))
    }
  })
}
