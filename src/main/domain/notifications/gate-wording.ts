import { Decision, type GateEvent, type Prompt } from '../../../shared/gate'
import { formatMoney, KNOWN_DECIMALS } from '../../../shared/format/money'
import type { ProfileNotification } from './wording'

/**
 * What the approval gate's stream tells the operator, in full sentences: a payment waiting for a person is loud, an
 * approval by a rule, a pre-approval or an operator is quiet, and a rejection, a fallback or an approval that could not
 * be sent always tells. The gate decides; these only say what it did.
 */

/** What Paydesk knows of a payment when it tells about it (the prompt seen earlier, the cache's names). */
interface PaymentContext {
  amount?: number | undefined
  currency?: string | undefined
  decimals?: number | undefined
  sender?: string | null | undefined
  customerName?: string | null | undefined
  /** Seconds the gate waited for a person before its fallback (from the prompt). */
  waitedSeconds?: number | undefined
}

/** "$275.50 from $priya@uma.money for Priya Raman", as much of it as is known. */
export function describePayment(c: PaymentContext): string {
  const money =
    c.amount !== undefined && c.currency !== undefined
      ? formatMoney(
          c.amount,
          { code: c.currency, decimals: c.decimals ?? KNOWN_DECIMALS[c.currency] ?? 2 },
          { locale: 'en-US' }
        )
      : 'A payment'
  return `${money}${c.sender ? ` from ${c.sender}` : ''}${c.customerName ? ` for ${c.customerName}` : ''}`
}

export function promptArrived(prompt: Prompt, customerName: string | null): ProfileNotification {
  const what = describePayment({ ...prompt, customerName })
  const fallback = prompt.fallback === 'approve' ? 'approved' : 'rejected'
  // The time the gate gave for answering, not a clock time: a notification has no time zone setting (a clock in UTC
  // misleads an operator in Berlin), and it arrives within milliseconds of the prompt.
  const window = (Date.parse(prompt.fallbackAt) - Date.parse(prompt.receivedAt)) / 1000
  const within = Number.isFinite(window) && window > 0 ? ` within ${Math.round(window * 10) / 10} s` : ' in time'
  return {
    id: `gate-prompt:${prompt.transactionId}`,
    title: 'Payment waiting for your approval',
    body: `${what} is waiting for your approval: if nobody answers${within}, it will be ${fallback}.`,
    route: 'approvals',
    targetId: prompt.transactionId
  }
}

/** Who made a decision, from the log entry's actor (`rule:<name>`, `operator:<name>`, `fallback:<rule>`...). */
function byWhom(actor: string): { kind: string; name: string } {
  const i = actor.indexOf(':')
  return i < 0 ? { kind: actor, name: '' } : { kind: actor.slice(0, i), name: actor.slice(i + 1) }
}

/** A decision as a notification, or null when it is quiet (an approval a rule, pre-approval or person made). */
export function decisionMade(decision: Decision, actor: string, c: PaymentContext): ProfileNotification | null {
  const who = byWhom(actor)
  const what = describePayment(c)
  const reason = decision.reason.trim().replace(/\.$/, '')
  const base = { id: `gate-decision:${decision.transactionId}`, route: 'approvals', targetId: decision.transactionId }
  if (who.kind === 'fallback' || who.kind === 'otherwise') {
    const waited = c.waitedSeconds !== undefined ? ` within ${c.waitedSeconds} s` : ' in time'
    if (decision.outcome === 'approved')
      return {
        ...base,
        title: 'Payment approved by the fallback',
        body: `${what} was approved by the fallback: no operator answered${waited}.`
      }
    if (decision.outcome === 'rejected' && who.kind === 'fallback')
      return { ...base, title: 'Payment rejected', body: `${what} was rejected: no operator answered${waited}.` }
  }
  if (decision.outcome === 'approved') return null
  if (decision.outcome === 'unprocessable')
    return {
      ...base,
      title: 'Payment could not be approved',
      body: `${what} could not be approved: ${lowerFirst(reason)}.`
    }
  const by =
    who.kind === 'rule'
      ? ` by the rule “${who.name}”`
      : who.kind === 'operator'
        ? ` by ${who.name}`
        : who.kind === 'otherwise'
          ? ' because no rule matched'
          : ''
  // The gate's own sentence for a reject without a reason ("Rejected by Ana.") would only repeat who.
  const why = /^rejected by /i.test(reason) ? '' : `: ${lowerFirst(reason)}`
  return { ...base, title: 'Payment rejected', body: `${what} was rejected${by}${why}.` }
}

/** The gate decided after a 202 but the service did not take the call: the operator must look. */
export function decisionNotSent(
  transactionId: string,
  action: string,
  error: string,
  c: PaymentContext
): ProfileNotification {
  const verb = action === 'approve' ? 'approval' : 'rejection'
  return {
    id: `gate-sent:${transactionId}`,
    title: `The ${verb} did not reach the service`,
    body: `The gate’s ${verb} of ${lowerFirst(describePayment(c))} was not taken by the service: ${error.replace(/\.$/, '')}.`,
    route: 'approvals',
    targetId: transactionId
  }
}

export function lowerFirst(s: string): string {
  return /^[A-Z][a-z]/.test(s) ? s[0]!.toLowerCase() + s.slice(1) : s
}

/** What a gate decided while Paydesk was closed, counted by who decided (never one notification per entry). */
interface MissedTally {
  byRule: number
  byPreApproval: number
  byOperator: number
  rejected: number
  /** Decided by a rule's fallback (nobody answered), or approved because no rule matched. */
  fallbacks: number
  /** 422: receiver information the sender requires was missing. */
  unprocessable: number
  /** Decisions after a 202 the service did not take. */
  notSent: number
}

export const emptyTally = (): MissedTally => ({
  byRule: 0,
  byPreApproval: 0,
  byOperator: 0,
  rejected: 0,
  fallbacks: 0,
  unprocessable: 0,
  notSent: 0
})

/** Counts one log entry read after the saved position: decisions by who made them, and calls the service refused. */
export function tallyMissed(t: MissedTally, event: GateEvent): void {
  if (event.kind === 'decision-sent') {
    if (event.data['ok'] === false) t.notSent += 1
    return
  }
  if (event.kind !== 'decision') return
  const decision = Decision.safeParse(event.data)
  if (!decision.success) return
  const { outcome } = decision.data
  const who = byWhom(event.actor).kind
  // As decisionMade words them live: a fallback, or an approval because no rule matched, is told as the fallback's.
  if (who === 'fallback' || (who === 'otherwise' && outcome === 'approved')) t.fallbacks += 1
  else if (outcome === 'unprocessable') t.unprocessable += 1
  else if (outcome === 'rejected') t.rejected += 1
  else if (who === 'pre-approval') t.byPreApproval += 1
  else if (who === 'operator') t.byOperator += 1
  else t.byRule += 1
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/**
 * One notification for everything a gate decided while Paydesk was closed, or null when there is nothing to tell:
 * approvals alone are quiet, as they are live; a rejection, a fallback, a 422 or a decision the service did not take
 * always tells, and then the approvals are counted beside them.
 */
export function missedWhileClosed(t: MissedTally, lastSeq: number): ProfileNotification | null {
  const approved = t.byRule + t.byPreApproval + t.byOperator
  const loud = t.rejected + t.fallbacks + t.unprocessable + t.notSent
  if (loud === 0) return null
  const by = [
    t.byRule && `${t.byRule} by a rule`,
    t.byPreApproval && `${t.byPreApproval} by a pre-approval`,
    t.byOperator && `${t.byOperator} by an operator`
  ].filter(Boolean)
  const parts = [
    approved > 0 && `${plural(approved, 'approved payment')} (${by.join(', ')})`,
    t.rejected > 0 && `${plural(t.rejected, 'rejected payment')}`,
    t.fallbacks > 0 && `${plural(t.fallbacks, 'payment')} decided by the fallback (no operator answered)`,
    t.unprocessable > 0 &&
      `${plural(t.unprocessable, 'payment')} that could not be approved (receiver information missing)`,
    t.notSent > 0 && `${plural(t.notSent, 'decision')} the service did not take`
  ].filter(Boolean)
  return {
    id: `gate-missed:${lastSeq}`,
    title: 'Decided while Paydesk was closed',
    body: `While Paydesk was closed, the approval gate logged ${parts.join('; ')}. See Approvals → Decisions.`,
    route: 'approvals'
  }
}
