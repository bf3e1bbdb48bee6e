/**
 * Incoming payments (the sandbox's UMA receive): the platform decides through the approval protocol
 * (engine/approval.ts); an approved payment settles into the customer's internal account or default deposit account.
 */
import type { SandboxReceiveRequest } from '../../shared/api/sandbox'
import type { ApprovePaymentRequest, RejectPaymentRequest } from '../../shared/api/transaction'
import { iso } from '../state/clock'
import { amountOf, exchangeRate } from '../state/currencies'
import { ApiError, conflict, invalidInput, notFound } from '../state/sandbox-errors'
import type { CustomerRec, ExternalAccountRec, TransactionObj, TransactionRec } from '../state/model'
import { sandboxSender } from './rules'
import { DURATIONS } from '../state/timing'
import { missingMandatory, requestedFields, type Settlement } from './approval'
import type { EngineCore } from './core'
import { JOB, type JobHandlers } from './jobs'

/** Fees an incoming payment's sender pays (shown in rateDetails; the receiver gets receivedAmount in full). */
const INCOMING_FIXED_FEE = 10
const INCOMING_VARIABLE_FEE_RATE = 0.003

const KNOWN_SENDERS = [
  '$success.usd@sandbox.uma.money',
  '$success.eur@sandbox.uma.money',
  '$success.mxn@sandbox.uma.money',
  '$pending.long.usd@sandbox.uma.money',
  '$fail.compliance.usd@sandbox.uma.money'
]

export function incomingOperations(core: EngineCore) {
  const { store, clock, scheduler } = core

  /** The receiving customer, named by id, by UMA address, or both when they agree. */
  function receiver(req: SandboxReceiveRequest): CustomerRec {
    let c: CustomerRec | undefined
    if (req.customerId !== undefined) c = core.customer(req.customerId)
    if (req.receiverUmaAddress !== undefined) {
      const byUma = store.customerByUma.get(req.receiverUmaAddress)
      if (!byUma) {
        throw notFound('USER_NOT_FOUND', `No customer has the UMA address ${req.receiverUmaAddress}`, {
          receiverUmaAddress: req.receiverUmaAddress
        })
      }
      if (c && c.id !== byUma) {
        throw invalidInput(`receiverUmaAddress ${req.receiverUmaAddress} belongs to ${byUma}, not ${c.id}`, {
          customerId: c.id,
          receiverUmaAddress: req.receiverUmaAddress
        })
      }
      c = core.customer(byUma)
    }
    if (!c) throw invalidInput('Give receiverUmaAddress or customerId')
    return c
  }

  /** Spec section 1: the default deposit external account if set (it must take `cur` now), else none. */
  function depositAccount(c: CustomerRec, cur: string): ExternalAccountRec | undefined {
    const deposit = (store.externalByCustomer.get(c.id)?.items ?? []).find((a) => a.data.defaultUmaDepositAccount)
    if (!deposit) return undefined
    if (deposit.data.currency !== cur) {
      throw new ApiError(
        400,
        'INVALID_CURRENCY',
        `The default deposit account ${deposit.id} holds ${deposit.data.currency}, not ${cur}`,
        { externalAccountId: deposit.id, currency: cur }
      )
    }
    if (deposit.data.status !== 'ACTIVE') {
      throw conflict(
        'EXTERNAL_ACCOUNT_NOT_ACTIVE',
        `The default deposit account ${deposit.id} is ${deposit.data.status}; only ACTIVE accounts can receive payments`,
        { externalAccountId: deposit.id, status: deposit.data.status }
      )
    }
    return deposit
  }

  /** Approve/reject are taken only in the window a 202 answer opened (reference). */
  function waitsForDecision(rec: TransactionRec): boolean {
    if (rec.data.type !== 'INCOMING' || rec.data.status !== 'PENDING') return false
    return rec.meta.approval?.phase === 'DEFERRED'
  }

  function pendingIncoming(id: string, action: string): TransactionRec {
    const rec = core.transaction(id)
    if (!waitsForDecision(rec)) {
      const state =
        rec.data.type !== 'INCOMING'
          ? 'an outgoing payment'
          : rec.data.status === 'PENDING'
            ? 'PENDING but not deferred: its approval webhook was not answered 202'
            : rec.data.status
      throw new ApiError(
        409,
        'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
        `Transaction ${id} cannot be ${action}: it is ${state}, not an incoming payment waiting for the platform's approval`,
        { transactionId: id, status: rec.data.status, type: rec.data.type },
        // Asking again cannot help: the payment's state decides, not a transient condition.
        { 'x-should-retry': 'false' }
      )
    }
    return rec
  }

  /** The platform's decision: stops the approval timer and moves the payment on. */
  function decide(id: string, action: string, status: string): { rec: TransactionRec; now: number } {
    const rec = pendingIncoming(id, action)
    const now = clock.stamp()
    scheduler.cancel(id, JOB.incomingTimeout)
    if (rec.meta.approval) rec.meta.approval.phase = 'DECIDED'
    store.setTxStatus(rec, status)
    rec.data.updatedAt = iso(now)
    return { rec, now }
  }

  return {
    sandboxReceive(req: SandboxReceiveRequest): TransactionObj {
      const sender = sandboxSender(req.senderUmaAddress)
      if (!sender) {
        throw notFound('USER_NOT_FOUND', `Unknown sandbox sender ${req.senderUmaAddress}`, {
          senderUmaAddress: req.senderUmaAddress,
          knownSenders: KNOWN_SENDERS
        })
      }
      const c = receiver(req)
      core.requireReadyCustomer(c)
      const cur = req.receivingCurrencyCode
      const internalId = c.meta.internalAccounts[cur]
      if (!internalId) {
        throw new ApiError(
          400,
          'INVALID_CURRENCY',
          `Customer ${c.id} cannot receive ${cur} (currencies: ${(c.data.currencies ?? []).join(', ')})`,
          { customerId: c.id, currency: cur }
        )
      }
      const deposit = depositAccount(c, cur)
      const destinationId = deposit ? deposit.id : internalId
      const t = clock.stamp()
      const id = core.newId('Transaction', t)
      const amount = req.receivingCurrencyAmount
      // Minor units: the sender's variable fee rounds to a whole minor unit.
      const variable = Math.round(amount * INCOMING_VARIABLE_FEE_RATE)
      const reference = core.reference(t)
      const failsCompliance = sender.behaviour === 'FAIL_COMPLIANCE'
      const data: TransactionObj = {
        id,
        status: failsCompliance ? 'FAILED' : 'PENDING',
        type: 'INCOMING',
        source: { sourceType: 'UMA_ADDRESS', umaAddress: sender.address, currency: sender.currency },
        destination: { destinationType: 'ACCOUNT', accountId: destinationId, currency: cur },
        customerId: c.id,
        platformCustomerId: c.data.platformCustomerId,
        createdAt: iso(t),
        updatedAt: iso(t),
        counterpartyInformation: { FULL_NAME: sender.fullName, NATIONALITY: 'US' },
        receivedAmount: amountOf(amount, cur),
        reconciliationInstructions: { reference },
        rateDetails: {
          gridApiMultiplier: 1 / exchangeRate(sender.currency, cur),
          gridApiFixedFee: INCOMING_FIXED_FEE,
          gridApiVariableFeeRate: INCOMING_VARIABLE_FEE_RATE,
          gridApiVariableFeeAmount: variable
        },
        ...(failsCompliance ? { failureReason: 'PAY_REQUEST_FAILED' } : {})
      }
      const rec: TransactionRec = {
        t,
        id,
        data,
        meta: {
          kind: 'RECEIVE',
          scenario: sender.behaviour,
          sender: sender.address,
          receiver: destinationId,
          reference,
          ...(deposit ? {} : { creditAccountId: internalId, credit: amount })
        }
      }
      if (!failsCompliance) {
        // Answered PENDING first, as the service does; the approval webhook goes out right after (incoming.ask).
        rec.meta.approval = { phase: 'ASKING', requested: requestedFields(c.data) }
        scheduler.scheduleAt(JOB.incomingAsk, id, t)
      }
      store.addTransaction(rec)
      core.changed()
      return data
    },

    approve(id: string, req: ApprovePaymentRequest): TransactionObj {
      const waiting = pendingIncoming(id, 'approved')
      // Checked before anything changes: a bad approval leaves the payment waiting, its deadline running.
      const missing = missingMandatory(waiting.meta.approval?.requested ?? [], req.receiverCustomerInfo)
      if (missing.length > 0) {
        throw new ApiError(
          400,
          'MISSING_MANDATORY_USER_INFO',
          `receiverCustomerInfo must give the mandatory fields the approval webhook asked for: ${missing.join(', ')}`,
          { transactionId: id, missingFields: missing }
        )
      }
      const { rec } = decide(id, 'approved', 'PROCESSING')
      settlement(core).start(rec, req.receiverCustomerInfo)
      core.changed()
      return rec.data
    },

    reject(id: string, req: RejectPaymentRequest): TransactionObj {
      const { rec } = decide(id, 'rejected', 'REJECTED')
      if (req.reason !== undefined) rec.meta.rejectReason = req.reason
      core.changed()
      return rec.data
    }
  }
}

/** An approved payment is PROCESSING, then settles (incoming.settle) after the sender's scenario's delay. */
export function settlement(core: EngineCore): Settlement {
  const { store, clock, scheduler } = core
  return {
    start(rec, receiverCustomerInfo) {
      const now = clock.stamp()
      store.setTxStatus(rec, 'PROCESSING')
      rec.data.updatedAt = iso(now)
      if (receiverCustomerInfo !== undefined) rec.meta.receiverCustomerInfo = receiverCustomerInfo
      const seconds = rec.meta.scenario === 'PENDING_LONG' ? DURATIONS.pendingLong : DURATIONS.incomingProcessing
      rec.data.settledAt = iso(now + clock.delay(seconds))
      scheduler.schedule(JOB.incomingSettle, rec.id, clock.delay(seconds))
    }
  }
}

export function incomingJobs(core: EngineCore): JobHandlers<'incoming.timeout' | 'incoming.settle'> {
  const { store, clock } = core
  return {
    /** Nobody decided within the 5 s a 202 answer opened. */
    [JOB.incomingTimeout]: (job) => {
      const rec = store.transactions.get(job.ref)
      if (!rec || rec.data.type !== 'INCOMING' || rec.data.status !== 'PENDING') return
      if (rec.meta.approval) rec.meta.approval.phase = 'DECIDED'
      rec.data.failureReason = 'PAYMENT_APPROVAL_TIMED_OUT'
      store.setTxStatus(rec, 'FAILED')
      rec.data.updatedAt = iso(clock.now())
    },
    /** An approved payment arrives: the internal account is credited (a deposit account is outside the ledger). */
    [JOB.incomingSettle]: (job) => {
      const rec = store.transactions.get(job.ref)
      if (!rec || rec.data.status !== 'PROCESSING') return
      const now = clock.now()
      if (rec.meta.creditAccountId && rec.meta.credit !== undefined) {
        const account = store.internalAccounts.get(rec.meta.creditAccountId)
        if (account) core.post(account, rec.meta.credit, 'RECEIPT', rec.id, now)
      }
      store.setTxStatus(rec, 'COMPLETED')
      rec.data.settledAt = iso(now)
      rec.data.updatedAt = iso(now)
    }
  }
}
