import { z } from 'zod'
import { Transaction } from '../../shared/api'
import { PagedEnvelope } from '../../shared/api/list'
import {
  isUnresolvedTransfer,
  type TransferResolveInput,
  type TransferSendAgainInput,
  type TransferSendInput
} from '../../shared/ipc/channels/data'
import type { TransactionChange } from '../../shared/ipc/channels/sync'
import { DEFAULT_IDEMPOTENCY_WINDOW_HOURS } from '../../shared/profile'
import { AppError } from '../errors'
import { recordFailedAttempt, type PaymentDeps } from './payment-attempt'
import { isProduction, requireProductionConfirmation } from './production-guard'
import { TERMINAL_STATUSES } from './sync/engine'
import { kindOf, publicRecord, type StoredTransferRecord } from './transfer-journal'

const HOUR_MS = 60 * 60_000
/** A look-up older than this no longer vouches for "it did not go through". */
const CHECK_VALID_MS = HOUR_MS
/** How far before the action's start the look-up reaches, for clocks that disagree. */
const CHECK_LEEWAY_MS = 10 * 60_000
const CHECK_MAX_PAGES = 20

/**
 * Money that leaves an internal account, exactly once per operator action, end to end:
 * - the journal stores the action's Idempotency-Key durably before the first attempt, and every retry (also after a
 *   restart) sends that key;
 * - a new action that matches an unresolved one (same source, destination and amount) is refused: it would carry a new
 *   key, so the service could not tell it was the same payment;
 * - once the service may have forgotten the key (its idempotency window), a retry is refused too until the operator
 *   has looked the transfer up at the service; only an explicit "it did not go through, send again" makes a new action.
 */
export class TransferService {
  private sending = new Map<string, ReturnType<TransferService['sendOnce']>>()

  constructor(private readonly d: PaymentDeps) {}

  private get profileId(): string {
    return this.d.profile.id
  }

  private get windowMs(): number {
    return (this.d.profile.idempotencyWindowHours ?? DEFAULT_IDEMPOTENCY_WINDOW_HOURS) * HOUR_MS
  }

  /** When the service may forget the record's key: one window (the profile's, as it is now) after it was first sent. */
  private keyExpiresAt(record: StoredTransferRecord): number | undefined {
    return record.firstSentAt === undefined ? undefined : Date.parse(record.firstSentAt) + this.windowMs
  }

  private keyExpired(record: StoredTransferRecord): boolean {
    const expiresAt = this.keyExpiresAt(record)
    return expiresAt !== undefined && expiresAt <= this.d.now()
  }

  /** The record as the renderer sees it: no key, and when that key expires. */
  private view(record: StoredTransferRecord) {
    const expiresAt = this.keyExpiresAt(record)
    return {
      ...publicRecord(record),
      ...(expiresAt !== undefined && { keyExpiresAt: new Date(expiresAt).toISOString() })
    }
  }

  /** Transfers on their way to the service right now. */
  get sendingNow(): number {
    return this.sending.size
  }

  records() {
    return { profileId: this.profileId, records: this.d.journal.list().map((r) => this.view(r)) }
  }

  /** Transactions of the operator's own transfers that were sent and are not final yet: polled every time. */
  inFlightTransactionIds(): string[] {
    return this.d.journal
      .list()
      .filter((r) => r.state === 'sent' && r.transactionId && !TERMINAL_STATUSES.has(r.transactionStatus ?? ''))
      .map((r) => r.transactionId!)
  }

  /**
   * Follows what a poll saw into the journal. Returns the operator's payments that reached a final status (to be
   * told), and whether balances moved (any final status, or a payment not seen before).
   */
  async followChanges(
    changes: TransactionChange[]
  ): Promise<{ settled: Array<{ record: StoredTransferRecord; change: TransactionChange }>; balancesMoved: boolean }> {
    const settled: Array<{ record: StoredTransferRecord; change: TransactionChange }> = []
    let balancesMoved = false
    for (const change of changes) {
      const record = this.d.journal.byTransactionId(change.id)
      if (!record) {
        if (TERMINAL_STATUSES.has(change.status) || change.previousStatus === null) balancesMoved = true
        continue
      }
      if (record.transactionStatus === change.status) continue
      await this.d.journal.update(record.actionId, { transactionStatus: change.status })
      if (TERMINAL_STATUSES.has(change.status)) {
        balancesMoved = true
        settled.push({ record, change })
      }
    }
    return { settled, balancesMoved }
  }

  send(input: TransferSendInput) {
    // A double click (or two windows) sending the same action waits for the first send instead of racing it.
    const running = this.sending.get(input.actionId)
    if (running) return running
    const run = this.sendOnce(input).finally(() => this.sending.delete(input.actionId))
    this.sending.set(input.actionId, run)
    return run
  }

  private requireProductionConfirmation(confirmProduction: boolean | undefined): void {
    requireProductionConfirmation(
      isProduction(this.d.profile),
      confirmProduction,
      'real money moves. Confirm the transfer to send it.'
    )
  }

  private refuseDuplicateOfUnresolved(input: TransferSendInput): void {
    if (this.d.journal.get(input.actionId)) return
    const twin = this.d.journal
      .list()
      .find(
        (r) =>
          kindOf(r) === 'transfer-out' &&
          isUnresolvedTransfer(r) &&
          r.sourceAccountId === input.sourceAccountId &&
          r.destinationAccountId === input.destinationAccountId &&
          r.amount === input.amount
      )
    if (!twin) return
    throw new AppError(
      'CONFLICT',
      `A transfer of the same amount from this account to the same destination, started ${twin.createdAt}, has no ` +
        'known outcome yet. A new one could pay twice: open that transfer with “Review and retry” instead.',
      { actionId: twin.actionId }
    )
  }

  private async sendOnce(input: TransferSendInput) {
    this.requireProductionConfirmation(input.confirmProduction)
    const client = this.d.client()
    this.refuseDuplicateOfUnresolved(input)
    const intent = {
      actionId: input.actionId,
      sourceAccountId: input.sourceAccountId,
      destinationAccountId: input.destinationAccountId,
      amount: input.amount
    }
    let record = await this.d.journal.prepare(intent, new Date(this.d.now()))
    if (record.state === 'superseded') {
      throw new AppError(
        'CONFLICT',
        'This transfer was checked and sent again as a new one; it cannot be retried itself.',
        record.supersededBy !== undefined ? { actionId: record.supersededBy } : {}
      )
    }
    if (record.state === 'sent' && record.transactionId) {
      const known = this.d.cachedTransaction(record.transactionId)
      if (known) return { profileId: this.profileId, transaction: known, record: this.view(record) }
    }
    if (isUnresolvedTransfer(record) && this.keyExpired(record)) {
      throw new AppError(
        'CHECK_REQUIRED',
        `The outcome of this transfer is unknown and its idempotency key went to the service more than ` +
          `${this.windowMs / HOUR_MS} h ago, longer than the service is known to remember it: a retry could pay a ` +
          'second time. Check the service for it first.',
        { actionId: record.actionId }
      )
    }
    const nowIso = new Date(this.d.now()).toISOString()
    record = await this.d.journal.update(record.actionId, {
      attempts: record.attempts + 1,
      ...(record.firstSentAt === undefined && { firstSentAt: nowIso })
    })
    try {
      const transaction = await client.request('POST', 'transfer-out', {
        body: {
          source: { accountId: input.sourceAccountId },
          destination: { accountId: input.destinationAccountId },
          amount: input.amount
        },
        idempotencyKey: record.idempotencyKey,
        retry: 'idempotent',
        maxRetries: 5,
        schema: Transaction
      })
      record = await this.d.journal.update(record.actionId, {
        state: 'sent',
        transactionId: transaction.id,
        transactionStatus: String((transaction as { status?: unknown }).status ?? ''),
        lastError: undefined
      })
      await this.d.onTransaction(transaction)
      return { profileId: this.profileId, transaction, record: this.view(record) }
    } catch (error) {
      throw await this.failed(record, error)
    }
  }

  /** Records what a failed attempt means for the money, and the sentence for the operator. */
  private failed(record: StoredTransferRecord, error: unknown): Promise<unknown> {
    return recordFailedAttempt(this.d.journal, record, error, {
      windowHours: this.windowMs / HOUR_MS,
      noun: 'transfer'
    })
  }

  private unresolved(actionId: string): StoredTransferRecord {
    const record = this.d.journal.get(actionId)
    if (!record) throw new AppError('NOT_FOUND', 'Paydesk has no record of this transfer.')
    if (!isUnresolvedTransfer(record)) {
      throw new AppError('CONFLICT', 'The outcome of this transfer is already known: there is nothing to check.')
    }
    return record
  }

  /**
   * Looks an unresolved transfer up at the service: outgoing transactions from its account since shortly before it
   * started, kept when destination and amount match too. Records when it looked and how many it found.
   */
  async check(actionId: string) {
    const record = this.unresolved(actionId)
    const client = this.d.client()
    const matches: Transaction[] = []
    let cursor: string | undefined
    for (let page = 0; page < CHECK_MAX_PAGES; page++) {
      const res = await client.get('transactions', PagedEnvelope, {
        type: 'OUTGOING',
        senderAccountIdentifier: record.sourceAccountId,
        startDate: new Date(Date.parse(record.createdAt) - CHECK_LEEWAY_MS).toISOString(),
        sortOrder: 'asc',
        limit: 100,
        ...(cursor && { cursor })
      })
      for (const raw of res.data) {
        const parsed = Transaction.safeParse(raw)
        if (parsed.success && matchesRecord(parsed.data, record)) matches.push(parsed.data)
      }
      if (!res.hasMore || !res.nextCursor || res.nextCursor === cursor) break
      cursor = res.nextCursor
    }
    const updated = await this.d.journal.update(actionId, {
      checkedAt: new Date(this.d.now()).toISOString(),
      checkFound: matches.length
    })
    this.d.log(`transfer ${actionId}: checked at the service, ${matches.length} matching transaction(s) found`)
    return { profileId: this.profileId, record: this.view(updated), matches }
  }

  /** The check found it: the record takes that transaction, and its outcome is known. */
  async resolve({ actionId, transactionId }: TransferResolveInput) {
    const record = this.unresolved(actionId)
    const transaction = await this.d.client().request('GET', `transactions/${encodeURIComponent(transactionId)}`, {
      schema: Transaction,
      retry: 'idempotent'
    })
    if (!matchesRecord(transaction, record)) {
      throw new AppError(
        'INVALID_INPUT',
        'That transaction is not this transfer: its account, destination or amount differs.'
      )
    }
    const updated = await this.d.journal.update(actionId, {
      state: 'sent',
      transactionId: transaction.id,
      transactionStatus: String(transaction.status ?? ''),
      lastError: undefined
    })
    this.d.log(`transfer ${actionId}: settled by the operator as transaction ${transaction.id}`)
    await this.d.onTransaction(transaction)
    return { profileId: this.profileId, transaction, record: this.view(updated) }
  }

  /**
   * "It did not go through, send again": only for an unresolved transfer the operator looked up at the service within
   * the last hour. The old record is kept, marked as replaced; the new action has its own key.
   */
  async sendAgain(input: TransferSendAgainInput) {
    this.requireProductionConfirmation(input.confirmProduction)
    const previous = this.d.journal.get(input.actionId)
    const replacement = this.d.journal.get(input.newActionId)
    if (previous?.state === 'superseded' && previous.supersededBy === input.newActionId && replacement) {
      // The same "send again" retried (its answer was lost): the new action keeps its own key.
      return this.send(sendInputOf(replacement, input.confirmProduction))
    }
    const record = this.unresolved(input.actionId)
    const checkedAt = record.checkedAt === undefined ? NaN : Date.parse(record.checkedAt)
    if (!(this.d.now() - checkedAt < CHECK_VALID_MS)) {
      throw new AppError(
        'CHECK_REQUIRED',
        'Check the service for this transfer first: sending it again is only offered after a look-up in the last hour.',
        { actionId: record.actionId }
      )
    }
    await this.d.journal.update(record.actionId, { state: 'superseded', supersededBy: input.newActionId })
    this.d.log(
      `transfer ${record.actionId}: the operator confirmed it did not go through (${record.checkFound ?? 0} match(es) ` +
        `found at ${record.checkedAt}); sending it again as ${input.newActionId}`
    )
    await this.d.journal.prepare(
      {
        actionId: input.newActionId,
        sourceAccountId: record.sourceAccountId,
        destinationAccountId: record.destinationAccountId,
        amount: record.amount
      },
      new Date(this.d.now())
    )
    const added = await this.d.journal.update(input.newActionId, { replaces: record.actionId })
    return this.send(sendInputOf(added, input.confirmProduction))
  }
}

/** The send of a journal record's payment (its ids were validated when it was first sent). */
function sendInputOf(record: StoredTransferRecord, confirmProduction: boolean | undefined): TransferSendInput {
  return {
    actionId: record.actionId,
    sourceAccountId: record.sourceAccountId as TransferSendInput['sourceAccountId'],
    destinationAccountId: record.destinationAccountId as TransferSendInput['destinationAccountId'],
    amount: record.amount,
    ...(confirmProduction !== undefined && { confirmProduction })
  }
}

const Endpoint = z.looseObject({ accountId: z.string().optional() })
const Sent = z.looseObject({ amount: z.number().int() })

function matchesRecord(transaction: Transaction, record: StoredTransferRecord): boolean {
  const t = transaction as Record<string, unknown>
  if (t['type'] !== 'OUTGOING') return false
  const source = Endpoint.safeParse(t['source'])
  const destination = Endpoint.safeParse(t['destination'])
  // The requested amount is what reaches the destination; the source is also debited the fees (sentAmount).
  const amounts = [t['receivedAmount'], t['sentAmount']].map((a) => Sent.safeParse(a))
  return (
    source.success &&
    source.data.accountId === record.sourceAccountId &&
    destination.success &&
    destination.data.accountId === record.destinationAccountId &&
    amounts.some((a) => a.success && a.data.amount === record.amount)
  )
}
