/**
 * How long the text index's background merge rests after the views last read. Measured at a million rows right after
 * a first sync (18 segments): the merge kept one of the two cores busy for more than 40 s, in steps of 20-650 ms, and
 * filter keys took 40-86 ms meanwhile against 26-50 ms on a merged index. An operator between two searches (clearing
 * the box, reading a row) pauses a second or two: a shorter rest let a step start there and meet the next search.
 */
export const MERGE_HOLD_MS = 3_000

/**
 * When the views last read the cache, in memory main and the writer thread share: main marks every query, the thread's
 * merge reads the mark before each step. A message to the thread for each query woke it on every filter key and asked
 * main to settle its answer.
 */
export class ReadMarks {
  private readonly cell: BigInt64Array

  /** Marks on new memory (main's side); the thread's are on main's `buffer`, passed in its workerData. */
  static create(): ReadMarks {
    return new ReadMarks(new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT))
  }

  constructor(readonly buffer: SharedArrayBuffer) {
    this.cell = new BigInt64Array(buffer)
  }

  /** The views are reading now. */
  mark(): void {
    Atomics.store(this.cell, 0, BigInt(Date.now()))
  }

  /** When they last did (epoch ms), 0 if never. */
  last(): number {
    return Number(Atomics.load(this.cell, 0))
  }
}

/**
 * When the writer thread takes its next merge step (write-thread.ts): one at a time, each after the requests already
 * waiting (setImmediate runs after pending messages), never within `holdMs` of a read (`reads`) or while held
 * (`hold`), until `step` says nothing is left.
 */
export class MergeSchedule {
  private pending: (() => void) | undefined
  private heldUntil = 0
  private closed = false

  constructor(
    private readonly step: () => boolean,
    private readonly reads: ReadMarks,
    private readonly holdMs = MERGE_HOLD_MS
  ) {}

  /** Merges from the next turn on (or once a hold ends); nothing more if a merge is already on its way. */
  start(): void {
    if (this.pending || this.closed) return
    const wait = this.restsUntil() - Date.now()
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
      // A read (or hold) that came after this step was planned puts it off too.
      if (this.restsUntil() > Date.now() || this.step()) this.start()
    })
    this.pending = () => clearImmediate(immediate)
  }

  /** No step for `holdMs` from now, as if the views had read. */
  hold(): void {
    this.heldUntil = Date.now() + this.holdMs
  }

  private restsUntil(): number {
    return Math.max(this.heldUntil, this.reads.last() + this.holdMs)
  }

  close(): void {
    this.closed = true
    this.pending?.()
    this.pending = undefined
  }
}
