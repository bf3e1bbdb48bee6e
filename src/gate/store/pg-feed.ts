/**
 * Feeds `subscribe` from the chained log (PgGateStore): each append or seal NOTIFYs its last seq, this replica LISTENs
 * and reads the entries after the last one it delivered, so operators on any replica see every entry, in order, once.
 * Apart from the store because it changes for delivery's reasons (reconnects, paging, coalescing), not for the rows'.
 */
import type { GateEvent } from '../../shared/gate'
import { LOG_CHANNEL } from './pg-schema'

/** What the feed needs of a pg.Client (only pg-store.ts and pg-schema.ts import pg: eslint/layers.js). */
interface ListenClient {
  on(event: 'notification', listener: () => void): unknown
  on(event: 'error', listener: (err: Error) => void): unknown
  connect(): Promise<unknown>
  query(sql: string): Promise<unknown>
  end(): Promise<void>
}

const PAGE = 500

export class PgFeed {
  private readonly listeners = new Set<(e: GateEvent) => void>()
  private client: ListenClient | null = null
  private draining: Promise<void> = Promise.resolve()
  private drainAgain = false
  private closed = false

  constructor(
    private readonly newClient: () => ListenClient,
    private readonly readLog: (afterSeq: number, limit: number) => Promise<GateEvent[]>,
    private readonly log: (message: string) => void
  ) {}

  /** The last seq handed to listeners; entries after it are read from the log in order. */
  private delivered = 0

  /** Starts after `seq` (the head when the store opened): listeners see what is committed from then on. */
  async start(seq: number): Promise<void> {
    this.delivered = seq
    await this.listen()
  }

  private async listen(): Promise<void> {
    const client = this.newClient()
    client.on('notification', () => this.drain())
    client.on('error', (err) => {
      this.log(`the LISTEN connection failed (${err.message}); reconnecting`)
      void client.end().catch(() => undefined)
      if (this.client === client) this.client = null
      if (!this.closed) setTimeout(() => void this.listen().catch(() => undefined), 500).unref()
    })
    await client.connect()
    await client.query(`LISTEN ${LOG_CHANNEL}`)
    this.client = client
    // Whatever was committed while we were not listening.
    this.drain()
  }

  /** Delivers every committed entry after `delivered`, in seq order; concurrent calls coalesce. */
  drain(): void {
    this.drainAgain = true
    this.draining = this.draining.then(async () => {
      while (this.drainAgain && !this.closed) {
        this.drainAgain = false
        for (;;) {
          const page = await this.readLog(this.delivered, PAGE)
          for (const e of page) {
            this.delivered = e.seq
            for (const l of this.listeners) l(e)
          }
          if (page.length < PAGE) break
        }
      }
    })
    this.draining = this.draining.catch((err: unknown) =>
      this.log(`reading new log entries failed: ${err instanceof Error ? err.message : 'error'}`)
    )
  }

  subscribe(listener: (event: GateEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  async close(): Promise<void> {
    this.closed = true
    this.listeners.clear()
    await this.draining
    const client = this.client
    this.client = null
    await client?.end().catch(() => undefined)
  }
}
