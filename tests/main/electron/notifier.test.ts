import { EventEmitter } from 'node:events'
import { describe, expect, it, vi } from 'vitest'

const shown: FakeNotification[] = []
class FakeNotification extends EventEmitter {
  static isSupported = () => true
  constructor(readonly options: { title: string; body: string }) {
    super()
  }
  show() {
    shown.push(this)
  }
}
vi.mock('electron', () => ({ Notification: FakeNotification }))

const { createNativeNotifier } = await import('../../../src/main/electron/notifier')
const { showItem } = await import('../../../src/main/electron/focus')

function fakeWindow(minimized = false) {
  const calls: string[] = []
  const sent: unknown[][] = []
  return {
    calls,
    sent,
    isMinimized: () => minimized,
    restore: () => void calls.push('restore'),
    show: () => void calls.push('show'),
    focus: () => void calls.push('focus'),
    webContents: { send: (...args: unknown[]) => void sent.push(args) }
  }
}

describe('native notifications', () => {
  it('show the event, and a click focuses the window on that exact approval without acting on it', () => {
    const window = fakeWindow(true)
    const notify = createNativeNotifier((n) => showItem(window as never, n.route, n.targetId))
    notify({
      id: 'n1',
      title: 'Payment awaiting approval',
      body: '12.00 USD from $a@b.c',
      route: 'approvals',
      targetId: 'Transaction:1'
    })

    expect(shown).toHaveLength(1)
    expect(shown[0]!.options).toMatchObject({ title: 'Payment awaiting approval', body: '12.00 USD from $a@b.c' })
    expect(window.calls).toEqual([])

    shown[0]!.emit('click')
    expect(window.calls).toEqual(['restore', 'show', 'focus'])
    expect(window.sent).toEqual([['paydesk:event', 'navigate', { route: 'approvals', id: 'Transaction:1' }]])
  })

  it('does nothing when the window is gone', () => {
    expect(() => showItem(null, 'approvals', 'Transaction:1')).not.toThrow()
  })
})
