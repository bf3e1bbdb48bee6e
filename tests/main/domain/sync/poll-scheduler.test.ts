import { describe, expect, it } from 'vitest'
import { INTERVALS, PollScheduler, type PollOutcome } from '../../../../src/main/domain/sync/poll-scheduler'
import { FakeClock, flush } from './fake-clock'

function setup(outcomes: () => PollOutcome, initial = {}) {
  const clock = new FakeClock()
  const at: number[] = []
  const s = new PollScheduler(
    async () => {
      at.push(clock.now())
      return outcomes()
    },
    clock,
    initial
  )
  return { clock, at, s }
}

const gaps = (at: number[]) => at.slice(1).map((t, i) => t - at[i]!)

describe('PollScheduler', () => {
  it('polls every second while focused with something in flight, every 5 s when idle', async () => {
    let inFlight = true
    const { clock, at, s } = setup(() => ({ ok: true, inFlight }))
    s.start()
    await clock.advance(3_000)
    expect(gaps(at)).toEqual([1000, 1000, 1000])
    inFlight = false
    await clock.advance(20_000)
    expect(gaps(at).slice(3)).toEqual([1000, 5000, 5000, 5000])
  })

  it('stays at or under 2 requests a minute in the background when idle, and speeds up when focused', async () => {
    const { clock, at, s } = setup(() => ({ ok: true, inFlight: false }), { foreground: false })
    s.start()
    await clock.advance(1) // the first poll
    const before = at.length
    await clock.advance(60_000)
    expect(at.length - before).toBeLessThanOrEqual(2)
    expect(s.decision.ms).toBe(INTERVALS.backgroundIdle)
    s.set({ foreground: true })
    const n = at.length
    await clock.advance(5_000)
    expect(at.length).toBe(n + 1) // within the 5 s foreground interval, not after the 30 s one
  })

  it('pauses while the machine sleeps and polls at once on wake', async () => {
    const { clock, at, s } = setup(() => ({ ok: true, inFlight: true }))
    s.start()
    await clock.advance(1_000)
    s.set({ suspended: true })
    const n = at.length
    await clock.advance(10 * 60_000)
    expect(at.length).toBe(n)
    expect(clock.pending()).toEqual([])
    s.set({ suspended: false })
    await clock.advance(0)
    expect(at.length).toBe(n + 1)
  })

  it('backs off offline (2 s doubling to 30 s) and on errors (to 60 s), and honours Retry-After', async () => {
    let outcome: PollOutcome = { ok: false, kind: 'offline' }
    const { clock, at, s } = setup(() => outcome)
    s.start()
    await clock.advance(200_000)
    expect(gaps(at).slice(0, 6)).toEqual([2000, 4000, 8000, 16000, 30000, 30000])
    outcome = { ok: true, inFlight: true }
    await clock.advance(30_000)
    outcome = { ok: false, kind: 'error' }
    at.length = 0
    await clock.advance(300_000)
    expect(gaps(at).slice(0, 6)).toEqual([2000, 4000, 8000, 16000, 32000, 60000])
    outcome = { ok: false, kind: 'error', retryAfterMs: 7_000 }
    at.length = 0
    await clock.advance(60_000)
    await clock.advance(30_000)
    expect(gaps(at).every((g) => g === 7000)).toBe(true)
  })

  it('never runs two polls at once, whatever asks for one', async () => {
    const clock = new FakeClock()
    let release!: () => void
    let calls = 0
    const s = new PollScheduler(
      () =>
        new Promise<PollOutcome>((resolve) => {
          calls++
          release = () => resolve({ ok: true, inFlight: true })
        }),
      clock
    )
    s.start()
    await clock.advance(0)
    expect(calls).toBe(1)
    const a = s.pollNow()
    const b = s.pollNow()
    s.set({ foreground: true })
    await clock.advance(10_000)
    expect(calls).toBe(1)
    release()
    await a
    await b
    await flush()
    expect(s.maxConcurrent).toBe(1)
    await clock.advance(1_000)
    expect(calls).toBe(2)
  })

  it('goes straight on while catching up with history', async () => {
    let pages = 3
    const { clock, at, s } = setup(() => ({ ok: true, inFlight: false, catchingUp: --pages > 0 }))
    s.start()
    await clock.advance(0)
    expect(at).toEqual([0, 0, 0])
    await clock.advance(5_000)
    expect(at).toEqual([0, 0, 0, 5000])
  })
})
