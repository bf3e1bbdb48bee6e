import type { Decision, Prompt } from '../../shared/gate'
import { formatMoney, KNOWN_DECIMALS } from '../../shared/format/money'
import type { ProfileNotification } from './wording'

/**
 * What the approval gate's stream tells the operator, in full sentences: a payment waiting for a person is loud, an
 * approval by a rule, a pre-approval or an operator is quiet, and a rejection, a fallback or an approval that could not
 * be sent always tells. The gate decides; these only say what it did.
 */

/** What Paydesk knows of a payment when it tells about it (the prompt seen earlier, the cache's names). */
export interface PaymentContext {
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
  const at = prompt.fallbackAt.slice(11, 19)
  const fallback = prompt.fallback === 'approve' ? 'approved' : 'rejected'
  return {
    id: `gate-prompt:${prompt.transactionId}`,
    title: 'Payment waiting for your approval',
    body: `${what} is waiting for your approval: if nobody answers, it will be ${fallback} at ${at} UTC.`,
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
