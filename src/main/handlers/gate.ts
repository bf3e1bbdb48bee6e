import { z } from 'zod'
import type { Transaction } from '../../shared/api'
import { GateEvent, GateRules, PreApproval, ReceiverInfo, type PromptAnswer } from '../../shared/gate'
import { Prompt } from '../../shared/gate'
import { AppError } from '../infra/app-error'
import type { Handlers } from './dispatch'
import { isProduction, requireProductionConfirmation } from '../domain/production-guard'
import type { ProfileStore } from '../domain/profiles'
import type { ProfileSession } from '../domain/profile-session'
import type { GateClient } from '../infra/gate/gate-client'
import type { GateLinks } from '../domain/gate/gate-links'

type GateChannel = Extract<keyof Handlers, `gate.${string}`>

interface Deps {
  profiles: ProfileStore
  links: GateLinks
  /** The active profile's session (its cache answers `gate.failedApprovals`). */
  active(): Promise<ProfileSession>
}

const PromptList = z.object({ prompts: z.array(Prompt) })
const LogPage = z.object({ events: z.array(GateEvent) })
const AnswerResult = z.looseObject({ decision: GateEvent })
const PreApprovalList = z.object({ preApprovals: z.array(PreApproval) })
const Nothing = z.unknown()
/** The gate's log answers at most this many entries per page. */
const GATE_PAGE = 500
/** Incoming payments read from the cache, newest first, looking for failed approvals. */
const FAILED_SCAN_PAGE = 500
const FAILED_SCAN_PAGES = 20
const FAILED_LIMIT = 200

/**
 * The gate channels: each a call to the active profile's gate (docs/gate.md), which the gate logs with the operator's
 * name. Commands that decide payments, or change how they are decided, ask twice on a production profile.
 */
export function gateHandlers(d: Deps): Pick<Handlers, GateChannel> {
  const activeId = () => d.profiles.activeProfileId
  const gate = () => d.links.client(activeId())
  const confirm = (confirmed: boolean | undefined, sentence: string) =>
    requireProductionConfirmation(isProduction(d.profiles.get(activeId())), confirmed, sentence)

  return {
    'gate.link': async () => d.links.link(activeId()),
    'gate.connect': async ({ url, token }) => d.links.connect(activeId(), url, token),
    'gate.disconnect': async () => d.links.disconnect(activeId()),
    'gate.prompts': async () => {
      const profileId = activeId()
      const { prompts } = await gate().call('GET', '/operator/prompts', PromptList)
      prompts.sort((a, b) => Date.parse(a.fallbackAt) - Date.parse(b.fallbackAt))
      return { profileId, prompts }
    },
    'gate.answer': async ({ transactionId, answer, confirmProduction }) => {
      const profileId = activeId()
      confirm(confirmProduction, answerSentence(answer))
      try {
        const { decision } = await gate().call(
          'POST',
          `/operator/prompts/${encodeURIComponent(transactionId)}`,
          AnswerResult,
          answer
        )
        return { profileId, decision }
      } catch (error) {
        throw await tooLate(error, d.links, profileId, transactionId)
      }
    },
    'gate.log': async ({ before, limit }) => {
      const profileId = activeId()
      return { profileId, events: await readBack(d.links, profileId, before, limit) }
    },
    'gate.rules.get': async () => gate().call('GET', '/operator/rules', GateRules),
    'gate.rules.set': async ({ rules, confirmProduction }) => {
      confirm(
        confirmProduction,
        'these rules decide real payments as soon as they are saved. Confirm to save them; nothing changed.'
      )
      return gate().call('PUT', '/operator/rules', GateRules, rules)
    },
    'gate.preApprovals.list': async () => {
      const profileId = activeId()
      const { preApprovals } = await gate().call('GET', '/operator/pre-approvals', PreApprovalList)
      return { profileId, preApprovals }
    },
    'gate.preApprovals.add': async ({ preApproval, confirmProduction }) => {
      confirm(
        confirmProduction,
        'a pre-approval approves a real payment when it arrives. Confirm to add it; nothing changed.'
      )
      return gate().call('POST', '/operator/pre-approvals', PreApproval, preApproval)
    },
    'gate.receiverInfo.get': async ({ customerId }) => receiverInfoOf(gate(), customerId),
    'gate.receiverInfo.set': async ({ customerId, info, confirmProduction }) => {
      confirm(
        confirmProduction,
        'the gate sends this receiver information with real payments it approves. Confirm to save it; nothing changed.'
      )
      const client = gate()
      await client.call('PUT', `/operator/receiver-info/${encodeURIComponent(customerId)}`, Nothing, { info })
      // The gate answers 204: its record (who, when) is read back.
      const kept = await receiverInfoOf(client, customerId)
      if (!kept)
        throw new AppError(
          'UNEXPECTED_RESPONSE',
          'The approval gate took the receiver information but does not show it.'
        )
      return kept
    },
    'gate.failedApprovals': async () => {
      const s = await d.active()
      return { profileId: s.profileId, transactions: await failedApprovals(s) }
    }
  }
}

/** What the gate keeps for a customer, or null when it keeps nothing (its 404 says RECEIVER_INFO_NOT_FOUND). */
async function receiverInfoOf(client: GateClient, customerId: string): Promise<ReceiverInfo | null> {
  try {
    return await client.call('GET', `/operator/receiver-info/${encodeURIComponent(customerId)}`, ReceiverInfo)
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'NOT_FOUND') throw error
    // The gate's own 404 names a code; a bare one is a gate too old to read receiver information back.
    if (error.serviceCode !== undefined) return null
    throw new AppError(
      'NOT_FOUND',
      'This approval gate cannot show receiver information (update it): set the values again to change them.'
    )
  }
}

function answerSentence(answer: PromptAnswer): string {
  return answer.action === 'approve'
    ? 'approving releases a real payment. Confirm the approval to send it; nothing was sent.'
    : 'rejecting refuses a real payment for good. Confirm the rejection to send it; nothing was sent.'
}

/** A 409 (or a prompt gone) on an answer: someone or something decided first, said with who when the log tells. */
async function tooLateError(links: GateLinks, profileId: string, transactionId: string, error: AppError) {
  let who = 'another operator, a rule or the fallback'
  try {
    const recent = await readBack(links, profileId, undefined, 200)
    const decision = recent.find((e) => e.kind === 'decision' && e.data['transactionId'] === transactionId)
    if (decision) who = describeActor(decision.actor)
  } catch {
    // Who decided is a courtesy; the refusal is what matters.
  }
  return new AppError('CONFLICT', `Too late: this payment was already decided by ${who}. Nothing was sent.`, {
    ...(error.serviceCode !== undefined && { serviceCode: error.serviceCode }),
    ...(error.httpStatus !== undefined && { httpStatus: error.httpStatus })
  })
}

async function tooLate(error: unknown, links: GateLinks, profileId: string, transactionId: string) {
  if (!(error instanceof AppError) || (error.httpStatus !== 409 && error.httpStatus !== 404)) return error
  return tooLateError(links, profileId, transactionId, error)
}

export function describeActor(actor: string): string {
  const i = actor.indexOf(':')
  const kind = i < 0 ? actor : actor.slice(0, i)
  const name = i < 0 ? '' : actor.slice(i + 1)
  if (kind === 'operator') return name
  if (kind === 'rule') return `the rule “${name}”`
  if (kind === 'pre-approval') return 'a pre-approval'
  if (kind === 'fallback') return 'the fallback (nobody answered in time)'
  if (kind === 'otherwise') return 'the rules’ default'
  return actor
}

/**
 * The gate's log newest first, `limit` entries below `before`. The gate pages forwards only (after=), and its seqs have
 * no gaps (a hash chain), so a page back is the page after `before - 1 - limit`.
 */
async function readBack(links: GateLinks, profileId: string, before: number | undefined, limit: number) {
  const client = links.client(profileId)
  let end = before
  if (end === undefined) {
    // The newest: from the last entry the stream saw, and whatever came since.
    let last = links.link(profileId).lastSeq
    for (;;) {
      const { events } = await client.call('GET', `/operator/log?after=${last}`, LogPage)
      if (events.length) last = events.at(-1)!.seq
      if (events.length < GATE_PAGE) break
    }
    end = last + 1
  }
  const after = Math.max(0, end - 1 - limit)
  const { events } = await client.call('GET', `/operator/log?after=${after}`, LogPage)
  return events.filter((e) => e.seq < end).reverse()
}

/** Incoming payments the service failed for an approval reason (PAYMENT_APPROVAL_*), newest first, from the cache. */
export async function failedApprovals(s: Pick<ProfileSession, 'cache'>): Promise<Transaction[]> {
  const out: Transaction[] = []
  let after: unknown[] | null = null
  for (let page = 0; page < FAILED_SCAN_PAGES && out.length < FAILED_LIMIT; page++) {
    const { rows, last } = await s.cache.transactionPage(
      { type: 'INCOMING', status: ['FAILED'] },
      { field: 'createdAt', direction: 'desc' },
      after,
      FAILED_SCAN_PAGE
    )
    for (const t of rows) {
      const reason = (t as { failureReason?: unknown }).failureReason
      if (typeof reason === 'string' && reason.startsWith('PAYMENT_APPROVAL_')) out.push(t)
    }
    if (rows.length < FAILED_SCAN_PAGE || !last) break
    after = last
  }
  return out.slice(0, FAILED_LIMIT)
}
