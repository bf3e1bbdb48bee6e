import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { batchNotifications, type AppNotification } from '../../../../src/main/domain/notifications/batch'

const payment = (i: number): AppNotification => ({
  id: `n${i}`,
  title: 'Payment awaiting approval',
  body: `${i}.00 USD from $alice@example.com`,
  route: 'approvals',
  targetId: `Transaction:${i}`
})

/** What `batchNotifications` over these options shows, and the function to notify through. */
function collect(options?: Parameters<typeof batchNotifications>[1]) {
  const shown: AppNotification[] = []
  return { shown, notify: batchNotifications((n) => shown.push(n), options) }
}

describe('batchNotifications', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('shows a lone event at once, opening its exact item', () => {
    const { shown, notify } = collect()
    notify(payment(1))
    expect(shown).toEqual([payment(1)])
  })

  it('shows the first few of a burst one by one and groups the rest into one summary of their section', () => {
    const { shown, notify } = collect({ windowMs: 1000, maxSingles: 3 })
    for (let i = 1; i <= 12; i++) notify(payment(i))
    expect(shown.map((n) => n.id)).toEqual(['n1', 'n2', 'n3'])
    vi.advanceTimersByTime(1000)
    expect(shown).toHaveLength(4)
    expect(shown[3]).toMatchObject({ title: '9 more: Payment awaiting approval', route: 'approvals' })
    expect(shown[3]!.targetId).toBeUndefined()
  })

  it('groups per profile, so a group of a background profile still opens that profile', () => {
    const { shown, notify } = collect({ windowMs: 1000, maxSingles: 1 })
    notify(payment(1))
    for (let i = 2; i <= 5; i++) notify({ ...payment(i), profileId: i % 2 ? 'acme' : 'beta' })
    vi.advanceTimersByTime(1000)
    expect(shown.slice(1).map((n) => [n.title, n.profileId])).toEqual([
      ['2 more: Payment awaiting approval', 'beta'],
      ['2 more: Payment awaiting approval', 'acme']
    ])
  })

  it('starts afresh after a quiet period', () => {
    const { shown, notify } = collect({ windowMs: 1000, maxSingles: 1 })
    notify(payment(1))
    notify(payment(2))
    vi.advanceTimersByTime(1000)
    notify(payment(3))
    expect(shown.map((n) => n.id)).toEqual(['n1', 'n2', 'n3'])
  })
})
