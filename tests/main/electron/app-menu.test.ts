import { describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => ({ app: { showAboutPanel: vi.fn() }, Menu: {} }))

const { appMenuTemplate } = await import('../../../src/main/electron/app-menu')

describe('the application menu', () => {
  it.each(['linux', 'win32', 'darwin'] as const)(
    '%s: Edit has the standard roles; Help → About names the version',
    (platform) => {
      const menu = appMenuTemplate(platform, '1.2.3', { devTools: false })
      const edit = menu.find((m) => m.label === 'Edit')!.submenu as Array<{ role?: string }>
      expect(edit.map((i) => i.role).filter(Boolean)).toEqual(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll'])
      expect(menu.map((m) => m.label)).toEqual(expect.arrayContaining(['View', 'Window', 'Help']))
      const help = menu.find((m) => m.label === 'Help')!.submenu as Array<{ label?: string }>
      expect(help[0]!.label).toBe('About Paydesk 1.2.3')
    }
  )

  it.each(['linux', 'win32', 'darwin'] as const)(
    '%s: Toggle Developer Tools is offered only where the window has DevTools (not in an installed app)',
    (platform) => {
      const viewRoles = (devTools: boolean) =>
        (
          appMenuTemplate(platform, '1.2.3', { devTools }).find((m) => m.label === 'View')!.submenu as Array<{
            role?: string
          }>
        ).map((i) => i.role)
      expect(viewRoles(false)).not.toContain('toggleDevTools')
      expect(viewRoles(true)).toContain('toggleDevTools')
    }
  )
})
