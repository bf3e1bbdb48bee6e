import { app, Menu, nativeImage, Tray, type MenuItemConstructorOptions } from 'electron'
import { trayModel, type DesktopSnapshot, type TrayItem } from '../domain/desktop/tray-model'

interface TrayActions {
  open(): void
  openApprovals(): void
  switchProfile(profileId: string): void
  quit(): void
}

/** The tray model's items, one to one, as a native menu template. */
function trayMenuTemplate(items: TrayItem[], actions: TrayActions): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    switch (item.kind) {
      case 'open':
        return { label: item.label, click: () => actions.open() }
      case 'approvals':
        return { label: item.label, enabled: item.enabled, click: () => actions.openApprovals() }
      case 'separator':
        return { type: 'separator' }
      case 'profile':
        return {
          label: item.label,
          type: 'radio',
          checked: item.checked,
          click: () => actions.switchProfile(item.profileId)
        }
      case 'quit':
        return { label: item.label, click: () => actions.quit() }
    }
  })
}

/**
 * The tray icon and the dock/taskbar badge. `refresh` rebuilds them from the backend's snapshot, and only when what
 * they show changed (it is called on every backend event). Returns null where the OS has no tray.
 */
export function createAppTray(
  iconPath: string,
  snapshot: () => DesktopSnapshot,
  actions: TrayActions,
  log: (m: string) => void
) {
  let tray: Tray
  try {
    // The app icon is large; trays draw 16 px (32 px on high-density screens, from the same image).
    tray = new Tray(nativeImage.createFromPath(iconPath).resize({ width: 16, height: 16 }))
  } catch {
    log('no system tray on this desktop: closing the window quits Paydesk')
    return null
  }
  let shown = ''
  const refresh = () => {
    if (tray.isDestroyed()) return
    const model = trayModel(snapshot())
    const key = JSON.stringify(model)
    if (key === shown) return
    shown = key
    tray.setToolTip(model.tooltip)
    tray.setContextMenu(Menu.buildFromTemplate(trayMenuTemplate(model.items, actions)))
    // macOS dock and Linux (Unity) launchers show it; elsewhere the call reports false and the tooltip carries it.
    app.setBadgeCount(model.total)
  }
  tray.on('click', () => actions.open())
  refresh()
  return { refresh, destroy: () => tray.destroy() }
}
