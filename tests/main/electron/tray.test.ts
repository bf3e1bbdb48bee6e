import { EventEmitter } from 'node:events'
import { describe, expect, it, vi } from 'vitest'
import type { DesktopSnapshot } from '../../../src/main/domain/desktop/tray-model'

interface Item {
  label?: string
  type?: string
  checked?: boolean
  click?: () => void
}
const trays: FakeTray[] = []
const badge: number[] = []
class FakeTray extends EventEmitter {
  tooltip = ''
  menu: Item[] = []
  menusBuilt = 0
  constructor(readonly image: unknown) {
    super()
    trays.push(this)
  }
  setToolTip(t: string) {
    this.tooltip = t
  }
  setContextMenu(menu: { items: Item[] }) {
    this.menu = menu.items
    this.menusBuilt++
  }
  isDestroyed = () => false
  destroy() {}
}
vi.mock('electron', () => ({
  Tray: FakeTray,
  Menu: { buildFromTemplate: (items: Item[]) => ({ items }) },
  nativeImage: { createFromPath: (path: string) => ({ resize: (size: object) => ({ path, size }) }) },
  app: { setBadgeCount: (n: number) => badge.push(n) > 0 }
}))

const { createAppTray } = await import('../../../src/main/electron/tray')

function profiles(local: number, acme: number): DesktopSnapshot {
  return {
    activeProfileId: 'local',
    profiles: [
      { id: 'local', name: 'Local sandbox', watched: true, pending: local, followsGate: false },
      { id: 'acme', name: 'Acme', watched: true, pending: acme, followsGate: true }
    ]
  }
}

describe('the tray and the badge', () => {
  const calls: string[] = []
  let current = profiles(0, 0)
  const tray = createAppTray(
    '/icon.png',
    () => current,
    {
      open: () => calls.push('open'),
      openApprovals: () => calls.push('approvals'),
      switchProfile: (id) => calls.push(`switch ${id}`),
      quit: () => calls.push('quit')
    },
    () => {}
  )!
  const fake = trays[0]!
  const labels = () => fake.menu.map((i) => i.label ?? i.type)

  it('starts with the counts of every watched profile, and a badge of 0', () => {
    expect(labels()).toEqual([
      'Open Paydesk',
      'Approvals (0)',
      'separator',
      'Local sandbox',
      'Acme',
      'separator',
      'Quit Paydesk'
    ])
    expect(fake.tooltip).toBe('Paydesk: no payments awaiting approval')
    expect(badge).toEqual([0])
    expect(fake.image).toEqual({ path: '/icon.png', size: { width: 16, height: 16 } })
  })

  it('follows the counts: menu, tooltip and badge change together', () => {
    current = profiles(1, 2)
    tray.refresh()
    expect(labels()).toContain('Approvals (3)')
    expect(labels()).toContain('Acme (2)')
    expect(fake.tooltip).toBe('Paydesk: 3 payments awaiting approval (Local sandbox 1, Acme 2)')
    current = profiles(0, 2)
    tray.refresh()
    expect(badge).toEqual([0, 3, 2])
  })

  it('does not rebuild anything when nothing it shows changed', () => {
    const built = fake.menusBuilt
    tray.refresh()
    tray.refresh()
    expect(fake.menusBuilt).toBe(built)
    expect(badge).toEqual([0, 3, 2])
  })

  it('each item does what it says; clicking the icon opens the window', () => {
    for (const label of ['Open Paydesk', 'Approvals (2)', 'Acme (2)', 'Quit Paydesk'])
      fake.menu.find((i) => i.label === label)!.click!()
    fake.emit('click')
    expect(calls).toEqual(['open', 'approvals', 'switch acme', 'quit', 'open'])
  })
})
