import { Quote, Transaction, type QuoteCreateRequest, type SandboxSendRequest } from '../../shared/api'
import { isUnresolvedTransfer } from '../../shared/ipc/channels/data'
import type { QuoteExecuteInput } from '../../shared/ipc/channels/quotes'
import { AppError } from '../infra/app-error'
import { ApiError } from '../infra/api-errors'
import { recordFailedAttempt, type PaymentDeps } from './payment-attempt'
import { refuseWhileHeld } from './payment-intents'
import { isProduction, requireProductionConfirmation, requireSandboxProfile } from './production-guard'
import { kindOf, publicRecord, type StoredTransferRecord } from './transfer-journal'

/** Quote statuses that say it was executed (the payment started, whatever became of it). */
const EXECUTED = new Set(['PROCESSING', 'COMPLETED', 'FAILED'])
/** Open quotes remembered for the sandbox's "send funds against a quote"; the service has no list of quotes. */
const MAX_REMEMBERED = 200

/**
 * Quotes: create, read, and execute exactly once per operator action. The execution goes through the transfer journal
 * (its Idempotency-Key stored durably before the first attempt, reused by every retry), so "Unknown → Review and
 * retry" works as for transfers. A quote can be executed only once at the service, so a retry of the same quote cannot
 * pay twice; what could is a new quote for the same request, which the journal's guard refuses while an execution of
 * that request holds it (payment-intents.ts), and which cannot even be asked for meanwhile. A retry first reads the
 * quote: the service's own answer to whether it was executed, whatever any clock says.
 */
export class QuoteService {
  private readonly created = new Map<string, Quote>()
  /** The request each remembered quote was made for: the payment its execution holds. */
  private readonly requests = new Map<string, QuoteCreateRequest>()
  private executing = new Map<string, Promise<unknown>>()

  constructor(private readonly d: PaymentDeps) {}

  private get profileId(): string {
    return this.d.profile.id
  }

  private remember(quote: Quote): void {
    this.created.delete(quote.id)
    this.created.set(quote.id, quote)
    if (this.created.size > MAX_REMEMBERED) {
      const oldest = this.created.keys().next().value as string
      this.created.delete(oldest)
      this.requests.delete(oldest)
    }
  }

  async create(request: QuoteCreateRequest) {
    // A quote for a request whose execution has no known outcome could only pay it a second time.
    refuseWhileHeld(this.d.journal.list(), {
      actionId: '',
      kind: 'quote-execute',
      sourceAccountId: request.source.accountId,
      destinationAccountId: destinationOf(request),
      amount: request.lockedCurrencyAmount,
      ...requestFields(request)
    })
    // Creating a quote moves no money: no key, and no retry that could leave two quotes behind.
    const quote = await this.d.client().request('POST', 'quotes', { body: request, schema: Quote })
    this.remember(quote)
    this.requests.set(quote.id, request)
    return { profileId: this.profileId, quote }
  }

  async get(quoteId: string) {
    const quote = await this.fetch(quoteId)
    if (this.created.has(quote.id)) this.remember(quote)
    return { profileId: this.profileId, quote }
  }

  private fetch(quoteId: string): Promise<Quote> {
    return this.d.client().request('GET', `quotes/${encodeURIComponent(quoteId)}`, {
      schema: Quote,
      retry: 'idempotent'
    })
  }

  /** Quotes this Paydesk created, still PENDING and not past expiresAt, newest first. */
  open() {
    const now = this.d.now()
    const quotes = [...this.created.values()]
      .filter((q) => q.status === 'PENDING' && !(q.expiresAt && Date.parse(q.expiresAt) <= now))
      .reverse()
    return { profileId: this.profileId, quotes }
  }

  execute(input: QuoteExecuteInput) {
    // A double click waits for the first execution instead of racing it.
    const running = this.executing.get(input.actionId) as ReturnType<QuoteService['executeOnce']> | undefined
    if (running) return running
    const run = this.executeOnce(input).finally(() => this.executing.delete(input.actionId))
    this.executing.set(input.actionId, run)
    return run
  }

  private view(record: StoredTransferRecord) {
    return publicRecord(record)
  }

  private async executeOnce(input: QuoteExecuteInput) {
    requireProductionConfirmation(
      isProduction(this.d.profile),
      input.confirmProduction,
      'real money moves. Confirm the payment to execute the quote.'
    )
    const client = this.d.client()
    let record = this.d.journal.get(input.actionId) ?? (await this.prepare(input))
    if (kindOf(record) !== 'quote-execute' || record.quoteId !== input.quoteId) {
      throw new AppError('INVALID_INPUT', 'This action was already used for a different payment. Start a new one.')
    }
    if (record.state === 'sent' && record.transactionId) return this.answer(record, null)
    if (isUnresolvedTransfer(record)) {
      const settled = await this.settleFromQuote(record)
      if (settled) return settled
      record = this.d.journal.get(record.actionId) ?? record
    }
    record = await this.d.journal.update(record.actionId, { attempts: record.attempts + 1 })
    try {
      const quote = await client.request('POST', `quotes/${encodeURIComponent(input.quoteId)}/execute`, {
        idempotencyKey: record.idempotencyKey,
        retry: 'idempotent',
        maxRetries: 5,
        schema: Quote
      })
      return await this.settle(record, quote)
    } catch (error) {
      // On a retry, a 409 may be the service refusing a second execution whose key it no longer holds: the quote
      // says whether an earlier attempt of this action went through.
      if (record.attempts > 1 && error instanceof ApiError && error.httpStatus === 409) {
        const quote = await this.fetch(input.quoteId).catch(() => undefined)
        if (quote && EXECUTED.has(String(quote.status)) && quote.transactionId) return this.settle(record, quote)
      }
      throw await recordFailedAttempt(this.d.journal, record, error, { noun: 'payment' })
    }
  }

  /**
   * Before a retry of an execution that may have gone through, the quote itself is read: executed (it names its
   * transaction) settles the record; expired means it never was, and no money moved; still open, the retry executes it
   * (at most once, whatever became of the key).
   */
  private async settleFromQuote(record: StoredTransferRecord) {
    const quote = await this.fetch(record.quoteId ?? '')
    const executed = EXECUTED.has(String(quote.status)) && quote.transactionId !== undefined
    await this.d.journal.update(record.actionId, {
      checkedAt: new Date(this.d.now()).toISOString(),
      checkFound: executed ? 1 : 0,
      checkedAtAttempt: record.attempts
    })
    this.d.log(`quote ${quote.id}: read before a retry of action ${record.actionId}, status ${String(quote.status)}`)
    if (executed) return this.settle(record, quote)
    if (quote.status === 'EXPIRED') {
      const message = 'This quote expired without being executed: no money moved. Get a new quote to pay.'
      await this.d.journal.update(record.actionId, { state: 'refused', lastError: message })
      throw new AppError('CONFLICT', message, { serviceCode: 'QUOTE_EXPIRED' })
    }
    return undefined
  }

  /** A new action: the quote must be open, and no other action may hold its payment (the journal refuses it). */
  private async prepare(input: QuoteExecuteInput): Promise<StoredTransferRecord> {
    const executed = this.d.journal
      .list()
      .find((r) => kindOf(r) === 'quote-execute' && r.quoteId === input.quoteId && r.state === 'sent')
    if (executed) {
      throw new AppError('CONFLICT', 'This quote was already executed from this Paydesk.', {
        actionId: executed.actionId
      })
    }
    // The quote as this Paydesk last read it (a create or a review), so that preparing needs no answer from the
    // service; the service still refuses an expired or executed quote.
    const quote = this.created.get(input.quoteId) ?? (await this.fetch(input.quoteId))
    this.remember(quote)
    if (quote.status === 'EXPIRED' || (quote.expiresAt && Date.parse(quote.expiresAt) <= this.d.now())) {
      throw new AppError(
        'CONFLICT',
        `This quote expired${quote.expiresAt ? ` at ${quote.expiresAt}` : ''} and can no longer be executed. Get a new quote.`,
        { serviceCode: 'QUOTE_EXPIRED' }
      )
    }
    if (quote.status !== 'PENDING') {
      throw new AppError('CONFLICT', `This quote is ${String(quote.status)}: a quote can be executed only once.`)
    }
    const destination = quote.destination as { accountId?: string; umaAddress?: string } | undefined
    const request = this.requests.get(quote.id)
    return this.d.journal.prepare(
      {
        actionId: input.actionId,
        kind: 'quote-execute',
        quoteId: quote.id,
        sourceAccountId: quote.source?.accountId ?? '',
        destinationAccountId: destination?.accountId ?? destination?.umaAddress ?? '',
        amount: quote.totalSendingAmount ?? 0,
        // A quote this Paydesk did not ask for in this run: its request is read back as fixed on the sending side.
        ...(request ? requestFields(request) : { lockedSide: 'SENDING', lockedAmount: quote.totalSendingAmount ?? 0 })
      },
      new Date(this.d.now())
    )
  }

  /** The service executed the quote: the record takes its transaction, which sync then follows. */
  private async settle(record: StoredTransferRecord, quote: Quote) {
    this.remember(quote)
    const updated = await this.d.journal.update(record.actionId, {
      state: 'sent',
      ...(quote.transactionId !== undefined && { transactionId: quote.transactionId }),
      lastError: undefined
    })
    this.d.log(`quote ${quote.id}: executed (action ${record.actionId})`)
    return this.answer(updated, quote)
  }

  private async answer(record: StoredTransferRecord, quote: Quote | null) {
    let transaction = record.transactionId ? (this.d.cachedTransaction(record.transactionId) ?? null) : null
    if (record.transactionId) {
      try {
        transaction = await this.d.client().get(`transactions/${encodeURIComponent(record.transactionId)}`, Transaction)
        record = await this.d.journal.update(record.actionId, { transactionStatus: String(transaction.status ?? '') })
        await this.d.onTransaction(transaction)
      } catch (error) {
        // The payment is known to be executed; its transaction shows up with the next sync.
        this.d.log(`quote execution ${record.actionId}: transaction not read yet (${String(error)})`)
      }
    }
    return { profileId: this.profileId, quote, transaction, record: this.view(record) }
  }

  /** Sandbox only (spec 4.13): funds sent against a quote, which executes it. */
  async sandboxSend(input: SandboxSendRequest) {
    requireSandboxProfile(this.d.profile, 'Sending funds against a quote exists only for sandbox profiles.')
    const transaction = await this.d.client().request('POST', 'sandbox/send', { body: input, schema: Transaction })
    const remembered = this.created.get(input.quoteId)
    if (remembered) this.remember({ ...remembered, status: 'PROCESSING' })
    await this.d.onTransaction(transaction)
    return transaction
  }
}

function destinationOf(request: QuoteCreateRequest): string {
  return request.destination.destinationType === 'ACCOUNT'
    ? request.destination.accountId
    : request.destination.umaAddress
}

/** What a journal record keeps of a quote request: the fixed side, its amount, and the receiver's currency if asked. */
function requestFields(request: QuoteCreateRequest) {
  return {
    lockedSide: request.lockedCurrencySide,
    lockedAmount: request.lockedCurrencyAmount,
    ...(request.destination.destinationType === 'UMA_ADDRESS' &&
      request.destination.currency !== undefined && { receivingCurrency: request.destination.currency })
  }
}
