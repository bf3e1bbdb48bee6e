import { createParser } from 'eventsource-parser'
import { z } from 'zod'
import { GateEvent } from '../../../shared/gate'
import { AppError } from '../app-error'
import type { GateClient } from './gate-client'

/**
 * Follows one gate's event stream (SSE, `id:` = the log's seq) for one profile: resumes with Last-Event-ID from the
 * last seq it saw, so a drop loses nothing and repeats nothing; reconnects with backoff; stops for good when the gate
 * refuses the token. The log's past is not replayed as events on a fresh start (it would raise a notification per old
 * entry): the follower reads where the log ends (GET /operator/log) and follows from there; `gate.log` reads the past.
 * From a saved read position (`missedFrom`), the entries after it are read the same way and handed over as what was
 * missed (`onMissed`, page by page), for one summary instead of a notification each.
 */

type FollowState = 'connecting' | 'live' | 'unreachable' | 'signed-out'

export interface FollowerDeps {
  client: GateClient
  /** The seq to resume after (the same gate followed before); absent: from where the log ends now. */
  resumeFrom?: number
  /** A saved read position: the entries after it are read as missed, then the stream follows from the log's end. */
  missedFrom?: number
  /** Entries written after `missedFrom`, page by page, each entry once (a retry goes on from the last page). */
  onMissed?(events: GateEvent[]): void
  /** The follower found where the log ends (the missed entries, if any, were all handed over): the stream starts after. */
  onCaughtUp?(lastSeq: number): void
  onEvent(event: GateEvent): void
  onState(state: FollowState, message: string | null): void
  /**
   * Waits before attempt `attempt` (0 after a stream that ended cleanly, then growing while the gate stays away);
   * resolves early when `signal` aborts. Tests pass a latch here to act while the follower is between streams.
   */
  backoff?: (attempt: number, signal: AbortSignal) => Promise<void>
  log(message: string): void
}

const LogPage = z.object({ events: z.array(GateEvent) })
const PAGE = 500

/** 0.25 s after a clean end, then 1, 2, 4... up to 30 s. */
function defaultBackoff(attempt: number, signal: AbortSignal): Promise<void> {
  const ms = attempt === 0 ? 250 : Math.min(30_000, 1000 * 2 ** (attempt - 1))
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}

export class GateFollower {
  /** The seq of the last entry received (the Last-Event-ID of the next connection); 0 before any. */
  lastSeq = 0
  lastEventAt: string | null = null
  private readonly abort = new AbortController()
  private running: Promise<void> | undefined
  private found = false

  constructor(private readonly d: FollowerDeps) {
    if (d.resumeFrom !== undefined && d.resumeFrom > 0) {
      this.lastSeq = d.resumeFrom
      this.found = true
    } else if (d.missedFrom !== undefined && d.missedFrom > 0) this.lastSeq = d.missedFrom
  }

  start(): void {
    this.running ??= this.run().catch((error: unknown) =>
      this.d.log(`gate stream stopped: ${error instanceof Error ? error.name : 'error'}`)
    )
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal
    const backoff = this.d.backoff ?? defaultBackoff
    let attempt = 0
    let unreachable = false
    this.d.onState('connecting', null)
    while (!signal.aborted) {
      try {
        if (!this.found) {
          await this.endOfLog()
          this.found = true
          this.d.onCaughtUp?.(this.lastSeq)
        }
        const body = await this.d.client.stream(this.lastSeq, signal)
        attempt = 0
        unreachable = false
        this.d.onState('live', null)
        await this.read(body)
      } catch (error) {
        if (signal.aborted) return
        const failure = error instanceof AppError ? error : this.d.client.unreachable(error)
        if (failure.code === 'UNAUTHORIZED') {
          this.d.onState('signed-out', failure.message)
          return
        }
        if (error instanceof StreamCut) {
          // Cut while live (the gate stopped, a proxy dropped it): reconnecting at once, from the last seq.
          this.d.onState('connecting', 'The gate’s stream was cut; reconnecting.')
        } else {
          // Still unreachable: the state keeps its first sentence until something changes.
          if (!unreachable) this.d.onState('unreachable', failure.message)
          unreachable = true
          attempt += 1
        }
      }
      if (signal.aborted) return
      await backoff(attempt, signal)
    }
  }

  /**
   * Reads the log from lastSeq to where it ends now (the stream follows from there), moving lastSeq page by page, so a
   * failure part way goes on from the last page read and hands no missed entry over twice.
   */
  private async endOfLog(): Promise<void> {
    const missed = this.d.missedFrom !== undefined && this.d.missedFrom > 0
    for (;;) {
      const { events } = await this.d.client.call('GET', `/operator/log?after=${this.lastSeq}`, LogPage)
      const fresh = events.filter((e) => e.seq > this.lastSeq)
      const tail = fresh.at(-1)
      if (tail) {
        if (missed) this.d.onMissed?.(fresh)
        this.lastSeq = tail.seq
        this.lastEventAt = tail.at
      }
      if (events.length < PAGE) return
    }
  }

  private async read(body: AsyncIterable<Buffer>): Promise<void> {
    const parser = createParser({ onEvent: (m) => this.entry(m.data) })
    const decoder = new TextDecoder()
    try {
      for await (const chunk of body) parser.feed(decoder.decode(chunk, { stream: true }))
    } catch (error) {
      if (this.abort.signal.aborted) throw error
      throw new StreamCut(error)
    }
    throw new StreamCut(undefined)
  }

  private entry(data: string): void {
    let parsed
    try {
      parsed = GateEvent.safeParse(JSON.parse(data))
    } catch {
      parsed = undefined
    }
    if (!parsed?.success) {
      this.d.log('gate stream: an entry Paydesk cannot read was skipped')
      return
    }
    const event = parsed.data
    // The gate replays from Last-Event-ID; an entry seen already is never told twice.
    if (event.seq <= this.lastSeq) return
    this.lastSeq = event.seq
    this.lastEventAt = event.at
    this.d.onEvent(event)
  }

  async stop(): Promise<void> {
    this.abort.abort()
    await this.running
  }
}

/** The stream ended or broke after it was live: reconnect at once (attempt 0), resuming from the last seq. */
class StreamCut extends Error {
  constructor(cause: unknown) {
    super('the gate stream ended', { cause })
    this.name = 'StreamCut'
  }
}
