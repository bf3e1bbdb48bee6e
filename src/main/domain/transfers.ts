import { z } from 'zod'
import { Transaction } from '../../shared/api'
import { PagedEnvelope } from '../../shared/api/list'
import {
  checkedSinceLastAttempt,
  checkFoundIt,
  isUnresolvedTransfer,
  type TransferResolveInput,
  type TransferSendAgainInput,
  type TransferSendInput
} from '../../shared/ipc/channels/data'
import type { TransactionChange } from '../../shared/ipc/channels/sync'
import { AppError } from '../infra/app-error'
import { recordFailedAttempt, type PaymentDeps } from './payment-attempt'
import { isProduction, requireProductionConfirmation } from './production-guard'
import { isFinalPaymentStatus } from '../../shared/payment-status'
import { publicRecord, type StoredTransferRecord, type TransferIntent } from './transfer-journal'

/**
 * How far before the action's start the look-up reaches. The service stamps its transactions with its own clock, so
 * the reach is wide: a day either way of disagreement still finds the payment. What it finds is shown with its time.
 */
const CHECK_LEEWAY_MS = 24 * 60 * 60_000
const CHECK_MAX_PAGES = 20

/**
 * Money that leaves an internal account, exactly once per operator action, end to end:
 * - the journal stores the action's Idempotency-Key durably before the first attempt, and every retry (also after a
 *   restart) sends that key;
 * - while a record holds a payment (prepared, or its outcome unknown), another action for the same payment is refused
 *   in the same journal step that would write it (payment-intents.ts): it would carry a new key;
 * - Paydesk does not know how long the service remembers a key, so a retry of an attempt that may have gone through
 *   first looks the payment up at the service; if the look-up finds it, nothing is sent and the operator settles it
 *   with what was found on screen. "It did not go through, send again" is taken only after a look-up that found
 *   nothing, with no attempt since.
 */
export class TransferService {
  private sending = new Map<string, ReturnType<TransferService['sendOnce']>>()

  constructor(private readonly d: PaymentDeps) {}

  private get profileId(): string {
    return this.d.profile.id
  }

  /**
   * The record as the renderer sees it: without its key, and with its payment's one live status, the cached
   * transaction's (what Transactions shows), not the journal's copy, which a poll updates only after its event went out.
   */
  private view(record: StoredTransferRecord) {
    return publicRecord({ ...record, ...this.liveStatusOf(record) })
  }

  private liveStatusOf(record: StoredTransferRecord): { transactionStatus?: string } {
    if (!record.transactionId) return {}
    const cached = this.d.cachedTransaction(record.transactionId)?.status
    const status = cached !== undefined ? String(cached) : record.transactionStatus
    return status !== undefined ? { transactionStatus: status } : {}
  }

  /** Transfers on their way to the service right now. */
  get sendingNow(): number {
    return this.sending.size
  }

  records() {
    return { profileId: this.profileId, records: this.d.journal.list().map((r) => this.view(r)) }
  }

  /** Transactions of the operator's own payments that were sent and are not final yet: polled until they are. */
  inFlightTransactionIds(): string[] {
    return this.d.journal
      .list()
      .filter(
        (r) => r.state === 'sent' && r.transactionId && !isFinalPaymentStatus(this.liveStatusOf(r).transactionStatus)
      )
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
        if (isFinalPaymentStatus(change.status) || change.previousStatus === null) balancesMoved = true
        continue
      }
      if (record.transactionStatus === change.status) continue
      await this.d.journal.update(record.actionId, { transactionStatus: change.status })
      if (isFinalPaymentStatus(change.status)) {
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

  private async sendOnce(input: TransferSendInput) {
    this.requireProductionConfirmation(input.confirmProduction)
    const client = this.d.client()
    const intent: TransferIntent = {
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
    if (isUnresolvedTransfer(record)) record = await this.requireNotFound(record)
    record = await this.d.journal.update(record.actionId, { attempts: record.attempts + 1 })
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

  /**
   * Before a retry of an attempt that may have gone through: the service may have forgotten its key (when, Paydesk
   * cannot know), so the payment is looked up first. Found: nothing is sent, and the operator settles it with what was
   * found. Not found: the retry is safe whether or not the key is remembered.
   */
  private async requireNotFound(record: StoredTransferRecord): Promise<StoredTransferRecord> {
    const { record: checked, matches } = await this.lookUp(record)
    if (matches.length === 0) return checked
    throw new AppError(
      'CHECK_REQUIRED',
      `The service shows ${matches.length} outgoing payment${matches.length === 1 ? '' : 's'} of this amount from ` +
        'this account to this destination since this transfer was started: it may well have gone through, and a ' +
        'retry could pay a second time. Nothing was sent. Look at what the check found and settle it.',
      { actionId: record.actionId }
    )
  }

  /** Records what a failed attempt means for the money, and the sentence for the operator. */
  private failed(record: StoredTransferRecord, error: unknown): Promise<unknown> {
    return recordFailedAttempt(this.d.journal, record, error, { noun: 'transfer' })
  }

  private unresolved(actionId: string): StoredTransferRecord {
    const record = this.d.journal.get(actionId)
    if (!record) throw new AppError('NOT_FOUND', 'Paydesk has no record of this transfer.')
    if (!isUnresolvedTransfer(record)) {
      throw new AppError('CONFLICT', 'The outcome of this transfer is already known: there is nothing to check.')
    }
    return record
  }

  /** The operator's "check the service": refused while this very action is on its way (its answer would not be in it). */
  async check(actionId: string) {
    const record = this.unresolved(actionId)
    this.refuseWhileSending(actionId)
    const { record: checked, matches } = await this.lookUp(record)
    return { profileId: this.profileId, record: this.view(checked), matches }
  }

  private refuseWhileSending(actionId: string): void {
    if (!this.sending.has(actionId)) return
    throw new AppError(
      'CONFLICT',
      'This transfer is on its way to the service right now: wait for its answer before checking or sending it again.',
      { actionId }
    )
  }

  /**
   * Looks an unresolved transfer up at the service: outgoing transactions from its account since shortly before it
   * started, kept when destination and amount match too and no other record of this Paydesk owns them. Records the
   * look-up (how many it found, and after how many attempts).
   */
  private async lookUp(record: StoredTransferRecord) {
    const client = this.d.client()
    const owned = new Set(
      this.d.journal
        .list()
        .filter((r) => r.actionId !== record.actionId && r.transactionId)
        .map((r) => r.transactionId!)
    )
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
        if (parsed.success && !owned.has(parsed.data.id) && matchesRecord(parsed.data, record))
          matches.push(parsed.data)
      }
      if (!res.hasMore || !res.nextCursor || res.nextCursor === cursor) break
      cursor = res.nextCursor
    }
    const updated = await this.d.journal.update(record.actionId, {
      checkedAt: new Date(this.d.now()).toISOString(),
      checkFound: matches.length,
      checkedAtAttempt: record.attempts
    })
    this.d.log(`transfer ${record.actionId}: checked at the service, ${matches.length} matching transaction(s) found`)
    return { record: updated, matches }
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
   * "It did not go through, send again": only for an unresolved transfer whose last look-up at the service, made after
   * its last attempt, found nothing. The old record is kept, marked as replaced; the new action has its own key.
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
    this.refuseWhileSending(record.actionId)
    if (!checkedSinceLastAttempt(record)) {
      throw new AppError(
        'CHECK_REQUIRED',
        'Check the service for this transfer first: it is sent again only when a look-up made after its last attempt ' +
          'finds nothing.',
        { actionId: record.actionId }
      )
    }
    if (checkFoundIt(record)) {
      throw new AppError(
        'CONFLICT',
        `The last check found ${record.checkFound} matching payment${record.checkFound === 1 ? '' : 's'} at the ` +
          'service, so this transfer is not sent again. Settle it with the payment that is it.',
        { actionId: record.actionId }
      )
    }
    const added = await this.d.journal.replace(
      record.actionId,
      {
        actionId: input.newActionId,
        sourceAccountId: record.sourceAccountId,
        destinationAccountId: record.destinationAccountId,
        amount: record.amount
      },
      new Date(this.d.now())
    )
    this.d.log(
      `transfer ${record.actionId}: the operator confirmed it did not go through (no match found at ` +
        `${record.checkedAt}); sending it again as ${input.newActionId}`
    )
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
