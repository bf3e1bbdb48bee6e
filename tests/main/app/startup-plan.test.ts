import { describe, expect, it } from 'vitest'
import { StartupPlan } from '../../../src/main/app/startup-plan'
import type { Handlers } from '../../../src/main/handlers/dispatch'

/** A promise the test settles when it says so: the plan's events are held, never raced against a timer. */
function deferred<T = void>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}

/** Whether a promise has settled, once every callback already queued has run. */
async function state(promise: Promise<unknown>): Promise<'pending' | 'resolved' | 'rejected'> {
  let seen: 'pending' | 'resolved' | 'rejected' = 'pending'
  promise.then(
    () => (seen = 'resolved'),
    () => (seen = 'rejected')
  )
  for (let i = 0; i < 10; i++) await Promise.resolve()
  return seen
}

function planWith() {
  const firstScreen = deferred()
  const addressed = deferred()
  const started = deferred()
  const plan = new StartupPlan({
    firstScreen: firstScreen.promise,
    localAddressed: () => addressed.promise,
    localStarted: () => started.promise
  })
  return { plan, firstScreen, addressed, started }
}

describe('the start-up plan', () => {
  it("opens the Local profile's session once its sandbox is started, and any other profile's at once", async () => {
    const { plan, addressed, started } = planWith()
    expect(await state(plan.sessionOpens(false))).toBe('resolved')
    const local = plan.sessionOpens(true)
    // An address alone is not enough: the session's credentials are final only once the sandbox is started.
    addressed.resolve()
    expect(await state(local)).toBe('pending')
    started.resolve()
    expect(await state(local)).toBe('resolved')
  })

  it('starts polling and refreshes of a service already up once the first screen is served', async () => {
    const { plan, firstScreen } = planWith()
    const start = plan.sessionStart()
    expect(start.serviceReady).toBeUndefined()
    expect(await state(start.pollsAfter)).toBe('pending')
    expect(await state(start.refreshesAfter)).toBe('pending')
    firstScreen.resolve()
    expect(await state(start.pollsAfter)).toBe('resolved')
    expect(await state(start.refreshesAfter)).toBe('resolved')
  })

  it('polls the Local sandbox once it answers and the first screen is served, whichever comes last', async () => {
    const { plan, firstScreen } = planWith()
    const sandbox = deferred()
    const start = plan.sessionStart(sandbox.promise)
    expect(start.serviceReady).toBe(sandbox.promise)
    firstScreen.resolve()
    // Refreshes wait for the first screen only; polling waits for the sandbox as well.
    expect(await state(start.refreshesAfter)).toBe('resolved')
    expect(await state(start.pollsAfter)).toBe('pending')
    sandbox.resolve()
    expect(await state(start.pollsAfter)).toBe('resolved')
  })

  it('waits for the first screen after a sandbox that answered early', async () => {
    const { plan, firstScreen } = planWith()
    const start = plan.sessionStart(Promise.resolve())
    expect(await state(start.pollsAfter)).toBe('pending')
    firstScreen.resolve()
    expect(await state(start.pollsAfter)).toBe('resolved')
  })

  it('never starts polling a sandbox that failed to come up', async () => {
    const { plan, firstScreen } = planWith()
    const sandbox = deferred()
    const start = plan.sessionStart(sandbox.promise)
    sandbox.promise.catch(() => undefined)
    sandbox.reject(new Error('did not start'))
    firstScreen.resolve()
    expect(await state(start.pollsAfter)).toBe('rejected')
  })

  it("answers profile calls once the Local profile's address is final, and no earlier", async () => {
    const { plan, addressed } = planWith()
    const asked: string[] = []
    const handlers = plan.afterLocalAddressed({
      'profiles.list': async () => {
        asked.push('profiles.list')
        return []
      }
    } as unknown as Partial<Handlers>) as unknown as Record<string, (input?: unknown) => Promise<unknown>>
    const answer = handlers['profiles.list']!()
    expect(await state(answer)).toBe('pending')
    expect(asked).toEqual([])
    addressed.resolve()
    expect(await state(answer)).toBe('resolved')
    expect(asked).toEqual(['profiles.list'])
  })
})
