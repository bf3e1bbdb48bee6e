import { createHash } from 'node:crypto'
import { z } from 'zod'
import { TransferRecord, type PaymentKind } from '../../shared/ipc/channels/data'
import { AppError } from '../infra/app-error'
import { setAside } from '../infra/atomic-file'
import { refuseWhileHeld } from './payment-intents'
import { readSealed, writeSealed } from '../infra/sealed-file'
import { Sequencer } from '../infra/sequencer'

/**
 * The crash-safe transfer journal of a profile. One record per operator action (`actionId`), holding the
 * Idempotency-Key generated for it. The record is written durably BEFORE the first attempt, so every retry — in this
 * run or after a crash and restart — sends the same key, and the service answers with the first result instead of
 * moving money twice. Preparing a record and the guard of its payment (no other attempt at the same payment while
 * one holds it, payment-intents.ts) are one step in the journal's sequence, so two attempts cannot both pass it.
 */

const StoredRecord = TransferRecord.extend({ idempotencyKey: z.string().min(1) })
export type StoredTransferRecord = z.infer<typeof StoredRecord>
const JournalFile = z.object({ version: z.literal(1), records: z.array(StoredRecord) })

const MAX_RECORDS = 5_000

export interface TransferIntent {
  actionId: string
  /** Absent: a transfer-out. */
  kind?: PaymentKind
  quoteId?: string
  sourceAccountId: string
  destinationAccountId: string
  amount: number
  /** A quote's request (see TransferRecord). */
  lockedSide?: 'SENDING' | 'RECEIVING'
  lockedAmount?: number
  receivingCurrency?: string
}

/** The kind of a record; records from before quotes carry none and are transfer-outs. */
export const kindOf = (r: Pick<TransferRecord, 'kind'>): PaymentKind => r.kind ?? 'transfer-out'

export class TransferJournal {
  private records = new Map<string, StoredTransferRecord>()
  private readonly sequencer = new Sequencer()

  private constructor(
    private readonly file: string,
    private readonly key: Buffer,
    private readonly profileId: string
  ) {}

  /**
   * Opens the journal. A damaged one (undecryptable, or not a journal) is set aside, kept, and reported through
   * `onDamage`: the journal then starts empty, and the operator must hear that transfers of unknown outcome may be
   * among what it held.
   */
  static async open(
    file: string,
    key: Buffer,
    profileId: string,
    log: (m: string) => void = () => {},
    onDamage: (setAsideAs: string | undefined) => void = () => {}
  ): Promise<TransferJournal> {
    const journal = new TransferJournal(file, key, profileId)
    const read = await readSealed(file, key, log)
    if (read.value === undefined) {
      if (read.setAsideAs !== undefined) onDamage(read.setAsideAs)
      return journal
    }
    const parsed = JournalFile.safeParse(read.value)
    if (parsed.success) for (const r of parsed.data.records) journal.records.set(r.actionId, r)
    else {
      const where = await setAside(file, 'unreadable')
      log(`${file} is not a transfer journal Paydesk can read and was set aside`)
      onDamage(where)
    }
    return journal
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    return this.sequencer.run(work)
  }

  private async persist(next: Map<string, StoredTransferRecord>): Promise<void> {
    let records = [...next.values()]
    if (records.length > MAX_RECORDS) {
      // Forget the oldest settled records first; never one whose outcome is not known.
      records.sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      const excess = records.length - MAX_RECORDS
      let dropped = 0
      records = records.filter(
        (r) => !(dropped < excess && r.state !== 'unknown' && r.state !== 'prepared' && ++dropped)
      )
    }
    await writeSealed(this.file, this.key, { version: 1, records })
    this.records = new Map(records.map((r) => [r.actionId, r]))
  }

  /**
   * The record of this action, created (with a fresh Idempotency-Key, durably) if it is new. The same action id with
   * a different transfer is refused: reusing its key would make the service answer for the other transfer. A new action
   * for a payment another record holds is refused too, in the same step as the write.
   */
  prepare(intent: TransferIntent, now: Date): Promise<StoredTransferRecord> {
    return this.serial(async () => {
      const existing = this.records.get(intent.actionId)
      if (existing) return sameIntent(existing, intent)
      refuseWhileHeld(this.records.values(), intent)
      const record = this.newRecord(intent, now)
      await this.persist(new Map(this.records).set(record.actionId, record))
      return record
    })
  }

  /**
   * "It did not go through, send again": the old record marked as replaced and the new action prepared, in one write,
   * so there is never a replaced record without its replacement (or two records holding the payment).
   */
  replace(previousId: string, intent: TransferIntent, now: Date): Promise<StoredTransferRecord> {
    return this.serial(async () => {
      const previous = this.records.get(previousId)
      if (!previous) throw new AppError('NOT_FOUND', 'Paydesk has no record of this transfer.')
      const existing = this.records.get(intent.actionId)
      if (existing) return sameIntent(existing, intent)
      const next = new Map(this.records).set(previousId, {
        ...previous,
        state: 'superseded',
        supersededBy: intent.actionId
      })
      refuseWhileHeld(next.values(), intent)
      const record = { ...this.newRecord(intent, now), replaces: previousId }
      await this.persist(next.set(record.actionId, record))
      return record
    })
  }

  private newRecord(intent: TransferIntent, now: Date): StoredTransferRecord {
    return {
      ...intent,
      createdAt: now.toISOString(),
      state: 'prepared',
      attempts: 0,
      idempotencyKey: idempotencyKeyFor(this.profileId, intent.actionId, kindOf(intent))
    }
  }

  update(
    actionId: string,
    patch: Partial<Omit<StoredTransferRecord, 'actionId' | 'idempotencyKey'>>
  ): Promise<StoredTransferRecord> {
    return this.serial(async () => {
      const current = this.records.get(actionId)
      if (!current) throw new AppError('NOT_FOUND', 'Paydesk has no record of this transfer.')
      const record = { ...current, ...patch }
      const next = new Map(this.records)
      next.set(actionId, record)
      await this.persist(next)
      return record
    })
  }

  get(actionId: string): StoredTransferRecord | undefined {
    return this.records.get(actionId)
  }

  byTransactionId(id: string): StoredTransferRecord | undefined {
    for (const r of this.records.values()) if (r.transactionId === id) return r
    return undefined
  }

  list(): StoredTransferRecord[] {
    return [...this.records.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
  }
}

/** The existing record of an action, if it is the same payment; reusing its key for another would be answered wrongly. */
function sameIntent(existing: StoredTransferRecord, intent: TransferIntent): StoredTransferRecord {
  if (
    kindOf(existing) !== kindOf(intent) ||
    existing.quoteId !== intent.quoteId ||
    existing.sourceAccountId !== intent.sourceAccountId ||
    existing.destinationAccountId !== intent.destinationAccountId ||
    existing.amount !== intent.amount
  ) {
    throw new AppError(
      'INVALID_INPUT',
      kindOf(intent) === 'transfer-out'
        ? 'This action was already used for a different transfer. Start a new transfer instead of changing this one.'
        : 'This action was already used for a different payment. Start a new one instead of changing this one.'
    )
  }
  return existing
}

/**
 * The Idempotency-Key of an operator action: derived from the action id (a uuid the renderer makes once per action),
 * so even if the journal itself were lost, a retry of the same action would still send the same key.
 */
export function idempotencyKeyFor(profileId: string, actionId: string, kind: PaymentKind = 'transfer-out'): string {
  return `paydesk-${createHash('sha256').update(`${kind}\n${profileId}\n${actionId}`).digest('base64url').slice(0, 43)}`
}

/** The record as the renderer may see it: without the Idempotency-Key. */
export function publicRecord(r: StoredTransferRecord): TransferRecord {
  const { idempotencyKey: _key, ...rest } = r
  return rest
}
