import type { SchedulerClock } from '../../../../src/main/domain/sync/poll-scheduler'

/** A manual clock: time moves only through advance(), which fires due timers in order and lets promises settle. */
export class FakeClock implements SchedulerClock {
  private t = 0
  private seq = 0
  private timers = new Map<number, { at: number; fn: () => void }>()
  now(): number {
    return this.t
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq
    this.timers.set(id, { at: this.t + Math.max(0, ms), fn })
    return id
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number)
  }
  pending(): number[] {
    return [...this.timers.values()].map((t) => t.at - this.t).sort((a, b) => a - b)
  }
  async advance(ms: number): Promise<void> {
    const end = this.t + ms
    for (;;) {
      await flush()
      const due = [...this.timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0]
      if (!due) break
      this.timers.delete(due[0])
      this.t = due[1].at
      due[1].fn()
      await flush()
    }
    this.t = end
    await flush()
  }
}

export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve()
}
