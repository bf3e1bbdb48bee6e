import { describe, expect, it } from 'vitest'
import { approvalsTarget, trayModel, type DesktopSnapshot } from '../../../../src/main/domain/desktop/tray-model'
import { decideClose } from '../../../../src/main/domain/desktop/close-policy'

function snapshot(pending: Record<string, number>, watched = Object.keys(pending)): DesktopSnapshot {
  return {
    activeProfileId: 'local',
    profiles: [
      {
        id: 'local',
        name: 'Local sandbox',
        watched: watched.includes('local'),
        pending: pending['local'] ?? 0,
        followsGate: false
      },
      {
        id: 'acme',
        name: 'Acme production',
        watched: watched.includes('acme'),
        pending: pending['acme'] ?? 0,
        followsGate: true
      },
      { id: 'idle', name: 'Idle', watched: false, pending: 0, followsGate: false }
    ]
  }
}

/** The whole tray menu: Approvals and the two watched profiles as labelled, then the idle one and Quit. */
const menu = (approvals: string, local: string, acme: string) => [
  'Open Paydesk',
  approvals,
  '—',
  local,
  acme,
  'Idle',
  '—',
  'Quit Paydesk'
]
const labels = (s: DesktopSnapshot) => trayModel(s).items.map((i) => ('label' in i ? i.label : '—'))

describe('tray contents per approval count', () => {
  it('nothing waiting: Approvals (0), a calm tooltip, a badge of 0', () => {
    const model = trayModel(snapshot({ local: 0, acme: 0 }))
    expect(model.total).toBe(0)
    expect(model.tooltip).toBe('Paydesk: no payments awaiting approval')
    expect(labels(snapshot({ local: 0, acme: 0 }))).toEqual(menu('Approvals (0)', 'Local sandbox', 'Acme production'))
  })

  it('one waiting in one profile', () => {
    const model = trayModel(snapshot({ local: 1 }))
    expect(model.total).toBe(1)
    expect(model.tooltip).toBe('Paydesk: 1 payment awaiting approval')
    expect(labels(snapshot({ local: 1 }))).toContain('Approvals (1)')
    expect(labels(snapshot({ local: 1 }))).toContain('Local sandbox (1)')
  })

  it('counts across every watched profile and names each in the tooltip', () => {
    const model = trayModel(snapshot({ local: 2, acme: 5 }))
    expect(model.total).toBe(7)
    expect(model.tooltip).toBe('Paydesk: 7 payments awaiting approval (Local sandbox 2, Acme production 5)')
    expect(labels(snapshot({ local: 2, acme: 5 }))).toEqual(
      menu('Approvals (7)', 'Local sandbox (2)', 'Acme production (5)')
    )
  })

  it('a profile that is not watched adds nothing, even with a stale count', () => {
    const s = snapshot({ local: 1, acme: 9 }, ['local'])
    expect(trayModel(s).total).toBe(1)
  })

  it('the profile switcher checks the active profile only', () => {
    const items = trayModel(snapshot({ local: 0 })).items.filter((i) => i.kind === 'profile')
    expect(items.map((i) => [i.profileId, i.checked])).toEqual([
      ['local', true],
      ['acme', false],
      ['idle', false]
    ])
  })

  it('"Approvals" opens the active profile when it has some, else the first watched profile that does', () => {
    expect(approvalsTarget(snapshot({ local: 1, acme: 3 }))).toBe('local')
    expect(approvalsTarget(snapshot({ local: 0, acme: 3 }))).toBe('acme')
    expect(approvalsTarget(snapshot({ local: 0, acme: 0 }))).toBe('local')
  })
})

describe('closing the window', () => {
  const base = { quitting: false, anyGateFollowed: true, trayAvailable: true, alreadyAnnounced: false }
  it('keeps watching in the tray while rules are on, and says so the first time only', () => {
    expect(decideClose(base)).toEqual({ action: 'hide', announce: true })
    expect(decideClose({ ...base, alreadyAnnounced: true })).toEqual({ action: 'hide', announce: false })
  })
  it('quits when no profile has rules on, when the operator chose Quit, or without a tray', () => {
    expect(decideClose({ ...base, anyGateFollowed: false })).toEqual({ action: 'quit' })
    expect(decideClose({ ...base, quitting: true })).toEqual({ action: 'quit' })
    expect(decideClose({ ...base, trayAvailable: false })).toEqual({ action: 'quit' })
  })
})
