import { Quote, Transaction, type QuoteCreateRequest, type SandboxSendRequest } from '../../shared/api'
import { isUnresolvedTransfer } from '../../shared/ipc/channels/data'
import type { QuoteExecuteInput } from '../../shared/ipc/channels/quotes'
import { DEFAULT_IDEMPOTENCY_WINDOW_HOURS } from '../../shared/profile'
import { AppError } from '../errors'
import { ApiError } from './api-errors'
import { recordFailedAttempt, type PaymentDeps } from './payment-attempt'
import { isProduction, requireProductionConfirmation, requireSandboxProfile } from './production-guard'
import { kindOf, publicRecord, type StoredTransferRecord } from './transfer-journal'

/** Quote statuses that say it was executed (the payment started, whatever became of it). */
const EXECUTED = new Set(['PROCESSING', 'COMPLETED', 'FAILED'])
/** Open quotes remembered for the sandbox's "send funds against a quote"; the service has no list of quotes. */
const MAX_REMEMBERED = 200

/**
 * Quotes: create, read, and execute exactly once per operator action. The execution goes through the transfer journal
 * (its Idempotency-Key stored durably before the first attempt, reused by every retry), so "Unknown → Review and
 * retry" works as for transfers. A quote can be executed only once at the service, so a retry after the service forgot
 * the key cannot pay twice either: it is answered 409, and the quote itself then says whether it was executed.
 */
export class QuoteService {
  private readonly created = new Map<string, Quote>()
  private executing = new Map<string, Promise<unknown>>()

  constructor(private readonly d: PaymentDeps) {}

  private get profileId(): string {
    return this.d.profile.id
  }

  private remember(quote: Quote): void {
    this.created.delete(quote.id)
    this.created.set(quote.id, quote)
    if (this.created.size > MAX_REMEMBERED) this.created.delete(this.created.keys().next().value as string)
  }

  async create(request: QuoteCreateRequest) {
    // Creating a quote moves no money: no key, and no retry that could leave two quotes behind.
    const quote = await this.d.client().request('POST', 'quotes', { body: request, schema: Quote })
    this.remember(quote)
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
    record = await this.d.journal.update(record.actionId, {
      attempts: record.attempts + 1,
      ...(record.firstSentAt === undefined && { firstSentAt: new Date(this.d.now()).toISOString() })
    })
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
      throw await recordFailedAttempt(this.d.journal, record, error, {
        windowHours: this.d.profile.idempotencyWindowHours ?? DEFAULT_IDEMPOTENCY_WINDOW_HOURS,
        noun: 'payment'
      })
    }
  }

  /** A new action: the quote must be open, and no other action may already be executing it. */
  private async prepare(input: QuoteExecuteInput): Promise<StoredTransferRecord> {
    const other = this.d.journal
      .list()
      .find(
        (r) =>
          kindOf(r) === 'quote-execute' &&
          r.quoteId === input.quoteId &&
          (isUnresolvedTransfer(r) || r.state === 'sent')
      )
    if (other) {
      throw new AppError(
        'CONFLICT',
        other.state === 'sent'
          ? 'This quote was already executed from this Paydesk.'
          : 'This quote is already being executed and its outcome is not known yet: open it with “Review and retry”.',
        { actionId: other.actionId }
      )
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
    return this.d.journal.prepare(
      {
        actionId: input.actionId,
        kind: 'quote-execute',
        quoteId: quote.id,
        sourceAccountId: quote.source?.accountId ?? '',
        destinationAccountId: destination?.accountId ?? destination?.umaAddress ?? '',
        amount: quote.totalSendingAmount ?? 0
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
