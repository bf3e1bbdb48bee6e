import { app, Menu, type MenuItemConstructorOptions } from 'electron'

/**
 * The application menu: the standard roles, so copy and paste (and their shortcuts) work in every field, and Help →
 * About with the version. Toggle Developer Tools only where the window has DevTools (not in an installed app). Kept as
 * data so tests read exactly what Electron receives.
 */
export function appMenuTemplate(
  platform: NodeJS.Platform,
  version: string,
  options: { devTools: boolean }
): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin'
  const about: MenuItemConstructorOptions = { label: `About Paydesk ${version}`, click: () => app.showAboutPanel() }
  return [
    ...(mac
      ? [
          {
            label: 'Paydesk',
            submenu: [
              { role: 'about' },
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              { role: 'quit' }
            ]
          } satisfies MenuItemConstructorOptions
        ]
      : [{ label: 'File', submenu: [{ role: 'quit' }] } satisfies MenuItemConstructorOptions]),
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' }
      ]
    },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        ...(options.devTools ? [{ role: 'toggleDevTools' } satisfies MenuItemConstructorOptions] : []),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' }
      ]
    },
    { label: 'Window', role: 'windowMenu' },
    { label: 'Help', role: 'help', submenu: [about] }
  ]
}

export function installAppMenu(version: string, options: { devTools: boolean }): void {
  app.setAboutPanelOptions({ applicationName: 'Paydesk', applicationVersion: version, version })
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(process.platform, version, options)))
}
