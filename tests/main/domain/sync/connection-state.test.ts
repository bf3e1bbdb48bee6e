import { describe, expect, it } from 'vitest'
import { ConnectionMonitor, HOLD_MS } from '../../../../src/main/domain/sync/connection-state'
import { NOT_RESPONDING_MS, SLOW_ANSWER_MS, type ConnectionView } from '../../../../src/shared/ipc/channels/sync'
import { FakeClock } from './fake-clock'

function setup() {
  const clock = new FakeClock()
  const monitor = new ConnectionMonitor({ clock, host: 'api.example.com' })
  const seen: ConnectionView[] = []
  monitor.onChange = (v) => seen.push(v)
  /** One attempt that answers `status` after `ms` of clock time. */
  const answer = async (status: number, ms = 50) => {
    monitor.attemptStarted()
    await clock.advance(ms)
    monitor.attemptEnded({ status, ms })
  }
  const fail = async (errorKind: 'unreachable' | 'timeout' | 'reset' | 'tls', ms = 20) => {
    monitor.attemptStarted()
    await clock.advance(ms)
    monitor.attemptEnded({ errorKind, ms })
  }
  const states = () => seen.map((v) => v.state)
  return { clock, monitor, seen, states, answer, fail }
}

describe('ConnectionMonitor: each state from what the requests did', () => {
  it('starts as connecting and shows Live on the first normal answer', async () => {
    const { monitor, states, answer } = setup()
    expect(monitor.view.state).toBe('connecting')
    expect(monitor.view.lastAnswerAt).toBeNull()
    await answer(200)
    expect(states()).toEqual(['live'])
    expect(monitor.view.lastAnswerAt).not.toBeNull()
  })

  it('Slow: an answer that took over SLOW_ANSWER_MS, with how long it took; at the threshold it is still Live', async () => {
    const { monitor, states, answer } = setup()
    await answer(200, SLOW_ANSWER_MS)
    expect(states()).toEqual(['live'])
    await answer(200, 4_200)
    expect(states()).toEqual(['live', 'slow'])
    expect(monitor.view.slowAnswerMs).toBe(4_200)
    expect(monitor.view.detail).toBe('api.example.com answers slowly: an answer took 4.2 s.')
    // A slower one in the same spell is told too.
    await answer(200, 6_000)
    expect(monitor.view.slowAnswerMs).toBe(6_000)
  })

  it('Not responding: a request unanswered for NOT_RESPONDING_MS, at that moment and not before, with the last answer time', async () => {
    const { clock, monitor, states, answer } = setup()
    await answer(200)
    const lastAnswer = monitor.view.lastAnswerAt
    monitor.attemptStarted()
    await clock.advance(NOT_RESPONDING_MS - 1)
    expect(monitor.view.state).toBe('live')
    await clock.advance(1)
    expect(states()).toEqual(['live', 'notResponding'])
    expect(monitor.view.lastAnswerAt).toBe(lastAnswer)
    expect(monitor.view.detail).toBe('api.example.com has not answered a request for 10 s.')
    // Waiting longer is not news: no event every second.
    await clock.advance(60_000)
    expect(states()).toEqual(['live', 'notResponding'])
  })

  it('Not responding also when a request timed out', async () => {
    const { states, answer, fail } = setup()
    await answer(200)
    await fail('timeout', 100)
    expect(states()).toEqual(['live', 'notResponding'])
  })

  it('Offline: refused, unreachable, reset or TLS failures', async () => {
    for (const kind of ['unreachable', 'reset', 'tls'] as const) {
      const { monitor, fail } = setup()
      await fail(kind)
      expect(monitor.view.state).toBe('offline')
      expect(monitor.view.detail).toBe('Paydesk cannot reach api.example.com: no network, or the service is down.')
    }
  })

  it('Signed out on 401 or 403, until a 2xx answer (other answers keep it)', async () => {
    for (const status of [401, 403]) {
      const { clock, monitor, answer } = setup()
      await answer(status)
      expect(monitor.view.state).toBe('signedOut')
      expect(monitor.view.detail).toContain(`(HTTP ${status})`)
      await answer(404)
      await clock.advance(HOLD_MS)
      expect(monitor.view.state).toBe('signedOut')
      await answer(200)
      await clock.advance(HOLD_MS)
      expect(monitor.view.state).toBe('live')
    }
  })

  it('Signed out without a client secret', () => {
    const { monitor } = setup()
    monitor.noCredentials('This profile has no client secret yet: add it in Settings.')
    expect(monitor.view.state).toBe('signedOut')
  })

  it('Service error on 5xx and 429 answers, which are still answers', async () => {
    const { monitor, answer } = setup()
    await answer(503)
    expect(monitor.view.state).toBe('serviceError')
    expect(monitor.view.lastAnswerAt).not.toBeNull()
    const other = setup()
    await other.answer(429)
    expect(other.monitor.view.state).toBe('serviceError')
  })

  it('Local sandbox stopped outranks everything and stays for the session', async () => {
    const { clock, monitor, states, answer } = setup()
    await answer(200)
    monitor.sandboxStopped('The Local sandbox’s process stopped unexpectedly (signal SIGKILL).')
    expect(states()).toEqual(['live', 'sandboxStopped'])
    await answer(200)
    await clock.advance(HOLD_MS * 3)
    expect(monitor.view.state).toBe('sandboxStopped')
  })
})

describe('ConnectionMonitor: hysteresis', () => {
  it('a worse state shows at once; a better one only after HOLD_MS with nothing worse in between', async () => {
    const { clock, monitor, states, answer, fail } = setup()
    await answer(200)
    await fail('unreachable')
    expect(monitor.view.state).toBe('offline')
    await answer(200)
    await clock.advance(HOLD_MS - 100)
    expect(monitor.view.state).toBe('offline')
    await clock.advance(100)
    expect(states()).toEqual(['live', 'offline', 'live'])
  })

  it('an unreachable service probed again and again stays Offline: one change, not a flip per probe', async () => {
    const { clock, states, fail } = setup()
    for (let i = 0; i < 10; i++) {
      await fail('unreachable')
      await clock.advance(2_000)
    }
    expect(states()).toEqual(['offline'])
  })

  it('a service alternating slow and fast answers shows Slow steadily, not Live/Slow/Live', async () => {
    const { clock, states, answer } = setup()
    await answer(200)
    for (let i = 0; i < 6; i++) {
      await answer(200, 5_000)
      await clock.advance(1_000)
      await answer(200, 100)
      await clock.advance(1_000)
    }
    expect(states()).toEqual(['live', 'slow'])
    // Then only fast answers: Live once they have held.
    for (let i = 0; i < 3; i++) {
      await answer(200, 100)
      await clock.advance(5_000)
    }
    expect(states()).toEqual(['live', 'slow', 'live'])
  })

  it('a hung request released late: the late slow answer does not light Live; Live comes once fast answers held', async () => {
    const { clock, monitor, states, answer } = setup()
    await answer(200)
    monitor.attemptStarted()
    await clock.advance(40_000)
    monitor.attemptEnded({ status: 200, ms: 40_000 })
    expect(monitor.view.state).toBe('notResponding')
    await answer(200, 100)
    await clock.advance(HOLD_MS)
    expect(states()).toEqual(['live', 'notResponding', 'live'])
  })

  it('a bad event during the hold restarts it', async () => {
    const { clock, monitor, answer, fail } = setup()
    await fail('unreachable')
    await answer(200)
    await clock.advance(HOLD_MS / 2)
    await fail('unreachable')
    await answer(200)
    await clock.advance(HOLD_MS - 200)
    expect(monitor.view.state).toBe('offline')
    await clock.advance(200)
    expect(monitor.view.state).toBe('live')
  })

  it('attempts that end out of order: a fast one ending first does not hide the old one still waiting', async () => {
    const { clock, monitor } = setup()
    monitor.attemptStarted()
    await clock.advance(1_000)
    monitor.attemptStarted()
    await clock.advance(100)
    monitor.attemptEnded({ status: 200, ms: 100 })
    expect(monitor.view.state).toBe('live')
    await clock.advance(NOT_RESPONDING_MS - 1_100)
    expect(monitor.view.state).toBe('notResponding')
  })

  it('dispose stops every timer', async () => {
    const { clock, monitor } = setup()
    monitor.attemptStarted()
    monitor.dispose()
    expect(clock.pending()).toEqual([])
    await clock.advance(NOT_RESPONDING_MS * 2)
    expect(monitor.view.state).toBe('connecting')
  })
})
