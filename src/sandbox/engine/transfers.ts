/**
 * Outgoing payments: transfer-out, and the life of every outgoing payment after it starts (quotes' included):
 * PENDING → PROCESSING → COMPLETED, or FAILED with the money refunded, as the destination's suffix scenario says.
 */
import type { TransferOutRequest } from '../../shared/api/transaction'
import { iso } from '../state/clock'
import { amountOf } from '../state/currencies'
import { ApiError, invalidInput, refusedAsInvalid } from '../state/sandbox-errors'
import type {
  CustomerRec,
  ExternalAccountRec,
  InternalAccountRec,
  TransactionObj,
  TransactionRec
} from '../state/model'
import { transferScenario } from './rules'
import { DURATIONS } from '../state/timing'
import type { EngineCore } from './core'
import { JOB, type JobHandlers } from './jobs'

/** Fixed fee of an outgoing payment (transfer-out and quotes), in minor units of the sending currency. */
export const OUTGOING_FIXED_FEE = 10

/** Refused before anything changes: a source balance that cannot pay `required` (amount and fee). */
export function insufficientFunds(message: string, details: Record<string, number>): ApiError {
  return new ApiError(400, 'INVALID_AMOUNT', message, { reason: 'INSUFFICIENT_FUNDS', ...details })
}

/**
 * Common checks of a payment from an internal account to an external account. Transfer-out and quotes publish no
 * 403, 409 or 410: a customer who cannot pay and a destination that cannot receive are refused as invalid input, the
 * reason in details (docs/real-service.md, "Errors").
 */
export function checkPayment(core: EngineCore, source: InternalAccountRec, dest: ExternalAccountRec): void {
  const owner = source.data.customerId
  if (owner) requirePayingCustomer(core.customer(owner))
  if (owner && dest.data.customerId !== owner) {
    throw invalidInput(`Destination ${dest.id} does not belong to customer ${owner}, who owns the source account`, {
      sourceCustomerId: owner,
      destinationCustomerId: dest.data.customerId ?? null
    })
  }
  if (dest.data.status !== 'ACTIVE') {
    throw refusedAsInvalid(
      'EXTERNAL_ACCOUNT_NOT_ACTIVE',
      `External account ${dest.id} is ${dest.data.status}; only ACTIVE accounts can receive payments`,
      { externalAccountId: dest.id, status: dest.data.status }
    )
  }
}

/** A customer who may send: not deleted, KYC APPROVED. */
function requirePayingCustomer(c: CustomerRec): void {
  if (c.data.isDeleted) {
    throw refusedAsInvalid('CUSTOMER_DELETED', `Customer ${c.id} has been deleted`, { customerId: c.id })
  }
  if (c.data.kycStatus !== 'APPROVED') {
    throw refusedAsInvalid('USER_NOT_READY', `Customer ${c.id} is not ready: KYC status is ${c.data.kycStatus}`, {
      customerId: c.id,
      kycStatus: c.data.kycStatus
    })
  }
}

/** Takes `total` (the amount and then the fee, as two journal entries) from the source for payment `tx`. */
export function debit(
  core: EngineCore,
  tx: TransactionRec,
  source: InternalAccountRec,
  { total, fee }: { total: number; fee: number },
  now: number
): void {
  core.post(source, -(total - fee), 'TRANSFER', tx.id, now)
  core.post(source, -fee, 'FEE', tx.id, now)
  tx.meta.debitAccountId = source.id
  tx.meta.debited = total
}

/** A quote follows the status of the payment it started. */
function syncQuote(core: EngineCore, tx: TransactionRec): void {
  if (!tx.data.quoteId) return
  const q = core.store.quotes.get(tx.data.quoteId)
  if (!q) return
  const s = tx.data.status
  q.data.status =
    s === 'PENDING' || s === 'PROCESSING' || s === 'COMPLETED' || s === 'FAILED' || s === 'EXPIRED' ? s : 'FAILED'
}

/** Sets a payment's status now and keeps its quote in step. */
export function moveTo(core: EngineCore, tx: TransactionRec, status: string, now: number, failureReason?: string) {
  core.store.setTxStatus(tx, status)
  if (failureReason !== undefined) tx.data.failureReason = failureReason
  tx.data.updatedAt = iso(now)
  syncQuote(core, tx)
}

export function scheduleSettle(core: EngineCore, rec: TransactionRec): void {
  const slow = rec.meta.scenario === 'Q:SLOW'
  core.scheduler.schedule(
    JOB.outgoingSettle,
    rec.id,
    core.clock.delay(slow ? DURATIONS.quoteSlow : DURATIONS.outgoingProcessing)
  )
}

/** FAILED with a reason; money taken from an internal account goes back unless the refund itself fails. */
function failOutgoing(
  core: EngineCore,
  rec: TransactionRec,
  refundStatus: 'COMPLETED' | 'FAILED',
  refundReason: string,
  now: number
): void {
  core.store.setTxStatus(rec, 'FAILED')
  rec.data.failureReason = 'COUNTERPARTY_POST_TX_FAILED'
  rec.data.updatedAt = iso(now)
  if (rec.meta.debited !== undefined && rec.meta.debitAccountId) {
    rec.data.refund = {
      reference: `${rec.id.slice(-12).toUpperCase()}-REFUND`,
      initiatedAt: iso(now),
      status: refundStatus,
      ...(refundStatus === 'COMPLETED' ? { settledAt: iso(now) } : {}),
      reason: refundReason
    }
    const account = core.store.internalAccounts.get(rec.meta.debitAccountId)
    if (refundStatus === 'COMPLETED' && account) core.post(account, rec.meta.debited, 'REFUND', rec.id, now)
  }
  syncQuote(core, rec)
}

/** The amount sent: as asked, or everything the balance holds beyond the fee. Throws when the balance falls short. */
function amountToSend(source: InternalAccountRec, requested: number | undefined, fee: number): number {
  const balance = source.data.balance.amount
  const amount = requested ?? balance - fee
  if (amount <= 0) {
    throw new ApiError(
      400,
      'INVALID_AMOUNT',
      `Nothing to transfer: the balance (${balance}) does not cover the fee (${fee})`,
      {
        balance,
        fee
      }
    )
  }
  const total = amount + fee
  if (!Number.isSafeInteger(total) || total > balance) {
    throw insufficientFunds(
      `Insufficient balance: ${source.id} holds ${balance}, the transfer needs ${total} (amount ${amount} + fee ${fee})`,
      { balance, amount, fee, required: total }
    )
  }
  return amount
}

export function transferOperations(core: EngineCore) {
  return {
    transferOut(req: TransferOutRequest): TransactionObj {
      const source = core.internalAccount(req.source.accountId)
      const dest = core.externalAccount(req.destination.accountId)
      const cur = source.data.balance.currency.code
      if (dest.data.currency !== cur) {
        throw new ApiError(
          400,
          'INVALID_CURRENCY',
          `Transfer-out moves one currency: the source holds ${cur}, the destination ${dest.data.currency} (use a quote to convert)`,
          { sourceCurrency: cur, destinationCurrency: dest.data.currency }
        )
      }
      checkPayment(core, source, dest)
      const fee = OUTGOING_FIXED_FEE
      const amount = amountToSend(source, req.amount, fee)
      const total = amount + fee
      const scenario = transferScenario(dest.meta.identifier)
      const t = core.clock.stamp()
      const id = core.newId('Transaction', t)
      const owner = core.ownerOf(source)
      const immediateFailure = scenario === 'INSUFFICIENT_FUNDS' || scenario === 'ACCOUNT_CLOSED'
      const data: TransactionObj = {
        id,
        status: immediateFailure ? 'FAILED' : 'PENDING',
        type: 'OUTGOING',
        source: { sourceType: 'ACCOUNT', accountId: source.id, currency: cur },
        destination: { destinationType: 'ACCOUNT', accountId: dest.id, currency: cur },
        customerId: owner.customerId,
        platformCustomerId: owner.platformCustomerId,
        createdAt: iso(t),
        updatedAt: iso(t),
        sentAmount: amountOf(total, cur),
        receivedAmount: amountOf(amount, cur),
        exchangeRate: 1,
        fees: fee,
        rateDetails: {
          counterpartyMultiplier: 1,
          counterpartyFixedFee: 0,
          gridApiMultiplier: 1,
          gridApiFixedFee: fee,
          gridApiVariableFeeRate: 0,
          gridApiVariableFeeAmount: 0
        },
        ...(immediateFailure ? { failureReason: 'QUOTE_EXECUTION_FAILED' } : {})
      }
      const rec: TransactionRec = {
        t,
        id,
        data,
        meta: { kind: 'TRANSFER_OUT', scenario: `T:${scenario}`, sender: source.id, receiver: dest.id }
      }
      if (!immediateFailure) {
        debit(core, rec, source, { total, fee }, t)
        const wait = scenario === 'PENDING_THEN_FAIL' ? DURATIONS.pendingThenFail : DURATIONS.outgoingPending
        core.scheduler.schedule(JOB.outgoingProcess, id, core.clock.delay(wait))
      }
      core.store.addTransaction(rec)
      core.changed()
      return data
    }
  }
}

type OutgoingJob = 'outgoing.process' | 'outgoing.settle' | 'outgoing.return'

export function outgoingJobs(core: EngineCore): JobHandlers<OutgoingJob> {
  const inStatus = (ref: string, status: string): TransactionRec | undefined => {
    const rec = core.store.transactions.get(ref)
    return rec?.data.status === status ? rec : undefined
  }
  return {
    /** PENDING → PROCESSING (or, for the 005 suffix, straight to FAILED after its long pending time). */
    [JOB.outgoingProcess]: (job) => {
      const rec = inStatus(job.ref, 'PENDING')
      if (!rec) return
      const now = core.clock.now()
      if (rec.meta.scenario === 'T:PENDING_THEN_FAIL') {
        failOutgoing(core, rec, 'COMPLETED', 'TRANSACTION_FAILED', now)
        return
      }
      core.store.setTxStatus(rec, 'PROCESSING')
      rec.data.updatedAt = iso(now)
      scheduleSettle(core, rec)
    },
    /** PROCESSING → COMPLETED, or FAILED per the suffix scenario. */
    [JOB.outgoingSettle]: (job) => {
      const rec = inStatus(job.ref, 'PROCESSING')
      if (!rec) return
      const now = core.clock.now()
      switch (rec.meta.scenario) {
        case 'T:REJECTED_BY_BANK':
        case 'Q:DELIVERY_FAILS':
          return failOutgoing(core, rec, 'COMPLETED', 'TRANSACTION_FAILED', now)
        case 'Q:USER_CANCELS':
          return failOutgoing(core, rec, 'COMPLETED', 'USER_CANCELLATION', now)
        case 'Q:PAYOUT_AND_REFUND_FAIL':
          return failOutgoing(core, rec, 'FAILED', 'TRANSACTION_FAILED', now)
        default:
          rec.data.settledAt = iso(now)
          moveTo(core, rec, 'COMPLETED', now)
          if (rec.meta.scenario === 'Q:RETURNED') {
            core.scheduler.schedule(JOB.outgoingReturn, rec.id, core.clock.delay(DURATIONS.quoteReturned))
          }
      }
    },
    /** Quote suffix 005: a completed payout comes back from the bank. */
    [JOB.outgoingReturn]: (job) => {
      const rec = inStatus(job.ref, 'COMPLETED')
      if (rec) failOutgoing(core, rec, 'COMPLETED', 'TRANSACTION_FAILED', core.clock.now())
    }
  }
}
