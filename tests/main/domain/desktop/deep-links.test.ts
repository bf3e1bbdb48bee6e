import { describe, expect, it } from 'vitest'
import {
  createDeepLinkRouter,
  linksInArgv,
  loggable,
  type OpenView
} from '../../../../src/main/domain/desktop/deep-links'

const TX = 'Transaction:019542f5-b3e7-1d02-0000-000000000001'

function router(profiles = ['local', 'acme']) {
  const opened: OpenView[] = []
  const logs: string[] = []
  const r = createDeepLinkRouter({
    knownProfileIds: () => profiles,
    open: (v) => opened.push(v),
    log: (m) => logs.push(m)
  })
  return { r, opened, logs }
}

describe('deep-link routing', () => {
  it('opens the view a valid link names, in the profile it names', () => {
    const { r, opened, logs } = router()
    r.openUrl(`paydesk://approvals/${TX}?profile=acme`)
    r.openUrl(`paydesk://transactions/${TX}`)
    expect(opened).toEqual([
      { route: 'approvals', id: TX, profileId: 'acme' },
      { route: 'transactions', id: TX }
    ])
    expect(logs).toEqual([])
  })

  it('refuses a link to a profile this Paydesk does not have, saying so in the log, opening nothing', () => {
    const { r, opened, logs } = router()
    expect(r.openUrl(`paydesk://approvals/${TX}?profile=ghost`)).toEqual({
      refused: 'the link names profile “ghost”, which this Paydesk does not have'
    })
    expect(opened).toEqual([])
    expect(logs).toHaveLength(1)
    expect(logs[0]).toMatch(
      /^deep link refused: the link names profile “ghost”, which this Paydesk does not have: paydesk:\/\/approvals\//
    )
  })

  it('refuses hostile links with a short, printable log line and never throws', () => {
    const { r, opened, logs } = router()
    const hostile = [
      `paydesk://transactions/${'a'.repeat(10_000)}`,
      'paydesk://transactions/x\u0000\n\u001b[31m',
      42,
      null
    ]
    for (const h of hostile) expect(() => r.openUrl(h)).not.toThrow()
    expect(opened).toEqual([])
    expect(logs).toHaveLength(hostile.length)
    for (const line of logs) {
      expect(line.length).toBeLessThan(300)
      // eslint-disable-next-line no-control-regex
      expect(line).not.toMatch(/[\u0000-\u001f]/)
    }
  })

  it('second-instance argv: opens the one link among the launcher arguments', () => {
    const { r, opened } = router()
    const argv = ['C:\\Paydesk\\Paydesk.exe', '--allow-file-access-from-files', `paydesk://customers/Customer:abc`]
    expect(r.openArgv(argv)).toEqual({ open: { route: 'customers', id: 'Customer:abc' } })
    expect(opened).toEqual([{ route: 'customers', id: 'Customer:abc' }])
  })

  it('second-instance argv without a link does nothing (a plain second launch)', () => {
    const { r, opened, logs } = router()
    expect(r.openArgv(['/usr/bin/paydesk', '--no-sandbox'])).toBeNull()
    expect(opened).toEqual([])
    expect(logs).toEqual([])
  })

  it('second-instance argv with two links opens neither', () => {
    const { r, opened, logs } = router()
    const decision = r.openArgv(['paydesk', `paydesk://transactions/${TX}`, `PAYDESK://approvals/${TX}`])
    expect(decision).toEqual({ refused: 'more than one link in one command line' })
    expect(opened).toEqual([])
    expect(logs).toEqual(['deep link refused: 2 links in one command line'])
  })

  it('linksInArgv only counts arguments that claim the scheme', () => {
    expect(linksInArgv(['paydesk', '--paydesk://x', 'paydesk:x', '/tmp/paydesk://y'])).toEqual(['paydesk:x'])
  })

  it('loggable cuts long input and names non-strings by type', () => {
    expect(loggable('x'.repeat(500))).toBe(`${'x'.repeat(80)}… (500 chars)`)
    expect(loggable(undefined)).toBe('(undefined)')
  })
})
