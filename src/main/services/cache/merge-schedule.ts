/**
 * How long the text index's background merge rests after the views last read. Measured at a million rows right after
 * a first sync (18 segments): the merge kept one of the two cores busy for more than 40 s, in steps of 20-650 ms, and
 * filter keys took 40-86 ms meanwhile against 26-50 ms on a merged index. An operator between two searches (clearing
 * the box, reading a row) pauses a second or two: a shorter rest let a step start there and meet the next search.
 */
export const MERGE_HOLD_MS = 3_000

/**
 * When the writer thread takes its next merge step (write-thread.ts): one at a time, each after the requests already
 * waiting (setImmediate runs after pending messages), never while the views are reading (`hold`), until `step` says
 * nothing is left.
 */
export class MergeSchedule {
  private pending: (() => void) | undefined
  private heldUntil = 0
  private closed = false

  constructor(
    private readonly step: () => boolean,
    private readonly holdMs = MERGE_HOLD_MS
  ) {}

  /** Merges from the next turn on (or once a hold ends); nothing more if a merge is already on its way. */
  start(): void {
    if (this.pending || this.closed) return
    const wait = this.heldUntil - Date.now()
    if (wait > 0) {
      const timer = setTimeout(() => {
        this.pending = undefined
        this.start()
      }, wait)
      this.pending = () => clearTimeout(timer)
      return
    }
    const immediate = setImmediate(() => {
      this.pending = undefined
      if (this.closed) return
      // A hold that came after this step was planned puts it off too.
      if (this.heldUntil > Date.now() || this.step()) this.start()
    })
    this.pending = () => clearImmediate(immediate)
  }

  /** The views are reading: no step for `holdMs` from now. */
  hold(): void {
    this.heldUntil = Date.now() + this.holdMs
  }

  close(): void {
    this.closed = true
    this.pending?.()
    this.pending = undefined
  }
}
