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

/** QuietCalls with a quiet time of 500 ms and `longest` as its longest wait, and whether it has said settled yet. */
function quietCalls(longest = 5_000) {
  const calls = new QuietCalls(500, longest, realClock)
  const state = { settled: false }
  void calls.settled.then(() => (state.settled = true))
  return { calls, state }
}

/** Not settled 1 ms before `ms` from now, settled at `ms`. */
async function expectSettledIn(state: { settled: boolean }, ms: number) {
  await vi.advanceTimersByTimeAsync(ms - 1)
  expect(state.settled).toBe(false)
  await vi.advanceTimersByTimeAsync(1)
  expect(state.settled).toBe(true)
}

const observed = (calls: QuietCalls, handler: () => Promise<unknown>) =>
  calls.observe({ 'app.info': handler } as unknown as Handlers)['app.info'] as unknown as () => Promise<unknown>

describe('the window counts as settled', () => {
  it('once nothing was asked for the quiet time', async () => {
    const { state } = quietCalls()
    await expectSettledIn(state, 500)
  })

  it('not while a call is running, however long it takes, and only the quiet time after it answered', async () => {
    const { calls, state } = quietCalls()
    const slow = slowHandler()
    const call = observed(calls, slow.handler)()
    await vi.advanceTimersByTimeAsync(2_000)
    expect(state.settled).toBe(false)
    slow.answerAll()
    await call
    await expectSettledIn(state, 500)
  })

  it('each new call starts the quiet time again', async () => {
    const { calls, state } = quietCalls()
    const quick = observed(calls, async () => null)
    for (let i = 0; i < 5; i++) {
      await vi.advanceTimersByTimeAsync(300)
      await quick()
    }
    await expectSettledIn(state, 500)
  })

  it('at the latest after the longest wait, even if the window keeps asking', async () => {
    const { calls, state } = quietCalls(3_000)
    const slow = slowHandler()
    void observed(calls, slow.handler)()
    await expectSettledIn(state, 3_000)
  })

  it('passes inputs, answers and failures through unchanged', async () => {
    const { calls } = quietCalls()
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
