/**
 * Runs async work one piece at a time, in the order it was asked for: two IPC calls that change the same file or the
 * same sessions never interleave. A failed piece does not stop the ones queued after it.
 */
export class Sequencer {
  private tail: Promise<unknown> = Promise.resolve()

  run<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work)
    this.tail = run.catch(() => {})
    return run
  }

  /** Resolves once everything queued so far has finished. */
  async idle(): Promise<void> {
    await this.tail
  }
}
