/**
 * When to poll. Pure timing over an injected clock, so every rule below is tested without waiting:
 * - window focused and something in flight (a transfer the operator started, a status
 *   that just changed, or a first sync catching up): every second;
 * - window focused, nothing in flight: every 5 s;
 * - background with something in flight: every 10 s; background idle: every 40 s, which leaves room in a
 *   budget of 2 requests a minute for the occasional re-check of stale transactions;
 * - machine asleep: no polling at all; on wake: one poll at once;
 * - offline (network failures): probe with backoff 2 s → 30 s; service errors: backoff 2 s → 60 s, or Retry-After;
 * - never two polls at once: the next poll is only scheduled when the current one has finished.
 */

export interface SchedulerClock {
  now(): number
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export const realClock: SchedulerClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const h = setTimeout(fn, ms)
    h.unref?.()
    return h
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout)
}

export const INTERVALS = {
  foregroundActive: 1_000,
  foregroundIdle: 5_000,
  backgroundActive: 10_000,
  backgroundIdle: 40_000,
  catchUp: 0,
  offlineMin: 2_000,
  offlineMax: 30_000,
  errorMin: 2_000,
  errorMax: 60_000
} as const

export type PollOutcome =
  | { ok: true; inFlight: boolean; catchingUp?: boolean }
  | { ok: false; kind: 'offline' | 'error'; retryAfterMs?: number }

export interface ScheduleDecision {
  ms: number
  reason: string
}

export interface SchedulerState {
  foreground: boolean
  suspended: boolean
}

export class PollScheduler {
  private timer: unknown
  private dueAt: number | undefined
  private running: Promise<void> | undefined
  private stopped = true
  private disposed = false
  private last: PollOutcome | undefined
  private failures = 0
  private readonly state: SchedulerState
  decision: ScheduleDecision = { ms: 0, reason: 'not started' }
  /** For tests and the status line: how many polls ran, and the most that ever overlapped (must stay 1). */
  polls = 0
  maxConcurrent = 0
  private concurrent = 0

  constructor(
    private readonly poll: () => Promise<PollOutcome>,
    private readonly clock: SchedulerClock,
    initial: Partial<SchedulerState> = {},
    private readonly onSchedule: (d: ScheduleDecision) => void = () => {}
  ) {
    this.state = { foreground: true, suspended: false, ...initial }
  }

  /** The inputs in force (focus, sleep). */
  get inputs(): Readonly<SchedulerState> {
    return this.state
  }

  start(): void {
    if (!this.stopped) return
    this.stopped = false
    this.schedule({ ms: 0, reason: 'starting' })
  }

  stop(): void {
    this.stopped = true
    this.cancel()
  }

  /** Stops for good: not even pollNow runs afterwards. */
  dispose(): void {
    this.disposed = true
    this.stop()
  }

  /** Resolves when no poll is running. */
  async idle(): Promise<void> {
    while (this.running) await this.running
  }

  set(patch: Partial<SchedulerState>): void {
    const wasSuspended = this.state.suspended
    Object.assign(this.state, patch)
    if (this.stopped) return
    if (this.state.suspended) {
      this.cancel()
      this.decision = { ms: 0, reason: 'paused while the machine sleeps' }
      this.onSchedule(this.decision)
      return
    }
    if (wasSuspended) {
      this.schedule({ ms: 0, reason: 'woke up' })
      return
    }
    // A faster rate takes effect now rather than after the slow wait already scheduled.
    if (this.running) return
    const next = this.next()
    const remaining = this.dueAt === undefined ? Infinity : this.dueAt - this.clock.now()
    if (next.ms < remaining) this.schedule(next)
    else {
      // Slower: the poll already scheduled keeps its time; the new rate applies from the next one.
      this.decision = { ms: next.ms, reason: next.reason }
      this.onSchedule(this.decision)
    }
  }

  /**
   * Polls now unless a poll is running (then waits for that one). Never overlaps. Works on a stopped scheduler too
   * (one poll, nothing scheduled after it), so tests and "Sync now" can drive it by hand.
   */
  async pollNow(): Promise<void> {
    if (this.running) return this.running
    if (this.state.suspended || this.disposed) return
    this.cancel()
    await this.run()
  }

  /** The interval the current state calls for. */
  next(): ScheduleDecision {
    const last = this.last
    if (last && !last.ok) {
      if (last.retryAfterMs !== undefined)
        return { ms: last.retryAfterMs, reason: 'the service asked to wait (Retry-After)' }
      const [min, max] =
        last.kind === 'offline'
          ? [INTERVALS.offlineMin, INTERVALS.offlineMax]
          : [INTERVALS.errorMin, INTERVALS.errorMax]
      const ms = Math.min(max, min * 2 ** Math.max(0, this.failures - 1))
      return { ms, reason: last.kind === 'offline' ? 'offline: probing with backoff' : 'service errors: backing off' }
    }
    if (last?.ok && last.catchingUp) return { ms: INTERVALS.catchUp, reason: 'catching up with history' }
    const inFlight = last?.ok ? last.inFlight : false
    if (this.state.foreground) {
      return inFlight
        ? { ms: INTERVALS.foregroundActive, reason: 'window focused, something in flight' }
        : { ms: INTERVALS.foregroundIdle, reason: 'window focused, nothing in flight' }
    }
    return inFlight
      ? { ms: INTERVALS.backgroundActive, reason: 'in the background, something in flight' }
      : { ms: INTERVALS.backgroundIdle, reason: 'in the background, idle' }
  }

  private cancel(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer)
    this.timer = undefined
    this.dueAt = undefined
  }

  private schedule(d: ScheduleDecision): void {
    this.cancel()
    if (this.stopped || this.state.suspended) return
    this.decision = d
    this.dueAt = this.clock.now() + d.ms
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined
      this.dueAt = undefined
      void this.run()
    }, d.ms)
    this.onSchedule(d)
  }

  private run(): Promise<void> {
    if (this.running) return this.running
    const go = async () => {
      this.concurrent++
      this.maxConcurrent = Math.max(this.maxConcurrent, this.concurrent)
      this.polls++
      let outcome: PollOutcome
      try {
        outcome = await this.poll()
      } catch {
        outcome = { ok: false, kind: 'error' }
      } finally {
        this.concurrent--
      }
      this.failures = outcome.ok
        ? 0
        : this.last && !this.last.ok && this.last.kind === outcome.kind
          ? this.failures + 1
          : 1
      this.last = outcome
    }
    this.running = go().finally(() => {
      this.running = undefined
      if (!this.stopped && !this.state.suspended) this.schedule(this.next())
    })
    return this.running
  }
}
