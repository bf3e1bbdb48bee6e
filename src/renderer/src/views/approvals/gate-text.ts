import type { GateEvent, Prompt } from '../../../../shared/gate'
import type { GateLink } from '../../../../shared/ipc/channels/gate'
import { formatMoney, KNOWN_DECIMALS } from '../../../../shared/format/money'

/**
 * The sentences of the Approvals screen, kept out of the components so they can be checked without a page: who decided
 * (an actor string of the gate's log), what a log entry says, how long a prompt has left.
 */

/** `rule:<name>`, `pre-approval:<id>`, `operator:<name>`, `fallback:<rule>`, `otherwise`, `service`, `gate`. */
export function describeActor(actor: string): string {
  const at = actor.indexOf(':')
  const [kind, who] = at < 0 ? [actor, ''] : [actor.slice(0, at), actor.slice(at + 1)]
  switch (kind) {
    case 'rule':
      return `Rule “${who}”`
    case 'pre-approval':
      return `Pre-approval ${who}`
    case 'operator':
      return who ? `Operator ${who}` : 'An operator'
    case 'fallback':
      return who === 'otherwise' || !who ? 'Fallback (no rule matched)' : `Fallback of rule “${who}”`
    case 'otherwise':
      return 'No rule matched (otherwise)'
    case 'service':
      return 'The service'
    case 'gate':
      return 'The gate'
    default:
      return actor
  }
}

export type Outcome = 'approved' | 'rejected' | 'unprocessable'
export const OUTCOME_TEXT: Record<Outcome, string> = {
  approved: 'Approved',
  rejected: 'Rejected',
  unprocessable: 'Missing information (422)'
}

export interface EventLine {
  /** What happened, in a few words: "Approved", "Rules changed", "Webhook received". */
  what: string
  /** Why, or the detail that matters (a reason, the fields sent, which customer's information). */
  detail: string
  outcome: Outcome | null
  transactionId: string | null
  amount: { amount: number; code: string; decimals: number | undefined } | null
}

const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null)
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null)

/** The amount an entry's data states (webhook and answer-time decisions carry it), or null. */
export function amountOf(data: Record<string, unknown>): EventLine['amount'] {
  const amount = num(data['amount'])
  const code = str(data['currency'])
  if (amount === null || !code) return null
  return { amount, code, decimals: num(data['decimals']) ?? KNOWN_DECIMALS[code] }
}

const fields = (v: unknown) =>
  Array.isArray(v) && v.length ? v.filter((f) => typeof f === 'string').join(', ') : 'none'

/**
 * One log entry as a line of the decisions list. A kind this Paydesk does not know is shown with its kind and actor,
 * never dropped and never a crash. `amounts` gives the amount of a transaction seen in another entry (a decision after
 * a prompt carries none itself).
 */
export function describeEvent(event: GateEvent, amounts: ReadonlyMap<string, EventLine['amount']>): EventLine {
  const d = event.data
  const transactionId = str(d['transactionId'])
  const amount = amountOf(d) ?? (transactionId ? (amounts.get(transactionId) ?? null) : null)
  const base = { outcome: null, transactionId, amount }
  switch (event.kind) {
    case 'webhook':
      return {
        ...base,
        what: 'Webhook received',
        detail:
          str(d['type']) === 'INCOMING_PAYMENT.PENDING'
            ? `Asked to approve; requested fields: ${fields(d['requestedFields'])}`
            : `${str(d['type']) ?? 'Unknown type'} (informational)`
      }
    case 'prompt':
      return {
        ...base,
        what: 'Asked the operators',
        detail: (Array.isArray(d['reasons']) ? d['reasons'] : []).join(' ')
      }
    case 'decision': {
      const outcome = (['approved', 'rejected', 'unprocessable'] as const).find((o) => o === d['outcome']) ?? null
      const sent = Array.isArray(d['sentFields']) && d['sentFields'].length ? ` Sent: ${fields(d['sentFields'])}.` : ''
      return {
        ...base,
        outcome,
        what: outcome ? OUTCOME_TEXT[outcome] : `Decision: ${String(d['outcome'])}`,
        detail: `${str(d['reason']) ?? ''}${sent}`.trim()
      }
    }
    case 'decision-sent':
      return {
        ...base,
        what: d['ok'] === true ? 'Service told' : 'Service not told',
        detail:
          d['ok'] === true
            ? `${str(d['action']) ?? 'Decision'} sent to the service`
            : `The service did not take the ${str(d['action']) ?? 'decision'}: ${str(d['error']) ?? 'no answer'}`
      }
    case 'rules': {
      const rules = (d['rules'] ?? {}) as { rules?: { name?: unknown }[]; otherwise?: unknown }
      const names = (rules.rules ?? []).map((r) => `“${String(r.name)}”`)
      return {
        ...base,
        what: 'Rules changed',
        detail: `${names.length ? `Rules in order: ${names.join(', ')}` : 'No rules'}; otherwise ${String(rules.otherwise ?? 'ask')}`
      }
    }
    case 'pre-approval': {
      const p = (d['preApproval'] ?? {}) as Record<string, unknown>
      const code = str(p['currency']) ?? ''
      const decimals = KNOWN_DECIMALS[code]
      const range =
        decimals === undefined
          ? `${String(p['minAmount'])}–${String(p['maxAmount'])} minor units ${code}`
          : `${formatMoney(num(p['minAmount']) ?? 0, { code, decimals })} to ${formatMoney(num(p['maxAmount']) ?? 0, { code, decimals })}`
      return { ...base, what: 'Pre-approval added', detail: `For ${str(p['customerId']) ?? 'a customer'}, ${range}` }
    }
    case 'receiver-info':
      return {
        ...base,
        what: 'Receiver information changed',
        detail: `For ${str(d['customerId']) ?? 'a customer'}`
      }
    case 'operator':
      return { ...base, what: 'Operator added', detail: str(d['added']) ?? '' }
    default:
      return {
        ...base,
        what: `Entry “${event.kind}”`,
        detail: 'Not known to this Paydesk; kept as the gate logged it.'
      }
  }
}

/** The amounts the entries on screen state, by transaction: a decision after a prompt is shown with its payment's. */
export function amountsByTransaction(events: readonly GateEvent[]): Map<string, EventLine['amount']> {
  const map = new Map<string, EventLine['amount']>()
  for (const e of events) {
    const id = str(e.data['transactionId'])
    const amount = amountOf(e.data)
    if (id && amount && !map.has(id)) map.set(id, amount)
  }
  return map
}

/** "Rejecting automatically in 3 s": what happens at fallbackAt, and when; "now" once it has passed. */
export function fallbackText(prompt: Pick<Prompt, 'fallbackAt' | 'fallback'>, now: number): string {
  const verb = prompt.fallback === 'approve' ? 'Approving' : 'Rejecting'
  const left = Math.ceil((Date.parse(prompt.fallbackAt) - now) / 1000)
  if (Number.isNaN(left)) return `${verb} automatically when the gate’s margin runs out`
  return left > 0 ? `${verb} automatically in ${left} s` : `${verb} automatically now…`
}

/** The mandatory fields the sender requested that the gate has no value for: the operator fills them in to approve. */
export function missingMandatory(prompt: Pick<Prompt, 'requestedFields' | 'availableFields'>): string[] {
  return prompt.requestedFields
    .filter((f) => f.mandatory && !prompt.availableFields.includes(f.name))
    .map((f) => f.name)
}

/** The link's state in a few words, for the status line and its chip. */
export function linkSummary(link: Pick<GateLink, 'state' | 'lastEventAt'>, clock: (iso: string) => string): string {
  switch (link.state) {
    case 'live':
      return 'Live'
    case 'connecting':
      return 'Connecting…'
    case 'unreachable':
      return link.lastEventAt ? `Unreachable (last heard ${clock(link.lastEventAt)})` : 'Unreachable'
    case 'signed-out':
      return 'Signed out'
    case 'none':
      return 'No gate'
  }
}
