/**
 * Time of the sandbox. `now()` is wall-clock time (or an injected clock in tests); `delay(seconds)` turns a simulated
 * duration of the real service into milliseconds of this sandbox, scaled by `timeScale` (0.01 → 100x faster).
 */
export class Clock {
  private last = 0

  constructor(
    private source: () => number,
    readonly timeScale: number
  ) {
    if (!(timeScale > 0) || !Number.isFinite(timeScale))
      throw new Error(`timeScale must be a positive number, got ${timeScale}`)
  }

  /** Run `body` with another time source (seeding builds a history in the past); returns what body returns. */
  withSource<T>(source: () => number, body: () => T): T {
    const saved = this.source
    this.source = source
    try {
      return body()
    } finally {
      this.source = saved
    }
  }

  /** Current time in ms. */
  now(): number {
    return this.source()
  }

  /**
   * A creation timestamp that never goes backwards, so that items created later never sort before items created
   * earlier (list cursors depend on it).
   */
  stamp(): number {
    const n = this.source()
    this.last = n > this.last ? n : this.last
    return this.last
  }

  /** Raise the floor of `stamp()` (after loading state written by a clock that was ahead). */
  observe(ms: number): void {
    if (ms > this.last) this.last = ms
  }

  /** Simulated duration (seconds of the real service) in sandbox milliseconds. */
  delay(seconds: number): number {
    return Math.max(0, Math.round(seconds * 1000 * this.timeScale))
  }
}

export const iso = (ms: number): string => new Date(ms).toISOString()
