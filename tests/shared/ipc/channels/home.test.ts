import { describe, expect, it } from 'vitest'
import { HOME_DAYS, HomeFigures, HomeFiguresInput, isTimeZone } from '../../../../src/shared/ipc/channels/home'

describe('home.figures', () => {
  it('takes a zone Intl knows, and refuses anything else with a sentence', () => {
    expect(HomeFiguresInput.parse({ timeZone: 'UTC' })).toEqual({ timeZone: 'UTC' })
    expect(isTimeZone('Europe/Berlin')).toBe(true)
    const refused = HomeFiguresInput.safeParse({ timeZone: 'Mars/Olympus_Mons' })
    expect(refused.success).toBe(false)
    expect(refused.error?.issues[0]?.message).toBe('Not a time zone this system knows')
    expect(HomeFiguresInput.safeParse({ timeZone: 'UTC', extra: 1 }).success).toBe(false)
  })

  it('answers exactly 30 integer days per series', () => {
    const days = Array.from({ length: HOME_DAYS }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`)
    const zeros = new Array<number>(HOME_DAYS).fill(0)
    const figures = {
      profileId: 'local',
      timeZone: 'UTC',
      days,
      volume: [{ currency: 'USD', incoming: zeros, outgoing: zeros }],
      balances: [{ currency: 'USD', current: 5, endOfDay: zeros }],
      failed: 0,
      syncedAt: null,
      balancesSyncedAt: null
    }
    expect(HomeFigures.safeParse(figures).success).toBe(true)
    expect(
      HomeFigures.safeParse({ ...figures, volume: [{ currency: 'USD', incoming: [1.5], outgoing: zeros }] }).success
    ).toBe(false)
  })
})
