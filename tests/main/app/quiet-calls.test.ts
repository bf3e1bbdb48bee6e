import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Handlers } from '../../../src/main/handlers/dispatch'
import { QuietCalls } from '../../../src/main/app/quiet-calls'
// Date.now and setTimeout, both of which vitest's fake timers replace.
import { realClock } from '../../../src/main/domain/sync/poll-scheduler'

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

/** A handler that answers when the test says so. */
function slowHandler() {
  const answers: (() => void)[] = []
  const handler = () => new Promise<unknown>((resolve) => answers.push(() => resolve(null)))
  return { handler, answerAll: () => answers.splice(0).forEach((a) => a()) }
}

function watch(calls: QuietCalls) {
  const state = { settled: false }
  void calls.settled.then(() => (state.settled = true))
  return state
}

const observed = (calls: QuietCalls, handler: () => Promise<unknown>) =>
  calls.observe({ 'app.info': handler } as unknown as Handlers)['app.info'] as unknown as () => Promise<unknown>

describe('the window counts as settled', () => {
  it('once nothing was asked for the quiet time', async () => {
    const calls = new QuietCalls(500, 5_000, realClock)
    const state = watch(calls)
    await vi.advanceTimersByTimeAsync(499)
    expect(state.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(state.settled).toBe(true)
  })

  it('not while a call is running, however long it takes, and only the quiet time after it answered', async () => {
    const calls = new QuietCalls(500, 5_000, realClock)
    const state = watch(calls)
    const slow = slowHandler()
    const call = observed(calls, slow.handler)()
    await vi.advanceTimersByTimeAsync(2_000)
    expect(state.settled).toBe(false)
    slow.answerAll()
    await call
    await vi.advanceTimersByTimeAsync(400)
    expect(state.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(100)
    expect(state.settled).toBe(true)
  })

  it('each new call starts the quiet time again', async () => {
    const calls = new QuietCalls(500, 5_000, realClock)
    const state = watch(calls)
    const quick = observed(calls, async () => null)
    for (let i = 0; i < 5; i++) {
      await vi.advanceTimersByTimeAsync(300)
      await quick()
    }
    expect(state.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(500)
    expect(state.settled).toBe(true)
  })

  it('at the latest after the longest wait, even if the window keeps asking', async () => {
    const calls = new QuietCalls(500, 3_000, realClock)
    const state = watch(calls)
    const slow = slowHandler()
    void observed(calls, slow.handler)()
    await vi.advanceTimersByTimeAsync(2_999)
    expect(state.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(state.settled).toBe(true)
  })

  it('passes inputs, answers and failures through unchanged', async () => {
    const calls = new QuietCalls(500, 5_000, realClock)
    const handlers = calls.observe({
      'app.info': async (input: unknown) => ({ echoed: input }),
      'notices.list': async () => {
        throw new Error('boom')
      }
    } as unknown as Handlers) as unknown as Record<string, (input: unknown) => Promise<unknown>>
    await expect(handlers['app.info']!(7)).resolves.toEqual({ echoed: 7 })
    await expect(handlers['notices.list']!(null)).rejects.toThrow('boom')
  })
})
