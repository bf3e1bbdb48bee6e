import { realClock, type SchedulerClock } from '../domain/sync/poll-scheduler'
import type { Handlers } from '../handlers/dispatch'

/** How long the window must have asked nothing before it counts as settled. */
export const SETTLED_QUIET_MS = 500
/** The longest anything waits for that: a window that keeps asking does not hold polling off for long. */
export const SETTLED_AT_MOST_MS = 5_000

/**
 * The polls' timers (unref'd, so they never keep main alive) with a monotonic now: a change of the wall clock at
 * start-up neither holds polling off nor starts it early.
 */
const monotonicClock: SchedulerClock = { ...realClock, now: () => performance.now() }

/**
 * Says when the window's first screen has been served: no call has been running or started for `quietMs`, or
 * `atMostMs` passed since start-up. Work nobody is looking at yet waits for it: the first poll loads the HTTP client
 * (0.1–0.5 s of main's thread on a small machine), which held the first screen's answers from the cache behind it.
 */
export class QuietCalls {
  private running = 0
  private lastCallAt: number
  private timer: unknown
  private settle!: () => void
  readonly settled: Promise<void> = new Promise((resolve) => (this.settle = resolve))
  private done = false

  constructor(
    private readonly quietMs = SETTLED_QUIET_MS,
    atMostMs = SETTLED_AT_MOST_MS,
    private readonly clock: SchedulerClock = monotonicClock
  ) {
    this.lastCallAt = clock.now()
    this.check()
    clock.setTimeout(() => this.finish(), atMostMs)
  }

  /** The same handlers, each counted while it runs. */
  observe(handlers: Handlers): Handlers {
    const observed: Record<string, (input: never) => Promise<unknown>> = {}
    for (const [name, handler] of Object.entries(handlers) as [string, (input: never) => Promise<unknown>][]) {
      observed[name] = async (input) => {
        this.running += 1
        this.lastCallAt = this.clock.now()
        try {
          return await handler(input)
        } finally {
          this.running -= 1
          this.lastCallAt = this.clock.now()
          this.check()
        }
      }
    }
    return observed as Handlers
  }

  private check(): void {
    if (this.done || this.running > 0) return
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer)
    const wait = this.lastCallAt + this.quietMs - this.clock.now()
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = undefined
        if (this.running === 0 && this.clock.now() - this.lastCallAt >= this.quietMs) this.finish()
        else this.check()
      },
      Math.max(0, wait)
    )
  }

  private finish(): void {
    if (this.done) return
    this.done = true
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer)
    this.settle()
  }
}
