import { EventEmitter } from 'node:events'
import { describe, expect, it, vi } from 'vitest'
import type { LinkedView } from '../../../src/shared/ipc/channels/desktop'

const app = Object.assign(new EventEmitter(), {
  protocols: [] as string[],
  setAsDefaultProtocolClient(protocol: string) {
    this.protocols.push(protocol)
    return true
  }
})
vi.mock('electron', () => ({ app }))

const { handleDeepLinks } = await import('../../../src/main/electron/deep-links')

const TX = 'Transaction:019542f5-b3e7-1d02-0000-000000000001'

function openUrl(url: string) {
  let prevented = false
  app.emit('open-url', { preventDefault: () => (prevented = true) }, url)
  return prevented
}

describe('paydesk:// links in the desktop app', () => {
  const shown: LinkedView[] = []
  const logs: string[] = []
  let focused = 0
  const links = handleDeepLinks({ focus: () => focused++, log: (m) => logs.push(m) })

  it('registers the scheme with the OS', () => {
    expect(app.protocols).toEqual(['paydesk'])
  })

  it('keeps a link that arrives before the profiles are loaded, and hands it to the page once it listens', () => {
    expect(openUrl(`paydesk://approvals/${TX}?profile=acme`)).toBe(true)
    links.start(
      () => ['local', 'acme'],
      (view) => shown.push(view)
    )
    expect(shown).toEqual([])
    expect(links.takeLaunchLink()).toEqual({ route: 'approvals', id: TX, profileId: 'acme' })
    expect(links.takeLaunchLink()).toBeNull()
  })

  it('open-url (macOS): once the page listens, a link opens its view at once', () => {
    openUrl(`paydesk://customers/Customer:c1`)
    expect(shown).toEqual([{ route: 'customers', id: 'Customer:c1' }])
  })

  it('second-instance (Windows, Linux): brings the window forward and opens the link on its command line', () => {
    app.emit('second-instance', {}, ['/opt/Paydesk/paydesk', '--no-sandbox', `paydesk://transactions/${TX}`], '/')
    expect(focused).toBe(1)
    expect(shown.at(-1)).toEqual({ route: 'transactions', id: TX })
  })

  it('second-instance without a link only brings the window forward', () => {
    const before = shown.length
    app.emit('second-instance', {}, ['/opt/Paydesk/paydesk'], '/')
    expect(focused).toBe(2)
    expect(shown.length).toBe(before)
  })

  it('refuses and logs a hostile link or an unknown profile, through either door, opening nothing', () => {
    const before = shown.length
    openUrl('paydesk://transactions/..%2f..%2fetc%2fpasswd')
    openUrl(`paydesk://approvals/${TX}?profile=ghost`)
    app.emit('second-instance', {}, ['paydesk', 'paydesk://approvals/Transaction:1/approve'], '/')
    expect(shown.length).toBe(before)
    expect(logs).toHaveLength(3)
    expect(logs[1]).toContain('“ghost”, which this Paydesk does not have')
    expect(logs.every((l) => l.startsWith('deep link refused: '))).toBe(true)
  })
})
