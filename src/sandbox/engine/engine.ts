/**
 * The behaviour of the sandbox, independent of HTTP: every operation takes already validated input (the shared request
 * schemas validate at the HTTP edge), applies the business rules of the spec and the reference's sandbox, and either
 * changes state or throws an ApiError before changing anything.
 *
 * This module only composes: each resource's operations and time-based jobs live in src/sandbox/engine/engine/.
 */
import type { Clock } from '../state/clock'
import { approvalJobs } from './approval'
import { createEngineCore, type EngineOptions } from './core'
import { customerOperations } from './customers'
import { externalAccountJobs, externalAccountOperations } from './external-accounts'
import { incomingJobs, incomingOperations, settlement } from './incoming'
import { internalAccountOperations } from './internal-accounts'
import { registerJobHandlers } from './jobs'
import { quoteJobs, quoteOperations } from './quotes'
import { transactionOperations } from './transactions'
import { outgoingJobs, transferOperations } from './transfers'
import type { Scheduler } from '../state/scheduler'
import type { Store } from '../state/sandbox-store'

export function createEngine(
  store: Store,
  clock: Clock,
  scheduler: Scheduler,
  options: EngineOptions,
  changed: () => void
) {
  const core = createEngineCore(store, clock, scheduler, options, changed)
  registerJobHandlers(scheduler, {
    ...externalAccountJobs(core),
    ...outgoingJobs(core),
    ...quoteJobs(core),
    ...incomingJobs(core),
    ...approvalJobs(core, options.approvals, settlement(core))
  })
  const internalAccounts = internalAccountOperations(core)
  return {
    ...core,
    ...internalAccounts,
    ...customerOperations(core, internalAccounts),
    ...externalAccountOperations(core),
    ...transferOperations(core),
    ...quoteOperations(core),
    ...incomingOperations(core),
    ...transactionOperations(core)
  }
}

export type Engine = ReturnType<typeof createEngine>
