import { beforeEach, describe, expect, it } from 'vitest'
import { isRouteId, ROUTES, useUi } from '../../../src/renderer/src/stores/ui'

beforeEach(() =>
  useUi.setState({ route: 'home', focusId: null, paletteOpen: false, sidebarCollapsed: false, toasts: [] })
)

describe('navigation', () => {
  it('opens a screen on the item it was asked for, and closes the command palette on the way', () => {
    useUi.getState().setPaletteOpen(true)
    useUi.getState().go('transactions', 'Transaction:1')
    expect(useUi.getState()).toMatchObject({ route: 'transactions', focusId: 'Transaction:1', paletteOpen: false })
    // Going somewhere without an item leaves nothing to open there.
    useUi.getState().go('customers')
    expect(useUi.getState()).toMatchObject({ route: 'customers', focusId: null })
  })

  it('knows its routes by id and gives each sidebar section its own shortcut key', () => {
    expect(isRouteId('external-accounts')).toBe(true)
    expect(isRouteId('../settings')).toBe(false)
    const keys = ROUTES.map((r) => r.key)
    expect(new Set(keys).size).toBe(keys.length)
  })
})

describe('notices', () => {
  it('replaces a notice with the same id instead of stacking it, and keeps the newest 50', () => {
    const { pushToast, dismissToast } = useUi.getState()
    pushToast({ id: 'a', title: 'Incoming $1.00', body: 'first' })
    pushToast({ id: 'a', title: 'Incoming $1.00', body: 'again' })
    expect(useUi.getState().toasts).toEqual([{ id: 'a', title: 'Incoming $1.00', body: 'again' }])

    for (let i = 0; i < 60; i++) pushToast({ id: `n${i}`, title: `Notice ${i}`, body: '' })
    const ids = useUi.getState().toasts.map((t) => t.id)
    expect(ids).toHaveLength(50)
    expect(ids.at(-1)).toBe('n59')
    expect(ids).not.toContain('a')

    dismissToast('n59')
    expect(useUi.getState().toasts.map((t) => t.id)).not.toContain('n59')
  })
})
