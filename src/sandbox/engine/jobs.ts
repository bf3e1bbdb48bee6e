/**
 * The time-based transitions of the engine: each kind names a job the scheduler runs later (and persists across
 * restarts, so the names are part of the state file). The handlers live with the resource whose state they move.
 */
import type { Job, Scheduler } from '../state/scheduler'

export const JOB = {
  accountVerify: 'account.verify',
  accountReview: 'account.review',
  outgoingProcess: 'outgoing.process',
  outgoingSettle: 'outgoing.settle',
  outgoingReturn: 'outgoing.return',
  incomingTimeout: 'incoming.timeout',
  incomingAsk: 'incoming.ask',
  incomingUnanswered: 'incoming.unanswered',
  incomingSettle: 'incoming.settle',
  quoteExpire: 'quote.expire'
} as const

type JobKind = (typeof JOB)[keyof typeof JOB]
export type JobHandlers<K extends JobKind = JobKind> = Record<K, (job: Job) => void>

/** Registers a handler for every kind of job; the type makes a missing kind a compile error. */
export function registerJobHandlers(scheduler: Scheduler, handlers: JobHandlers): void {
  for (const [kind, handle] of Object.entries(handlers)) scheduler.on(kind, handle)
}
