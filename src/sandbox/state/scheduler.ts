import type { Clock } from './clock'

/** A pending time-based transition; plain data so that it is persisted with the state and survives a restart. */
export interface Job {
  id: number
  /** Due time, ms. */
  at: number
  kind: string
  /** The id of the resource the job acts on. */
  ref: string
}

type JobHandler = (job: Job) => void

/**
 * Runs jobs when they are due. Two paths make transitions observable without waiting: a single unref'd timer armed
 * for the earliest job, and `runDue()`, which the server calls before handling every request (so a client never sees
 * a state older than the clock says, even if the timer has not fired yet).
 */
export class Scheduler {
  private jobs: Job[] = []
  private nextId = 1
  private timer: NodeJS.Timeout | undefined
  private timerAt = Infinity
  private closed = false
  private running = false
  private readonly handlers = new Map<string, JobHandler>()

  constructor(
    private readonly clock: Clock,
    private readonly onError: (err: unknown, job: Job) => void,
    private readonly afterRun: () => void
  ) {}

  on(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler)
  }

  load(jobs: Job[]): void {
    this.jobs = [...jobs].sort((a, b) => a.at - b.at || a.id - b.id)
    this.nextId = this.jobs.reduce((m, j) => Math.max(m, j.id + 1), 1)
    this.arm()
  }

  snapshot(): Job[] {
    return this.jobs.map((j) => ({ ...j }))
  }

  get size(): number {
    return this.jobs.length
  }

  /** Schedule `kind` for `ref` after `delayMs` sandbox milliseconds. */
  schedule(kind: string, ref: string, delayMs: number): Job {
    return this.scheduleAt(kind, ref, this.clock.now() + delayMs)
  }

  scheduleAt(kind: string, ref: string, at: number): Job {
    const job: Job = { id: this.nextId++, at, kind, ref }
    // Insert keeping (at, id) order; jobs are few, a linear search from the end is enough.
    let i = this.jobs.length
    while (i > 0 && (this.jobs[i - 1] as Job).at > at) i--
    this.jobs.splice(i, 0, job)
    this.arm()
    return job
  }

  /** Remove every job of `kind` (all kinds when omitted) for `ref`. */
  cancel(ref: string, kind?: string): void {
    this.jobs = this.jobs.filter((j) => !(j.ref === ref && (kind === undefined || j.kind === kind)))
  }

  /** Run every job due at the current time, including jobs that become due while running. */
  runDue(): number {
    if (this.running) return 0
    this.running = true
    let ran = 0
    try {
      for (;;) {
        const first = this.jobs[0]
        if (!first || first.at > this.clock.now()) break
        this.jobs.shift()
        const handler = this.handlers.get(first.kind)
        try {
          if (!handler) throw new Error(`no handler for job kind ${first.kind}`)
          handler(first)
        } catch (err) {
          this.onError(err, first)
        }
        ran++
      }
    } finally {
      this.running = false
    }
    if (ran > 0) this.afterRun()
    this.arm()
    return ran
  }

  close(): void {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
  }

  private arm(): void {
    if (this.closed) return
    const first = this.jobs[0]
    const at = first ? first.at : Infinity
    if (this.timer && at === this.timerAt) return
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    this.timerAt = at
    if (at === Infinity) return
    const wait = Math.min(Math.max(0, at - this.clock.now()), 2_147_483_647)
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.timerAt = Infinity
      this.runDue()
      this.arm()
    }, wait)
    this.timer.unref()
  }
}
