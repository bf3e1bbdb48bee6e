import { _electron as electron, expect, test } from '@playwright/test'
import { appRoot, requireElectron } from '../support/electron'

const binary = requireElectron()

test('the application menu has Edit with the standard roles, View, Window and Help → About with the version, DevTools only unpackaged', async () => {
  const app = await electron.launch({ executablePath: binary, args: [appRoot] })
  await app.firstWindow()
  const menu = await app.evaluate(({ app: electronApp, Menu }) => ({
    version: electronApp.getVersion(),
    packaged: electronApp.isPackaged,
    items: (Menu.getApplicationMenu()?.items ?? []).map((item) => ({
      label: item.label,
      submenu: (item.submenu?.items ?? []).map((sub) => ({ label: sub.label, role: sub.role ?? null }))
    }))
  }))
  expect(menu.items.map((i) => i.label)).toEqual(expect.arrayContaining(['Edit', 'View', 'Window', 'Help']))
  const edit = menu.items
    .find((i) => i.label === 'Edit')!
    .submenu.map((s) => s.role?.toLowerCase())
    .filter(Boolean)
  expect(edit).toEqual(['undo', 'redo', 'cut', 'copy', 'paste', 'selectall'])
  expect(menu.items.find((i) => i.label === 'Help')!.submenu[0]!.label).toBe(`About Paydesk ${menu.version}`)
  // Toggle Developer Tools only where the window has DevTools: run from the build, not in an installed app.
  const view = menu.items.find((i) => i.label === 'View')!.submenu.map((s) => s.role?.toLowerCase())
  expect(view.includes('toggledevtools')).toBe(!menu.packaged)
  await app.close()
})
