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
