/**
 * Writes the pages of a listing behind the reading of the next ones. Reading a page costs about 10 ms and writing it
 * into the cache 60 ms, most of it the commit; read and written strictly in turn, a long history took 90 ms a page.
 * Here the pages read while a write is running wait in a buffer and go to the cache together as one transaction as soon
 * as it ends (up to `maxRows`; a full buffer waits for that write), so the writer is never idle and commits about 1,000
 * rows at a time during a catch-up, while an idle poll's one page is still written at once.
 *
 * At most one write is in flight and the next is posted only after it succeeded: the metadata of the pages (the
 * watermark) is written in the same transaction as their rows and in their order, so a crash or a failed write never
 * leaves a watermark ahead of rows that were not written. After a failure nothing more is posted and `add`/`flush`
 * throw it; the buffered pages are dropped and read again from the watermark by the next poll.
 */
export class PageWriter<T> {
  private buffer: Array<{ items: T[]; meta: Record<string, unknown> }> = []
  private rows = 0
  private inFlight: Promise<void> | undefined
  private failure: { error: unknown } | undefined

  constructor(
    private readonly write: (items: T[], meta: Record<string, unknown>) => Promise<void>,
    private readonly maxRows: number
  ) {}

  /** Adds a page; resolves once it is posted or buffered, which waits only when the buffer is full. */
  async add(items: T[], meta: Record<string, unknown>): Promise<void> {
    this.throwIfFailed()
    this.buffer.push({ items, meta })
    this.rows += items.length
    if (this.inFlight && this.rows >= this.maxRows) await this.inFlight
    this.throwIfFailed()
    if (!this.inFlight) this.post()
  }

  /** Writes everything added and resolves when it is in the cache. */
  async flush(): Promise<void> {
    while (this.inFlight || this.buffer.length) {
      if (this.inFlight) await this.inFlight
      this.throwIfFailed()
      if (this.buffer.length) this.post()
    }
    this.throwIfFailed()
  }

  /** Waits for the write in flight, if any, and posts nothing more (a poll that failed while reading). */
  async settle(): Promise<void> {
    this.buffer = []
    await this.inFlight
  }

  private post(): void {
    const pages = this.buffer.splice(0)
    this.rows = 0
    const items = pages.flatMap((p) => p.items)
    // Later pages' values win, as if each page had been written in turn.
    const meta = Object.assign({}, ...pages.map((p) => p.meta)) as Record<string, unknown>
    this.inFlight = this.write(items, meta).then(
      () => {
        this.inFlight = undefined
      },
      (error: unknown) => {
        this.failure = { error }
        this.buffer = []
        this.inFlight = undefined
      }
    )
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error
  }
}
