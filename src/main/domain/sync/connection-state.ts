import {
  NOT_RESPONDING_MS,
  SLOW_ANSWER_MS,
  type ConnectionState,
  type ConnectionView
} from '../../../shared/ipc/channels/sync'
import type { FailureKind } from '../../infra/api-errors'
import type { SchedulerClock } from './poll-scheduler'

/**
 * The connection state the top bar shows, from what each request to the service did: one state at a time, with
 * hysteresis so it never flickers. Plain timing over an injected clock (tested without waiting).
 *
 * Evidence, per attempt of a request (ApiClient's onAttemptStart / onAttempt):
 * - any HTTP answer: the service answers. 401/403: Signed out (until a 2xx); 5xx and 429: Service error; an answer
 *   that took over SLOW_ANSWER_MS: Slow; else Live.
 * - a failure without an answer: unreachable, reset, TLS: Offline; timeout: Not responding.
 * - a request still waiting NOT_RESPONDING_MS after it was sent: Not responding while it waits. The client's own
 *   timeout is 30 s with retries (about 2 minutes for a poll), during which a hung service used to look Live.
 * - the Local sandbox's process stopped (told by the session): Local sandbox stopped, for the session's life.
 *
 * Thresholds: 3 s for Slow because the service answers a page well under a second (the Local sandbox in milliseconds),
 * so 3 s is not jitter but something the operator feels on every click, and it leaves room below the 10 s of Not
 * responding, which is two idle polls' time and a third of the client's timeout.
 *
 * Hysteresis: a worse state is shown at once (it is what the operator must know); a better one only once it has held
 * for HOLD_MS with nothing worse in between. A service that alternates (slow, fast, slow) therefore shows its worse
 * state steadily, and the first good answer after an outage does not light Live until the next ones confirm it.
 */
export const HOLD_MS = 10_000

const RANK: Record<Exclude<ConnectionState, 'connecting'>, number> = {
  live: 0,
  slow: 1,
  serviceError: 2,
  notResponding: 3,
  offline: 4,
  signedOut: 5,
  sandboxStopped: 6
}
type Known = keyof typeof RANK

/** What the client says of one attempt (a subset of AttemptInfo). */
export interface AttemptEnd {
  status?: number
  errorKind?: FailureKind
  ms: number
}

export interface ConnectionMonitorOptions {
  clock: SchedulerClock
  /** The service's host, for the sentences ("Paydesk cannot reach api.example.com"). */
  host: string
  slowMs?: number
  notRespondingMs?: number
  holdMs?: number
}

export class ConnectionMonitor {
  private shown: ConnectionView
  /** Start times of attempts that have not ended. */
  private outstanding: number[] = []
  /** The state the last ended attempt points at. */
  private lastOutcome: Known | undefined
  private lastDetail = ''
  private signedOut: string | undefined
  private stopped: string | undefined
  private lastAnswerAt: number | null = null
  private slowest = 0
  /** When the evidence first pointed at a better state than the one shown (hysteresis). */
  private betterSince: number | undefined
  private timer: unknown
  private disposed = false
  private readonly slowMs: number
  private readonly notRespondingMs: number
  private readonly holdMs: number
  /** Told every time the shown state (or its sentence) changes. */
  onChange: (view: ConnectionView) => void = () => {}

  constructor(private readonly o: ConnectionMonitorOptions) {
    this.slowMs = o.slowMs ?? SLOW_ANSWER_MS
    this.notRespondingMs = o.notRespondingMs ?? NOT_RESPONDING_MS
    this.holdMs = o.holdMs ?? HOLD_MS
    this.shown = {
      state: 'connecting',
      since: this.iso(o.clock.now()),
      lastAnswerAt: null,
      detail: `Paydesk has not heard from ${o.host} yet.`
    }
  }

  get view(): ConnectionView {
    return { ...this.shown, lastAnswerAt: this.lastAnswerAt === null ? null : this.iso(this.lastAnswerAt) }
  }

  /** An attempt was sent. */
  attemptStarted(): void {
    this.outstanding.push(this.o.clock.now())
    this.evaluate()
  }

  /** An attempt ended (answered or failed), `ms` after it was sent. */
  attemptEnded(end: AttemptEnd): void {
    const now = this.o.clock.now()
    this.forget(now - end.ms)
    const host = this.o.host
    const answered = end.status !== undefined
    if (answered) this.lastAnswerAt = now
    if (answered && (end.status === 401 || end.status === 403)) {
      this.signedOut =
        `${host} refused Paydesk’s credentials (HTTP ${end.status}): check the API token id and client secret in ` +
        'Settings.'
      this.outcome('signedOut', this.signedOut)
    } else if (answered && (end.status! >= 500 || end.status === 429)) {
      this.outcome('serviceError', `${host} answers with errors (HTTP ${end.status}); Paydesk keeps trying.`)
    } else if (answered) {
      if (end.status! >= 200 && end.status! < 300) this.signedOut = undefined
      if (end.ms > this.slowMs) {
        this.slowest = Math.max(this.shown.state === 'slow' ? this.slowest : 0, end.ms)
        this.outcome('slow', `${host} answers slowly: an answer took ${seconds(end.ms)}.`)
      } else this.outcome('live', `${host} answers normally.`)
    } else if (end.errorKind === 'timeout') {
      this.outcome('notResponding', `${host} did not answer in time.`)
    } else {
      this.outcome('offline', `Paydesk cannot reach ${host}: no network, or the service is down.`)
    }
    this.evaluate()
  }

  /** No client secret: signed out from the start, until the session is re-opened with one. */
  noCredentials(detail: string): void {
    this.signedOut = detail
    this.evaluate()
  }

  /** The Local sandbox's process is not running: shown for the rest of this session. */
  sandboxStopped(detail: string): void {
    this.stopped = detail
    this.evaluate()
  }

  dispose(): void {
    this.disposed = true
    this.cancel()
  }

  private outcome(state: Known, detail: string): void {
    this.lastOutcome = state
    this.lastDetail = detail
  }

  /** Removes the outstanding attempt that began closest to `startedAt` (attempts may end out of order). */
  private forget(startedAt: number): void {
    if (!this.outstanding.length) return
    let best = 0
    for (let i = 1; i < this.outstanding.length; i++) {
      if (Math.abs(this.outstanding[i]! - startedAt) < Math.abs(this.outstanding[best]! - startedAt)) best = i
    }
    this.outstanding.splice(best, 1)
  }

  /** The state the evidence points at now, with its sentence; undefined while nothing has happened yet. */
  private evidence(now: number): { state: Known; detail: string } | undefined {
    if (this.stopped !== undefined) return { state: 'sandboxStopped', detail: this.stopped }
    const found: { state: Known; detail: string }[] = []
    if (this.signedOut !== undefined) found.push({ state: 'signedOut', detail: this.signedOut })
    const oldest = this.outstanding.length ? Math.min(...this.outstanding) : undefined
    if (oldest !== undefined && now - oldest >= this.notRespondingMs) {
      found.push({
        state: 'notResponding',
        detail: `${this.o.host} has not answered a request for ${seconds(now - oldest)}.`
      })
    }
    if (this.lastOutcome !== undefined) found.push({ state: this.lastOutcome, detail: this.lastDetail })
    return found.sort((a, b) => RANK[b.state] - RANK[a.state])[0]
  }

  private evaluate(): void {
    if (this.disposed) return
    const now = this.o.clock.now()
    const next = this.evidence(now)
    if (next) {
      const current = this.shown.state
      if (current === 'connecting' || RANK[next.state] >= RANK[current]) {
        this.betterSince = undefined
        this.show(next.state, next.detail, now)
      } else {
        this.betterSince ??= now
        if (now - this.betterSince >= this.holdMs) {
          this.betterSince = undefined
          this.show(next.state, next.detail, now)
        }
      }
    }
    this.scheduleNextLook(now)
  }

  private show(state: Known, detail: string, now: number): void {
    const prev = this.shown
    // The sentence of a request still waiting grows every second: only a new state, or a new kind of sentence, is news.
    if (prev.state === state && (state === 'notResponding' || prev.detail === detail)) {
      if (state !== 'slow' || prev.slowAnswerMs === this.slowest) return
    }
    if (state !== 'slow') this.slowest = 0
    this.shown = {
      state,
      since: prev.state === state ? prev.since : this.iso(now),
      lastAnswerAt: this.lastAnswerAt === null ? null : this.iso(this.lastAnswerAt),
      ...(state === 'slow' && { slowAnswerMs: Math.round(this.slowest) }),
      detail
    }
    this.onChange(this.view)
  }

  /** Time alone changes the state when a waiting request crosses the threshold, or a hold ends. */
  private scheduleNextLook(now: number): void {
    this.cancel()
    const times: number[] = []
    if (this.outstanding.length) {
      const at = Math.min(...this.outstanding) + this.notRespondingMs
      if (at > now) times.push(at)
    }
    if (this.betterSince !== undefined) times.push(this.betterSince + this.holdMs)
    if (!times.length) return
    const at = Math.min(...times)
    this.timer = this.o.clock.setTimeout(
      () => {
        this.timer = undefined
        this.evaluate()
      },
      Math.max(0, at - now)
    )
  }

  private cancel(): void {
    if (this.timer !== undefined) this.o.clock.clearTimeout(this.timer)
    this.timer = undefined
  }

  private iso(ms: number): string {
    return new Date(ms).toISOString()
  }
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`
}
