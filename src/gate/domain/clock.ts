/** Time as the gate sees it, injected so tests step it instead of racing real timers. */
export interface GateClock {
  now(): number
  /** Calls `fn` after `ms`; the returned function cancels it. */
  after(ms: number, fn: () => void): () => void
}

export const systemClock: GateClock = {
  now: () => Date.now(),
  after: (ms, fn) => {
    const t = setTimeout(fn, ms)
    return () => clearTimeout(t)
  }
}

/**
 * An AbortSignal that fires after `ms` on the gate's clock (not on wall time, so a test's clock decides when a budget
 * runs out); `done` cancels it once the work it bounds has finished.
 */
export function budget(clock: GateClock, ms: number): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController()
  const cancel = clock.after(Math.max(1, ms), () =>
    controller.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError'))
  )
  return { signal: controller.signal, done: cancel }
}
