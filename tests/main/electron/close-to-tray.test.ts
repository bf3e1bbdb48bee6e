import { EventEmitter } from 'node:events'
import { describe, expect, it, vi } from 'vitest'
import type { AppNotification } from '../../../src/main/domain/notifications/batch'

vi.mock('electron', () => ({}))
const { closeToTray } = await import('../../../src/main/electron/close-to-tray')

function setup(options: { followsGate: boolean; tray?: boolean; announced?: boolean }) {
  const window = Object.assign(new EventEmitter(), { hidden: 0, hide: () => window.hidden++ })
  const notified: AppNotification[] = []
  const state = { quitting: false, followsGate: options.followsGate, announced: options.announced ?? false }
  closeToTray(window as never, {
    isQuitting: () => state.quitting,
    anyGateFollowed: () => state.followsGate,
    trayAvailable: options.tray ?? true,
    settings: {
      get keptInTrayAnnounced() {
        return state.announced
      },
      markKeptInTrayAnnounced: async () => void (state.announced = true)
    },
    notify: (n) => notified.push(n),
    onHidden: () => {},
    log: () => {}
  })
  /** Clicks the window's close button; true when the close was turned into a hide. */
  const close = () => {
    let prevented = false
    window.emit('close', { preventDefault: () => (prevented = true) })
    return prevented
  }
  return { window, notified, state, close }
}

describe('closing the window', () => {
  it('with approval rules on, hides it to the tray and says so the first time only', async () => {
    const { window, notified, close } = setup({ followsGate: true })
    expect(close()).toBe(true)
    expect(window.hidden).toBe(1)
    expect(notified.map((n) => n.title)).toEqual(['Paydesk is still watching'])
    await Promise.resolve()
    expect(close()).toBe(true)
    expect(window.hidden).toBe(2)
    expect(notified).toHaveLength(1)
  })

  it('an operator told in an earlier launch is not told again', () => {
    const { notified, close } = setup({ followsGate: true, announced: true })
    expect(close()).toBe(true)
    expect(notified).toEqual([])
  })

  it('with no rules on, or after Quit, or without a tray, really closes', () => {
    expect(setup({ followsGate: false }).close()).toBe(false)
    expect(setup({ followsGate: true, tray: false }).close()).toBe(false)
    const quitting = setup({ followsGate: true })
    quitting.state.quitting = true
    expect(quitting.close()).toBe(false)
    expect(quitting.window.hidden).toBe(0)
  })

  it('follows the rules as they are at the moment of closing', () => {
    const s = setup({ followsGate: false })
    expect(s.close()).toBe(false)
    s.state.followsGate = true
    expect(s.close()).toBe(true)
  })
})
