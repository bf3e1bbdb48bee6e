import { randomUUID } from 'node:crypto'
import type { Transaction } from '../../shared/api'
import {
  PRODUCTION_REJECT_NEEDS_REASON,
  type ActionKind,
  type ActionOutcome,
  type ActionStarted
} from '../../shared/action-log'
import { formatMoney, KNOWN_DECIMALS } from '../../shared/format/money'
import { AppError } from '../infra/app-error'
import type { Handlers } from './dispatch'
import type { ProfileSession } from '../domain/profile-session'

/**
 * The one hook that logs the operator's manual actions (services/action-log.ts): each channel below is wrapped so that
 * its entry (what, in words, with the names the cache has then, and the reason given) is on disk before the action is
 * sent, and its outcome after. A gate command the production guard will refuse unconfirmed is not an action yet: it
 * passes through unlogged and the guard asks. The `reason` field is Paydesk's own: it is taken off the input here, so
 * it never reaches the service or the gate (a reject's reason is the one the gate is sent, and logged as such).
 */

type Logged =
  | 'gate.answer'
  | 'gate.rules.set'
  | 'gate.preApprovals.add'
  | 'gate.receiverInfo.set'
  | 'externalAccounts.update'
  | 'externalAccounts.create'
  | 'externalAccounts.remove'
  | 'customers.create'

type Input<K extends Logged> = Parameters<Handlers[K]>[0]
type Output<K extends Logged> = Awaited<ReturnType<Handlers[K]>>

interface Described {
  kind: ActionKind
  what: string
  ids: string[]
}

type Describers = { [K in Logged]: (input: Input<K>, s: ProfileSession) => Described }

const nameOf = (s: ProfileSession, id: string | null | undefined, fallback: string) =>
  (id && s.cache.namesOf([id])[id]) ?? fallback

/** "Approved the incoming payment of $275.50 for Priya Raman" from what the cache knows of the payment. */
function paymentWords(s: ProfileSession, id: string): { words: string; ids: string[] } {
  const t = s.cache.get<Transaction & Record<string, unknown>>('transactions', id)
  if (!t) return { words: 'the payment', ids: [id] }
  const money = (t['receivedAmount'] ?? t['sentAmount']) as { amount?: number; currency?: { code: string } } | undefined
  const code = money?.currency?.code
  const amount =
    typeof money?.amount === 'number' && code
      ? ` of ${formatMoney(money.amount, { code, decimals: KNOWN_DECIMALS[code] ?? 2 }, { showCode: true })}`
      : ''
  const customerId = typeof t['customerId'] === 'string' ? t['customerId'] : undefined
  const who = customerId ? ` for ${nameOf(s, customerId, 'a customer')}` : ''
  return {
    words: `the ${t.type === 'OUTGOING' ? 'outgoing' : 'incoming'} payment${amount}${who}`,
    ids: [id, ...(customerId ? [customerId] : [])]
  }
}

const DESCRIBE: Describers = {
  'gate.answer': ({ transactionId, answer }, s) => {
    const { words, ids } = paymentWords(s, transactionId)
    return answer.action === 'approve'
      ? { kind: 'approve', what: `Approved ${words}`, ids }
      : { kind: 'reject', what: `Rejected ${words}`, ids }
  },
  'gate.rules.set': ({ rules }) => ({
    kind: 'rules',
    what: `Changed the approval rules: ${rules.rules.length} rule${rules.rules.length === 1 ? '' : 's'}, otherwise ${rules.otherwise === 'ask' ? 'ask a person' : 'reject'}`,
    ids: []
  }),
  'gate.preApprovals.add': ({ preApproval: p }, s) => ({
    kind: 'pre-approval',
    what: `Pre-approved a payment of ${formatMoney(p.minAmount, { code: p.currency, decimals: KNOWN_DECIMALS[p.currency] ?? 2 })} to ${formatMoney(p.maxAmount, { code: p.currency, decimals: KNOWN_DECIMALS[p.currency] ?? 2 }, { showCode: true })} for ${nameOf(s, p.customerId, 'a customer')}`,
    ids: [p.customerId]
  }),
  'gate.receiverInfo.set': ({ customerId }, s) => ({
    kind: 'receiver-info',
    what: `Set the receiver information of ${nameOf(s, customerId, 'a customer')}`,
    ids: [customerId]
  }),
  'externalAccounts.update': ({ id, update }, s) => ({
    kind: 'account',
    what: `Edited ${nameOf(s, id, 'an external account')}: ${Object.keys(update).map(fieldWord).join(', ') || 'nothing'}`,
    ids: [id]
  }),
  'externalAccounts.create': (input, s) => {
    const customerId = (input as { customerId?: string }).customerId
    return {
      kind: 'account',
      what: customerId
        ? `Added an external account for ${nameOf(s, customerId, 'a customer')}`
        : 'Added a platform external account',
      ids: customerId ? [customerId] : []
    }
  },
  'externalAccounts.remove': ({ id }, s) => ({
    kind: 'account',
    what: `Removed ${nameOf(s, id, 'an external account')}`,
    ids: [id]
  }),
  'customers.create': (input) => {
    const named = input as { fullName?: string; businessInfo?: { legalName?: string }; platformCustomerId?: string }
    return {
      kind: 'customer',
      what: `Added the customer ${named.fullName ?? named.businessInfo?.legalName ?? named.platformCustomerId ?? ''}`.trim(),
      ids: []
    }
  }
}

const FIELD_WORDS: Record<string, string> = { platformAccountId: 'your own account id', beneficiary: 'beneficiary' }
const fieldWord = (field: string) => FIELD_WORDS[field] ?? field

/** The gate commands the production guard asks twice for (gate-handlers.ts). */
const CONFIRMED: ReadonlySet<Logged> = new Set([
  'gate.answer',
  'gate.rules.set',
  'gate.preApprovals.add',
  'gate.receiverInfo.set'
])

function outcomeOf(error: unknown): { outcome: ActionOutcome; message?: string; code?: string } {
  if (!(error instanceof AppError))
    return { outcome: 'unknown', message: 'Paydesk could not tell whether it went through.' }
  return {
    outcome: error.maybeApplied ? 'unknown' : 'refused',
    message: error.message.slice(0, 1_000),
    code: (error.serviceCode ?? error.code).slice(0, 100)
  }
}

/** The new thing's id when an action created one. */
function createdIds(output: unknown): string[] {
  const id = (output as { id?: unknown } | null)?.id
  return typeof id === 'string' ? [id] : []
}

interface LoggedActionDeps {
  active(): Promise<ProfileSession>
  /** Whether the active profile is a production one. */
  production(): boolean
  now?: () => Date
}

/** The same handlers, the manual actions among them logged (the others untouched). */
export function withActionLog<H extends Partial<Handlers>>(handlers: H, d: LoggedActionDeps): H {
  const now = d.now ?? (() => new Date())
  const wrapped: Record<string, unknown> = { ...handlers }
  for (const channel of Object.keys(DESCRIBE) as Logged[]) {
    const handler = handlers[channel] as ((input: unknown) => Promise<unknown>) | undefined
    if (!handler) continue
    const describe = DESCRIBE[channel] as (input: unknown, s: ProfileSession) => Described
    wrapped[channel] = async (input: Record<string, unknown> & { reason?: string; confirmProduction?: boolean }) => {
      const { reason: given, ...rest } = input
      const production = d.production()
      if (CONFIRMED.has(channel) && production && rest.confirmProduction !== true) return handler(rest)
      const answer = channel === 'gate.answer' ? (rest as Input<'gate.answer'>).answer : undefined
      const reason = answer?.action === 'reject' ? (answer.reason ?? given) : given
      if (answer?.action === 'reject' && production && !reason)
        throw new AppError('INVALID_INPUT', PRODUCTION_REJECT_NEEDS_REASON, {
          fieldErrors: { reason: [PRODUCTION_REJECT_NEEDS_REASON] }
        })
      const s = await d.active()
      const id = randomUUID()
      const started: ActionStarted = {
        type: 'started',
        id,
        at: now().toISOString(),
        ...describe(rest, s),
        ...(reason && { reason })
      }
      // On disk before anything is sent: if this write fails, the action is not sent at all.
      await s.actions.append(started)
      let output: unknown
      try {
        output = await handler(rest)
      } catch (error) {
        await s.actions.append({ type: 'settled', id, at: now().toISOString(), ...outcomeOf(error) }).catch(() => {})
        throw error
      }
      const ids = createdIds(output).filter((i) => !started.ids.includes(i))
      await s.actions
        .append({ type: 'settled', id, at: now().toISOString(), outcome: 'done', ...(ids.length && { ids }) })
        .catch(() => {})
      return output as Output<typeof channel>
    }
  }
  return wrapped as H
}

/** The History view's read (src/shared/ipc/channels/history.ts). */
export function historyHandlers(active: () => Promise<ProfileSession>): Pick<Handlers, 'history.actions'> {
  return {
    'history.actions': async () => {
      const s = await active()
      return { profileId: s.profileId, entries: s.actions.entries() }
    }
  }
}
