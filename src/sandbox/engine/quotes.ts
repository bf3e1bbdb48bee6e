/**
 * Quotes: a priced payment (with conversion) that waits to be executed before it expires. Executing one debits the
 * source and hands the payment to the outgoing life cycle in transfers.ts.
 */
import type { QuoteCreateRequest } from '../../shared/api/quote'
import type { SandboxSendRequest } from '../../shared/api/sandbox'
import { iso } from '../state/clock'
import { amountOf, convertMinor, currency, exchangeRate, isKnownCurrency, minorNeededFor } from '../state/currencies'
import { ApiError, conflict, invalidInput, refusedAsInvalid } from '../state/sandbox-errors'
import type { InternalAccountRec, QuoteRec, TransactionObj, TransactionRec } from '../state/model'
import { quoteScenario, type QuoteScenario } from './rules'
import { DURATIONS } from '../state/timing'
import type { EngineCore } from './core'
import { JOB, type JobHandlers } from './jobs'
import { checkPayment, debit, insufficientFunds, moveTo, OUTGOING_FIXED_FEE, scheduleSettle } from './transfers'

type Funded = { currencyCode: string; currencyAmount?: number }

/**
 * A record a quote request names. POST /quotes publishes no 404: an unknown one is invalid input at that field, its
 * not-found code as the reason (docs/real-service.md, "Errors").
 */
function referenced<T>(field: string, lookup: () => T): T {
  try {
    return lookup()
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error
    throw refusedAsInvalid(error.code, error.message, { ...error.details, field })
  }
}

function checkQuoteFunds(source: InternalAccountRec, total: number): void {
  const balance = source.data.balance.amount
  if (balance < total) {
    throw insufficientFunds(`Insufficient balance: ${source.id} holds ${balance}, the quote needs ${total}`, {
      balance,
      required: total
    })
  }
}

/** Both sides of a quote in minor units: the side the caller locked is exact, the other converts at the rate. */
function quoteAmounts(req: QuoteCreateRequest, sending: string, receiving: string, fee: number) {
  let total: number
  let received: number
  if (req.lockedCurrencySide === 'SENDING') {
    total = req.lockedCurrencyAmount
    received = convertMinor(total - fee, sending, receiving)
  } else {
    received = req.lockedCurrencyAmount
    total = Math.max(1, minorNeededFor(received, sending, receiving)) + fee
  }
  if (total - fee <= 0 || received <= 0 || !Number.isSafeInteger(total)) {
    throw new ApiError(400, 'INVALID_AMOUNT', `Amount too small: after the fee of ${fee} nothing would be received`, {
      totalSendingAmount: total,
      totalReceivingAmount: received,
      fee
    })
  }
  return { total, received }
}

export function quoteOperations(core: EngineCore) {
  const { store, clock, scheduler } = core

  /**
   * Only a PENDING quote that has not expired can be executed. Execute publishes a 409 ("quote already confirmed,
   * expired, or in invalid state") whose code list has neither QUOTE_EXPIRED nor QUOTE_NOT_PENDING: it answers the
   * nearest listed code, the reason in details; sandbox send publishes no 409 and answers 400 (docs/real-service.md,
   * "Errors").
   */
  function checkQuotePending(q: QuoteRec, via: 'execute' | 'send'): void {
    const expired = q.data.status === 'EXPIRED' || Date.parse(q.data.expiresAt) <= clock.now()
    if (!expired && q.data.status === 'PENDING') return
    const [reason, message] = expired
      ? ['QUOTE_EXPIRED', `Quote ${q.id} expired at ${q.data.expiresAt}`]
      : ['QUOTE_NOT_PENDING', `Quote ${q.id} is ${q.data.status}; it can be executed only once`]
    const details = { reason, quoteId: q.id, status: q.data.status, expiresAt: q.data.expiresAt }
    if (via === 'send') throw refusedAsInvalid(reason, message, details)
    throw conflict('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL', message, details)
  }

  /** Ends a quote's payment as FAILED before any money moved. */
  function failUnfunded(q: QuoteRec, tx: TransactionRec, reason: string): TransactionRec {
    const now = clock.stamp()
    scheduler.cancel(q.id, JOB.quoteExpire)
    moveTo(core, tx, 'FAILED', now, reason)
    core.changed()
    return tx
  }

  /**
   * Execute a PENDING quote: the internal source account pays totalSendingAmount and the payment starts. A funded
   * amount (sandbox send's currencyAmount) that differs from the quote fails the payment with FUNDING_AMOUNT_MISMATCH.
   */
  function executeQuote(quoteId: string, funded: Funded | undefined): TransactionRec {
    const q = core.quote(quoteId)
    checkQuotePending(q, funded ? 'send' : 'execute')
    const tx = core.transaction(q.data.transactionId)
    const expected = q.data.sendingCurrency.code
    if (funded && funded.currencyCode !== expected) {
      throw new ApiError(
        400,
        'INVALID_CURRENCY',
        `Quote ${q.id} is funded in ${expected}, not ${funded.currencyCode}`,
        {
          expected,
          currencyCode: funded.currencyCode
        }
      )
    }
    if (funded?.currencyAmount !== undefined && funded.currencyAmount !== q.data.totalSendingAmount) {
      return failUnfunded(q, tx, 'FUNDING_AMOUNT_MISMATCH')
    }
    const source = core.internalAccount(q.meta.sourceInternalAccountId ?? '')
    const total = q.data.totalSendingAmount
    checkQuoteFunds(source, total)
    if (q.data.destination.destinationType === 'ACCOUNT') {
      checkPayment(core, source, core.externalAccount(String(q.data.destination.accountId)))
    }
    if (q.meta.scenario === 'EXECUTION_FAILS') return failUnfunded(q, tx, 'QUOTE_EXECUTION_FAILED')
    const now = clock.stamp()
    scheduler.cancel(q.id, JOB.quoteExpire)
    debit(core, tx, source, { total, fee: q.data.feesIncluded }, now)
    moveTo(core, tx, 'PROCESSING', now)
    scheduleSettle(core, tx)
    core.changed()
    return tx
  }

  return {
    executeQuote,

    createQuote(req: QuoteCreateRequest): QuoteRec['data'] {
      const source = referenced('source.accountId', () => core.internalAccount(req.source.accountId))
      // An UMA address destination is a receiver outside this sandbox: no account to check, it always succeeds.
      const toAccount = req.destination.destinationType === 'ACCOUNT' ? req.destination : undefined
      const toUma = req.destination.destinationType === 'UMA_ADDRESS' ? req.destination : undefined
      const dest = toAccount
        ? referenced('destination.accountId', () => core.externalAccount(toAccount.accountId))
        : undefined
      const claimed = req.source.customerId
      if (claimed !== undefined && source.data.customerId !== undefined && claimed !== source.data.customerId) {
        throw invalidInput(`source.customerId ${claimed} does not own ${source.id}`, { field: 'source.customerId' })
      }
      if (claimed !== undefined) referenced('source.customerId', () => core.customer(claimed))
      if (dest) checkPayment(core, source, dest)
      const sending = source.data.balance.currency.code
      const receiving = dest ? dest.data.currency : (toUma?.currency ?? sending)
      if (!isKnownCurrency(receiving)) {
        throw invalidInput(`destination.currency ${receiving} is not a currency this sandbox knows`, {
          field: 'destination.currency'
        })
      }
      const receiver = dest
        ? { destinationType: 'ACCOUNT', accountId: dest.id }
        : { destinationType: 'UMA_ADDRESS', umaAddress: toUma?.umaAddress }
      const fee = OUTGOING_FIXED_FEE
      const { total, received } = quoteAmounts(req, sending, receiving, fee)
      if (req.immediatelyExecute === true) checkQuoteFunds(source, total)
      const t = clock.stamp()
      const quoteId = core.newId('Quote', t)
      const txId = core.newId('Transaction', t)
      const owner = core.ownerOf(source)
      const rate = exchangeRate(sending, receiving)
      const rateDetails = {
        counterpartyMultiplier: 1 / rate,
        counterpartyFixedFee: 0,
        gridApiMultiplier: 1,
        gridApiFixedFee: fee,
        gridApiVariableFeeRate: 0,
        gridApiVariableFeeAmount: 0
      }
      const expiresAt = t + clock.delay(DURATIONS.quoteExpiry)
      const scenario: QuoteScenario = dest ? quoteScenario(dest.meta.identifier) : 'SUCCESS'
      const description = req.description !== undefined ? { description: req.description } : {}
      const quote: QuoteRec = {
        t,
        id: quoteId,
        data: {
          id: quoteId,
          status: 'PENDING',
          createdAt: iso(t),
          expiresAt: iso(expiresAt),
          source: {
            sourceType: 'ACCOUNT',
            accountId: source.id,
            ...(owner.customerId.startsWith('Customer:') ? { customerId: owner.customerId } : {})
          },
          destination: {
            ...receiver,
            ...(toAccount?.paymentRail ? { paymentRail: toAccount.paymentRail } : {}),
            ...(toUma ? { currency: receiving } : {})
          },
          sendingCurrency: currency(sending),
          receivingCurrency: currency(receiving),
          totalSendingAmount: total,
          totalReceivingAmount: received,
          exchangeRate: rate,
          feesIncluded: fee,
          transactionId: txId,
          ...description,
          rateDetails
        },
        meta: { scenario, sourceInternalAccountId: source.id, customerId: owner.customerId }
      }
      const tx: TransactionRec = {
        t,
        id: txId,
        data: {
          id: txId,
          status: 'PENDING',
          type: 'OUTGOING',
          source: { sourceType: 'ACCOUNT', accountId: source.id, currency: sending },
          destination: { ...receiver, currency: receiving },
          customerId: owner.customerId,
          platformCustomerId: owner.platformCustomerId,
          createdAt: iso(t),
          updatedAt: iso(t),
          ...description,
          sentAmount: amountOf(total, sending),
          receivedAmount: amountOf(received, receiving),
          exchangeRate: rate,
          fees: fee,
          quoteId,
          rateDetails
        },
        meta: {
          kind: 'QUOTE',
          scenario: `Q:${scenario}`,
          sender: source.id,
          receiver: dest?.id ?? String(toUma?.umaAddress)
        }
      }
      store.quotes.set(quoteId, quote)
      store.addTransaction(tx)
      scheduler.scheduleAt(JOB.quoteExpire, quoteId, expiresAt)
      if (req.immediatelyExecute === true) executeQuote(quoteId, undefined)
      core.changed()
      return quote.data
    },

    getQuote(id: string): QuoteRec['data'] {
      return core.quote(id).data
    },

    sandboxSend(req: SandboxSendRequest): TransactionObj {
      return executeQuote(req.quoteId, {
        currencyCode: req.currencyCode,
        ...(req.currencyAmount !== undefined ? { currencyAmount: req.currencyAmount } : {})
      }).data
    }
  }
}

/** A quote nobody executed in time expires, and its payment with it. */
export function quoteJobs(core: EngineCore): JobHandlers<'quote.expire'> {
  return {
    [JOB.quoteExpire]: (job) => {
      const q = core.store.quotes.get(job.ref)
      if (!q || q.data.status !== 'PENDING') return
      q.data.status = 'EXPIRED'
      const tx = core.store.transactions.get(q.data.transactionId)
      if (tx && tx.data.status === 'PENDING') {
        core.store.setTxStatus(tx, 'EXPIRED')
        tx.data.updatedAt = iso(core.clock.now())
      }
    }
  }
}
