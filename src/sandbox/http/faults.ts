import { z } from 'zod'
import { ApiError } from '../state/sandbox-errors'

/**
 * Fault injection for tests (issue item 8). Off unless the server was created with `faults: true` (or the CLI got
 * `--faults`). Rules match requests by route and apply, in this order: added latency, then one "terminal" fault
 * (an error status, 429 with Retry-After, a connection reset before anything happens, or "commit then drop": the
 * request takes effect and the socket is destroyed instead of answering). `hang` holds a matching request without an
 * answer until the rule is removed (`DELETE /__faults`), then lets it go on as usual: a hung service, held as long as a
 * test needs instead of a latency it must outwait.
 */
export const FaultRuleInput = z.strictObject({
  /**
   * Which requests: `*` (all), a route template with or without its method (`POST /transfer-out`,
   * `GET /transactions/{transactionId}`, `/customers`), or an exact request path (`/transactions/Transaction:...`).
   */
  route: z.string().min(1).default('*'),
  kind: z.enum(['latency', 'error', 'rateLimit', 'reset', 'commitThenDrop', 'hang']),
  /** latency: milliseconds to wait before handling. */
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  /** error: HTTP status (default 500) and error code (default INTERNAL_ERROR, or what fits the status). */
  status: z.number().int().min(400).max(599).optional(),
  code: z
    .string()
    .regex(/^[A-Z][A-Z0-9_]*$/)
    .optional(),
  /**
   * error: the body's message and details (default "Injected fault: ..."), e.g. a 400 INVALID_INPUT whose
   * `details.issues` names a field, for the refusals only the real service makes.
   */
  message: z.string().min(1).max(500).optional(),
  details: z.record(z.string(), z.unknown()).optional(),
  /** rateLimit: Retry-After seconds (default 1). */
  retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
  /** Apply to this many matching requests, then drop the rule (default: every matching request). */
  times: z.number().int().min(1).optional()
})
export type FaultRuleInput = z.input<typeof FaultRuleInput>

interface FaultRule extends z.output<typeof FaultRuleInput> {
  id: number
  /** Requests this rule has applied to so far. */
  hits: number
}

interface FaultDecision {
  latencyMs: number
  terminal?: FaultRule
  /** hang: resolves when the rule that holds the request is removed (by id or by clearing them all). */
  hold?: Promise<void>
}

const TERMINAL = new Set(['error', 'rateLimit', 'reset', 'commitThenDrop'])

export class FaultController {
  private rules: FaultRule[] = []
  private nextId = 1
  /** Requests held by a hang rule, by its id: let go when that rule is removed, not when its `times` run out. */
  private held = new Map<number, { promise: Promise<void>; release: () => void }>()

  /** Add a rule; returns it (with its id). */
  add(input: FaultRuleInput): FaultRule {
    const parsed = FaultRuleInput.parse(input)
    const rule: FaultRule = { ...parsed, id: this.nextId++, hits: 0 }
    this.rules.push(rule)
    return rule
  }

  remove(id: number): boolean {
    const found = this.drop(id)
    this.held.get(id)?.release()
    this.held.delete(id)
    return found
  }

  clear(): void {
    this.rules = []
    for (const h of this.held.values()) h.release()
    this.held.clear()
  }

  private drop(id: number): boolean {
    const before = this.rules.length
    this.rules = this.rules.filter((r) => r.id !== id)
    return this.rules.length !== before
  }

  private holdFor(id: number): Promise<void> {
    let h = this.held.get(id)
    if (!h) {
      let release = () => {}
      const promise = new Promise<void>((resolve) => (release = resolve))
      h = { promise, release }
      this.held.set(id, h)
    }
    return h.promise
  }

  list(): FaultRule[] {
    return this.rules.map((r) => ({ ...r }))
  }

  get active(): boolean {
    return this.rules.length > 0
  }

  /** Decide the faults for one request, consuming `times`. */
  decide(method: string, template: string, path: string): FaultDecision {
    const decision: FaultDecision = { latencyMs: 0 }
    if (this.rules.length === 0) return decision
    for (const rule of [...this.rules]) {
      if (!matches(rule.route, method, template, path)) continue
      if (rule.kind === 'latency') {
        decision.latencyMs += rule.latencyMs ?? 0
      } else if (rule.kind === 'hang') {
        decision.hold ??= this.holdFor(rule.id)
      } else if (TERMINAL.has(rule.kind)) {
        if (decision.terminal) continue
        decision.terminal = rule
      }
      rule.hits++
      if (rule.times !== undefined && rule.hits >= rule.times) this.drop(rule.id)
    }
    return decision
  }
}

function matches(route: string, method: string, template: string, path: string): boolean {
  if (route === '*') return true
  const sp = route.indexOf(' ')
  if (sp > 0) {
    const m = route.slice(0, sp).toUpperCase()
    const r = route.slice(sp + 1).trim()
    return (m === '*' || m === method) && (r === template || r === path)
  }
  return route === template || route === path
}

const DEFAULT_CODE: Record<number, string> = {
  500: 'INTERNAL_ERROR',
  503: 'SERVICE_UNAVAILABLE',
  424: 'COUNTERPARTY_ERROR'
}

/** What an `error` or `rateLimit` rule answers instead of the request; undefined for the other kinds. */
export function injectedError(f: FaultRule): ApiError | undefined {
  if (f.kind === 'error') {
    const status = f.status ?? 500
    const code = f.code ?? DEFAULT_CODE[status] ?? 'INJECTED_FAULT'
    return new ApiError(status, code, f.message ?? `Injected fault: ${status} ${code}`, {
      ...f.details,
      injected: true,
      ruleId: f.id
    })
  }
  if (f.kind === 'rateLimit') {
    const after = f.retryAfterSeconds ?? 1
    return new ApiError(
      429,
      'RATE_LIMITED',
      `Too many requests; retry after ${after} s`,
      { injected: true, retryAfterSeconds: after },
      { 'retry-after': String(after) }
    )
  }
  return undefined
}

/** The controller of a sandbox started without fault injection: every rule is refused, saying how to turn it on. */
export class DisabledFaults extends FaultController {
  override add(): FaultRule {
    throw new Error('Fault injection is off: create the sandbox with { faults: true } (CLI: --faults)')
  }
}
