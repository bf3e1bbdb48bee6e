/**
 * What every resource of the engine shares: the state, the clock and scheduler, record lookups that answer the
 * spec's not-found errors, and the ledger posting that is the only place a balance changes.
 */
import { iso, type Clock } from '../state/clock'
import { ApiError, notFound, REFERENCE_NOT_FOUND } from '../state/sandbox-errors'
import type {
  CustomerRec,
  ExternalAccountRec,
  InternalAccountRec,
  JournalEntry,
  QuoteRec,
  TransactionRec
} from '../state/model'
import type { Scheduler } from '../state/scheduler'
import type { Store } from '../state/sandbox-store'
import type { ApprovalChannel } from './approval'

export interface EngineOptions {
  /** Where the approval webhook goes out (webhooks/dispatcher.ts). */
  approvals: ApprovalChannel
  /**
   * Seconds of the service (scaled by timeScale) that a payment answered 202 waits for approve/reject; default
   * DURATIONS.approvalDeferral, the published 5 s. Longer only for tests and demos (SandboxServerOptions).
   */
  approvalDeferral?: number
}

export interface EngineCore {
  readonly store: Store
  readonly clock: Clock
  readonly scheduler: Scheduler
  readonly options: EngineOptions
  /** Called after every state change made by an operation (persistence and list caches listen). */
  readonly changed: () => void
  newId(prefix: string, t: number): string
  /** A reconciliation reference for an incoming payment. */
  reference(t: number): string
  /** Move money on an internal account; never below zero. */
  post(account: InternalAccountRec, delta: number, kind: JournalEntry['kind'], ref: string, at: number): void
  customer(id: string): CustomerRec
  externalAccount(id: string): ExternalAccountRec
  internalAccount(id: string): InternalAccountRec
  transaction(id: string): TransactionRec
  quote(id: string): QuoteRec
  /** Who a transaction on this internal account is made for: its customer, or the platform. */
  ownerOf(account: InternalAccountRec): { customerId: string; platformCustomerId: string }
  /** Refuses a deleted customer, or one whose KYC is not approved. */
  requireReadyCustomer(c: CustomerRec): void
}

/** A record from one of the store's maps, or the not-found error the spec gives for that kind of record. */
function lookup<T>(records: Map<string, T>, missing: (id: string) => ApiError): (id: string) => T {
  return (id) => {
    const found = records.get(id)
    if (!found) throw missing(id)
    return found
  }
}

export function customerDeleted(id: string, already = false): ApiError {
  const message = already ? `Customer ${id} has already been deleted` : `Customer ${id} has been deleted`
  return new ApiError(410, 'CUSTOMER_DELETED', message, { customerId: id })
}

export function unsupportedCurrency(code: string): ApiError {
  return new ApiError(400, 'INVALID_CURRENCY', `Currency ${code} is not supported by the sandbox`, { currency: code })
}

export function createEngineCore(
  store: Store,
  clock: Clock,
  scheduler: Scheduler,
  options: EngineOptions,
  changed: () => void
): EngineCore {
  const customer = lookup(store.customers, (id) =>
    notFound('USER_NOT_FOUND', `Customer ${id} not found`, { customerId: id })
  )
  return {
    store,
    clock,
    scheduler,
    options,
    changed,
    newId: (prefix, t) => store.ids.next(prefix, t),
    reference(t) {
      const n = (store.ids.sequence + 1).toString(36).toUpperCase()
      return `SBX-${t.toString(36).toUpperCase().slice(-5)}${n}-REF`
    },
    post(account, delta, kind, ref, at) {
      const next = account.data.balance.amount + delta
      if (next < 0) {
        // Callers check first; reaching this is a bug, and refusing keeps the ledger right.
        throw new ApiError(500, 'INTERNAL_ERROR', `Ledger refused to take ${account.id} below zero`)
      }
      if (!Number.isSafeInteger(next)) {
        throw new ApiError(
          400,
          'AMOUNT_OUT_OF_RANGE',
          'The balance would exceed the largest amount the sandbox can hold'
        )
      }
      account.data.balance = { amount: next, currency: account.data.balance.currency }
      account.data.updatedAt = iso(at)
      store.journal.push({ accountId: account.id, delta, kind, ref, at: iso(at) })
      store.events?.balanceChanged(account)
    },
    customer,
    externalAccount: lookup(store.externalAccounts, (id) =>
      notFound(REFERENCE_NOT_FOUND, `External account ${id} not found`, { externalAccountId: id })
    ),
    internalAccount: lookup(store.internalAccounts, (id) =>
      notFound(REFERENCE_NOT_FOUND, `Internal account ${id} not found`, { accountId: id })
    ),
    transaction: lookup(store.transactions, (id) =>
      notFound('TRANSACTION_NOT_FOUND', `Transaction ${id} not found`, { transactionId: id })
    ),
    quote: lookup(store.quotes, (id) => notFound('QUOTE_NOT_FOUND', `Quote ${id} not found`, { quoteId: id })),
    ownerOf(account) {
      if (account.data.customerId) {
        const c = customer(account.data.customerId)
        return { customerId: c.id, platformCustomerId: c.data.platformCustomerId }
      }
      return { customerId: store.platform.id, platformCustomerId: store.platform.platformCustomerId }
    },
    requireReadyCustomer(c) {
      if (c.data.isDeleted) throw customerDeleted(c.id)
      if (c.data.kycStatus !== 'APPROVED') {
        throw new ApiError(403, 'USER_NOT_READY', `Customer ${c.id} is not ready: KYC status is ${c.data.kycStatus}`, {
          customerId: c.id,
          kycStatus: c.data.kycStatus
        })
      }
    }
  }
}
