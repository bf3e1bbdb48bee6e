/**
 * The real service's approval protocol for incoming payments (reference README, "Incoming payments and approval";
 * docs/real-service.md): the service POSTs `INCOMING_PAYMENT.PENDING` to the platform's webhook endpoint, once, and the
 * platform's answer decides. 200 approves (with the requested receiver fields), 403 rejects, 422 asks for more sender
 * data (which the sandbox's senders do not have: the payment fails), 202 defers to `approve`/`reject` within 5 s.
 * No endpoint, no answer in time, a 5xx or an unreadable body: PAYMENT_APPROVAL_WEBHOOK_ERROR.
 */
import {
  IncomingPaymentWebhookRejection,
  IncomingPaymentWebhookResponse,
  IncomingPaymentWebhookUnprocessable
} from '../../shared/api/platform-config'
import { iso } from '../state/clock'
import type { CustomerObj, RequestedField, TransactionRec } from '../state/model'
import { DURATIONS } from '../state/timing'
import type { EngineCore } from './core'
import { JOB, type JobHandlers } from './jobs'

/** What came back from one webhook delivery: an HTTP answer, or the reason none came. */
export type WebhookAnswer = { kind: 'answered'; status: number; body: string } | { kind: 'unanswered'; reason: string }

/** How the engine asks: one delivery, never retried (webhooks/dispatcher.ts). */
export interface ApprovalChannel {
  ask(type: 'INCOMING_PAYMENT.PENDING', data: unknown, onAnswer: (answer: WebhookAnswer) => void): void
}

/**
 * What every sandbox sender's institution asks about the receiver (the sandbox's rule, src/sandbox/README.md): the
 * webhook lists only those the receiving customer's record lacks, as the service asks only for what it does not have.
 */
const SENDER_REQUESTED_FIELDS: readonly RequestedField[] = [
  { name: 'FULL_NAME', mandatory: true },
  { name: 'BIRTH_DATE', mandatory: true },
  { name: 'NATIONALITY', mandatory: false }
]

const ON_RECORD: Record<string, (c: CustomerObj) => boolean> = {
  FULL_NAME: (c) => Boolean(c.fullName),
  BIRTH_DATE: (c) => Boolean(c.birthDate),
  NATIONALITY: (c) => Boolean(c.nationality)
}

export function requestedFields(c: CustomerObj): RequestedField[] {
  return SENDER_REQUESTED_FIELDS.filter((f) => !ON_RECORD[f.name]?.(c)).map((f) => ({ ...f }))
}

const given = (v: unknown): boolean => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '')

/** The mandatory requested fields `info` does not give. */
export function missingMandatory(requested: RequestedField[], info: Record<string, unknown> | undefined): string[] {
  return requested.filter((f) => f.mandatory && !given(info?.[f.name])).map((f) => f.name)
}

type ApprovalDecision =
  | { kind: 'approve'; receiverCustomerInfo?: Record<string, unknown> }
  | { kind: 'reject'; reason?: string }
  | { kind: 'defer' }
  | { kind: 'fail'; failureReason: string; why: string; requiredFields?: string[]; missingFields?: string[] }

const UNREADABLE = Symbol('unreadable')

function readJson(body: string): unknown {
  if (body.trim() === '') return undefined
  try {
    return JSON.parse(body) as unknown
  } catch {
    return UNREADABLE
  }
}

const webhookError = (why: string): ApprovalDecision => ({
  kind: 'fail',
  failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR',
  why
})

/** What the platform's answer means for the payment. */
function judgeAnswer(answer: WebhookAnswer, requested: RequestedField[]): ApprovalDecision {
  if (answer.kind === 'unanswered') return webhookError(answer.reason)
  const { status } = answer
  const json = readJson(answer.body)
  if (status === 202) return { kind: 'defer' }
  if (status === 200) {
    if (json === UNREADABLE) return webhookError('the 200 answer has a body that is not JSON')
    const read = IncomingPaymentWebhookResponse.safeParse(json ?? {})
    if (!read.success) return webhookError('the 200 answer is not an object with a receiverCustomerInfo object')
    const info = read.data.receiverCustomerInfo
    const missing = missingMandatory(requested, info)
    if (missing.length > 0) {
      return {
        kind: 'fail',
        failureReason: 'MISSING_MANDATORY_PAYEE_DATA',
        why: `the approval lacks mandatory receiver fields: ${missing.join(', ')}`,
        missingFields: missing
      }
    }
    return { kind: 'approve', ...(info !== undefined && { receiverCustomerInfo: info }) }
  }
  if (status === 403) {
    const read = IncomingPaymentWebhookRejection.safeParse(json)
    return { kind: 'reject', ...(read.success && read.data.reason !== undefined && { reason: read.data.reason }) }
  }
  if (status === 422) {
    const read = IncomingPaymentWebhookUnprocessable.safeParse(json)
    const requiredFields = read.success ? (read.data.requiredFields ?? []) : []
    return {
      kind: 'fail',
      // The sandbox's senders have no more to give: the sender's pay request fails.
      failureReason: 'PAY_REQUEST_FAILED',
      why: `the platform wants more sender data (${requiredFields.join(', ') || 'no fields named'})`,
      requiredFields
    }
  }
  return webhookError(`the webhook endpoint answered ${status}`)
}

export interface Settlement {
  /** Moves an approved payment on (PROCESSING, then settled by a job): engine/incoming.ts. */
  start(rec: TransactionRec, receiverCustomerInfo: Record<string, unknown> | undefined): void
}

/** Applies the platform's answer, if the payment still waits for it (a restart or a decision may have come first). */
export function applyAnswer(core: EngineCore, settlement: Settlement, id: string, answer: WebhookAnswer): void {
  const { store, clock, scheduler } = core
  const rec = store.transactions.get(id)
  const approval = rec?.meta.approval
  if (!rec || !approval || rec.data.status !== 'PENDING' || approval.phase !== 'ASKING') return
  const decision = judgeAnswer(answer, approval.requested)
  if (answer.kind === 'answered') approval.answerStatus = answer.status
  else approval.error = answer.reason
  const now = clock.stamp()
  approval.phase = decision.kind === 'defer' ? 'DEFERRED' : 'DECIDED'
  store.markTxDirty(rec.id)
  switch (decision.kind) {
    case 'approve':
      settlement.start(rec, decision.receiverCustomerInfo)
      break
    case 'reject':
      store.setTxStatus(rec, 'REJECTED')
      if (decision.reason !== undefined) rec.meta.rejectReason = decision.reason
      rec.data.updatedAt = iso(now)
      break
    case 'defer': {
      const deadline = now + clock.delay(core.options.approvalDeferral ?? DURATIONS.approvalDeferral)
      rec.meta.approvalDeadline = deadline
      scheduler.scheduleAt(JOB.incomingTimeout, rec.id, deadline)
      break
    }
    case 'fail':
      approval.error ??= decision.why
      if (decision.requiredFields) approval.requiredFields = decision.requiredFields
      if (decision.missingFields) approval.missingFields = decision.missingFields
      rec.data.failureReason = decision.failureReason
      store.setTxStatus(rec, 'FAILED')
      rec.data.updatedAt = iso(now)
      break
  }
  core.changed()
}

export function approvalJobs(
  core: EngineCore,
  channel: ApprovalChannel,
  settlement: Settlement
): JobHandlers<'incoming.ask' | 'incoming.unanswered'> {
  return {
    /** The webhook goes out once; its answer (or its absence) decides. */
    [JOB.incomingAsk]: (job) => {
      const rec = core.store.transactions.get(job.ref)
      const approval = rec?.meta.approval
      if (!rec || !approval || rec.data.status !== 'PENDING' || approval.phase !== 'ASKING') return
      const data = {
        ...rec.data,
        ...(approval.requested.length > 0 && { requestedReceiverCustomerInfoFields: approval.requested })
      }
      channel.ask('INCOMING_PAYMENT.PENDING', data, (answer) => applyAnswer(core, settlement, rec.id, answer))
      // A job, so that it survives a restart that cut the delivery: the answer never comes, as when the service's
      // own delivery is cut. Twice the delivery's timeout, which normally fails it first (to the same effect).
      core.scheduler.schedule(JOB.incomingUnanswered, rec.id, core.clock.delay(2 * DURATIONS.webhookTimeout))
    },
    [JOB.incomingUnanswered]: (job) =>
      applyAnswer(core, settlement, job.ref, { kind: 'unanswered', reason: 'no answer came (the sandbox restarted?)' })
  }
}
