/**
 * Chains the log entries that settlements committed to log_pending (paydesk_gate_seal, pg-schema.ts): this replica's
 * and any other's, a dead one's included. Off the webhook's answer path, one seal at a time per replica: requests
 * while one runs make it run once more. Also every second, so what a replica killed before its seal left pending is
 * chained by a survivor even when no webhook comes.
 */
/** What the sealer needs of pg's pool (only pg-store.ts and pg-schema.ts import pg: eslint/layers.js). */
interface Querier {
  query<R>(sql: string): Promise<{ rows: R[] }>
}

/** How often a replica chains what is pending without being asked. */
const SEAL_EVERY_MS = 1000

export class PgSealer {
  /** The seal running (or the last one), resolved when it is done; never rejects. */
  private sealing: Promise<void> = Promise.resolve()
  private running = false
  private again = false
  private readonly timer: NodeJS.Timeout

  constructor(
    private readonly pool: Querier,
    /** Called after a seal that chained something (the NOTIFY may be late, or the LISTEN connection down). */
    private readonly onSealed: () => void,
    private readonly log: (message: string) => void
  ) {
    this.timer = setInterval(() => this.request(), SEAL_EVERY_MS).unref()
  }

  request(): void {
    this.again = true
    if (this.running) return
    this.running = true
    this.sealing = (async () => {
      try {
        while (this.again) {
          this.again = false
          const r = await this.pool.query<{ s: string | null }>('SELECT paydesk_gate_seal() AS s')
          if (r.rows[0]?.s !== null) this.onSealed()
        }
      } catch (err) {
        this.log(`chaining pending log entries failed (retried): ${err instanceof Error ? err.message : 'error'}`)
      } finally {
        this.running = false
      }
    })()
  }

  /** Resolves when every seal requested so far ran. */
  idle(): Promise<void> {
    return this.sealing
  }

  /** Stops the timer and waits for the seal in flight: the last settlements' entries are chained before the pool ends. */
  async stop(): Promise<void> {
    clearInterval(this.timer)
    await this.sealing
  }
}
