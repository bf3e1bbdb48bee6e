/**
 * Webhook delivery as the real service does it: an envelope `{ id, type, timestamp, data }` POSTed to the platform's
 * one endpoint, signed over the exact bytes sent (signing.ts). Informational events are retried with backoff until a
 * 2xx or the last attempt; the approval webhook is asked once (engine/approval.ts). Every attempt is kept in a bounded
 * log that tests read.
 */
import { randomUUID } from 'node:crypto'
import { iso, type Clock } from '../../state/clock'
import type { WebhookAnswer } from '../../engine/approval'
import type { Job, Scheduler } from '../../state/scheduler'
import { DURATIONS } from '../../state/timing'
import { SIGNATURE_HEADER, signBody, type SigningKeyPair } from '../../state/webhook-signing'

/** Persisted with the jobs; a retry whose payload did not survive a restart finds nothing and does nothing. */
const WEBHOOK_RETRY_JOB = 'webhook.retry'
/** Seconds (scaled) before each retry of an informational event: five attempts in all. */
const RETRY_BACKOFF_SECONDS = [5, 30, 120, 600] as const
/** How many attempts the log keeps (the oldest go first). */
const LOG_LIMIT = 500

interface DeliveryRecord {
  webhookId: string
  type: string
  /** The id of the object in `data` (a transaction, an account), when it has one. */
  subject?: string
  url?: string
  attempt: number
  sentAt: string
  /** The HTTP status the endpoint answered; absent when none came. */
  status?: number
  /** Why no answer came (no endpoint, refused, timed out). */
  error?: string
  /** delivered: 2xx; answered: an approval webhook's answer, whatever it was; retrying / failed: no 2xx. */
  outcome: 'delivered' | 'answered' | 'retrying' | 'failed'
}

interface WebhookTarget {
  endpoint: string | undefined
  keys: SigningKeyPair
}

interface Outgoing {
  webhookId: string
  type: string
  subject: string | undefined
  text: string
  attempt: number
}

function subjectOf(data: unknown): string | undefined {
  const id = data && typeof data === 'object' ? (data as { id?: unknown }).id : undefined
  return typeof id === 'string' ? id : undefined
}

function describeFailure(err: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `no answer within ${timeoutMs} ms`
  const cause = (err as { cause?: { code?: string; message?: string } } | undefined)?.cause
  if (cause?.code === 'ECONNREFUSED') return 'connection refused'
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err))
}

export class WebhookDispatcher {
  private readonly records: DeliveryRecord[] = []
  private readonly waitingRetry = new Map<string, Outgoing>()
  private readonly inflight = new Set<Promise<void>>()
  private readonly controllers = new Set<AbortController>()
  private closed = false

  constructor(
    private readonly target: () => WebhookTarget,
    private readonly clock: Clock,
    private readonly scheduler: Scheduler,
    private readonly log: (message: string) => void
  ) {
    scheduler.on(WEBHOOK_RETRY_JOB, (job) => this.retry(job))
  }

  /** An informational event; `data` is read after the current operation, so the event shows its final state. */
  send(type: string, data: () => unknown): void {
    if (this.closed || this.target().endpoint === undefined) return
    this.track(
      Promise.resolve().then(() => {
        const body = data()
        return this.deliver({ ...this.envelope(type, body), subject: subjectOf(body), attempt: 1 })
      })
    )
  }

  /** One delivery whose answer matters (the approval webhook): never retried; `onAnswer` gets what came back. */
  ask(type: string, data: unknown, onAnswer: (answer: WebhookAnswer) => void): void {
    this.track(
      (async () => {
        const out = { ...this.envelope(type, data), subject: subjectOf(data), attempt: 1 }
        const answer = await this.post(out)
        this.record(out, answer, answer.kind === 'answered' ? 'answered' : 'failed')
        if (!this.closed) onAnswer(answer)
      })()
    )
  }

  /** POST /sandbox/webhooks/test: a TEST event, once, and what the endpoint answered. */
  async test(): Promise<{ url: string | undefined; answer: WebhookAnswer }> {
    const out = { ...this.envelope('TEST', {}), subject: undefined, attempt: 1 }
    const answer = await this.post(out)
    const ok = answer.kind === 'answered' && answer.status >= 200 && answer.status < 300
    this.record(out, answer, ok ? 'delivered' : 'failed')
    return { url: this.target().endpoint, answer }
  }

  /** Every attempt still in the log, oldest first. */
  deliveries(): DeliveryRecord[] {
    return this.records.map((r) => ({ ...r }))
  }

  /** Resolves once no delivery is in flight and every answer received has been applied. */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.all([...this.inflight])
  }

  /** Stops sending: deliveries in flight are cut and their answers ignored. */
  close(): void {
    this.closed = true
    for (const c of this.controllers) c.abort()
    this.waitingRetry.clear()
  }

  private envelope(type: string, data: unknown): { webhookId: string; type: string; text: string } {
    const webhookId = `Webhook:${randomUUID()}`
    const text = JSON.stringify({ id: webhookId, type, timestamp: iso(this.clock.now()), data })
    return { webhookId, type, text }
  }

  private async deliver(out: Outgoing): Promise<void> {
    const answer = await this.post(out)
    if (answer.kind === 'answered' && answer.status >= 200 && answer.status < 300) {
      this.record(out, answer, 'delivered')
      return
    }
    const backoff = RETRY_BACKOFF_SECONDS[out.attempt - 1]
    if (backoff === undefined || this.closed) {
      this.record(out, answer, 'failed')
      return
    }
    this.record(out, answer, 'retrying')
    this.waitingRetry.set(out.webhookId, out)
    this.scheduler.schedule(WEBHOOK_RETRY_JOB, out.webhookId, this.clock.delay(backoff))
  }

  private retry(job: Job): void {
    const out = this.waitingRetry.get(job.ref)
    if (!out) return
    this.waitingRetry.delete(job.ref)
    // The same id and bytes again: the platform can tell a retry from a new event.
    this.track(this.deliver({ ...out, attempt: out.attempt + 1 }))
  }

  private async post(out: Outgoing): Promise<WebhookAnswer> {
    const { endpoint, keys } = this.target()
    if (endpoint === undefined)
      return { kind: 'unanswered', reason: 'no webhook endpoint is configured (PATCH /config)' }
    if (this.closed) return { kind: 'unanswered', reason: 'the sandbox is closing' }
    const bytes = Buffer.from(out.text, 'utf8')
    const controller = new AbortController()
    this.controllers.add(controller)
    const timeoutMs = this.clock.delay(DURATIONS.webhookTimeout)
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, timeoutMs)
    try {
      const res = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signBody(keys, bytes) },
        body: bytes,
        redirect: 'manual',
        signal: controller.signal
      })
      // The body is part of the answer: it must come within the same time.
      const body = await res.text()
      return { kind: 'answered', status: res.status, body }
    } catch (err) {
      return { kind: 'unanswered', reason: describeFailure(err, timedOut, timeoutMs) }
    } finally {
      clearTimeout(timer)
      this.controllers.delete(controller)
    }
  }

  private record(out: Outgoing, answer: WebhookAnswer, outcome: DeliveryRecord['outcome']): void {
    const endpoint = this.target().endpoint
    this.records.push({
      webhookId: out.webhookId,
      type: out.type,
      ...(out.subject !== undefined && { subject: out.subject }),
      ...(endpoint !== undefined && { url: endpoint }),
      attempt: out.attempt,
      sentAt: iso(this.clock.now()),
      ...(answer.kind === 'answered' ? { status: answer.status } : { error: answer.reason }),
      outcome
    })
    if (this.records.length > LOG_LIMIT) this.records.splice(0, this.records.length - LOG_LIMIT)
  }

  private track(p: Promise<void>): void {
    const tracked: Promise<void> = p
      .catch((err: unknown) =>
        this.log(`Local sandbox: a webhook delivery failed: ${err instanceof Error ? err.message : String(err)}`)
      )
      .finally(() => this.inflight.delete(tracked))
    this.inflight.add(tracked)
  }
}

/** The webhooks a sandbox sends, for tests and the CLI. */
export interface SandboxWebhooks {
  /** PEM (SPKI) of the key that signs `X-Grid-Signature`. */
  publicKeyPem: string
  deliveries(): DeliveryRecord[]
  /** Resolves once no delivery is in flight and every answer has been applied. */
  idle(): Promise<void>
}
