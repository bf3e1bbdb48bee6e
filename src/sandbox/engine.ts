/**
 * The behaviour of the sandbox, independent of HTTP: every operation takes already validated input (the shared request
 * schemas validate at the HTTP edge), applies the business rules of the spec and the reference's sandbox, and either
 * changes state or throws an ApiError before changing anything.
 *
 * This module only composes: each resource's operations and time-based jobs live in src/sandbox/engine/.
 */
import type { Clock } from './clock'
import { approvalJobs } from './engine/approval'
import { createEngineCore, type EngineOptions } from './engine/core'
import { customerOperations } from './engine/customers'
import { externalAccountJobs, externalAccountOperations } from './engine/external-accounts'
import { incomingJobs, incomingOperations, settlement } from './engine/incoming'
import { internalAccountOperations } from './engine/internal-accounts'
import { registerJobHandlers } from './engine/jobs'
import { quoteJobs, quoteOperations } from './engine/quotes'
import { transactionOperations } from './engine/transactions'
import { outgoingJobs, transferOperations } from './engine/transfers'
import type { Scheduler } from './scheduler'
import type { Store } from './store'

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
