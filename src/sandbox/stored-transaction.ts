import type { TransactionMeta, TransactionObj, TransactionRec } from './model'

/** What the store's indexes and the list's filters read of a transaction (store.ts indexTx, engine/transactions.ts). */
export interface TxKeys {
  customerId: string | undefined
  platformCustomerId: string | undefined
  status: string
  type: string
  sender: string | undefined
  receiver: string | undefined
  reference: string | undefined
}

/** A transaction's keys, as it is now: from its document, or, for a stored one not read yet, from the state file. */
export function txKeysOf(rec: TransactionRec): TxKeys {
  if (rec instanceof StoredTransaction) return rec.keys()
  return keysOfDocument(rec)
}

function keysOfDocument(rec: TransactionRec): TxKeys {
  return {
    customerId: rec.data.customerId,
    platformCustomerId: rec.data.platformCustomerId,
    status: rec.data.status,
    type: rec.data.type,
    sender: rec.meta.sender,
    receiver: rec.meta.receiver,
    reference: rec.meta.reference
  }
}

/**
 * A transaction loaded from the state file (persistence.ts): its sort key and filter keys at once, its document
 * (`data`, `meta`) read from the file and parsed the first time something uses it, then kept, so a change to it is
 * the record's own like any other (and saved when marked dirty). Loading a million as whole documents took 25 s of
 * one core and 1.9 GB at every start (parsing and collecting the objects), while the service's answers touch a few:
 * a page of a list, a transaction by id, the ones a job settles.
 */
export class StoredTransaction implements TransactionRec {
  private document: { data: TransactionObj; meta: TransactionMeta } | undefined

  constructor(
    readonly id: string,
    readonly t: number,
    private readonly stored: TxKeys,
    /** The record's JSON as the state file holds it ({ t, id, data, meta }). */
    private readonly read: (id: string) => string
  ) {}

  get data(): TransactionObj {
    return this.parsed().data
  }

  get meta(): TransactionMeta {
    return this.parsed().meta
  }

  /** Whether the document was read yet (tests: loading reads none). */
  get loaded(): boolean {
    return this.document !== undefined
  }

  keys(): TxKeys {
    return this.document ? keysOfDocument(this) : this.stored
  }

  /** Saved as a plain record: the same JSON whether it was read or not. */
  toJSON(): TransactionRec {
    return { t: this.t, id: this.id, data: this.data, meta: this.meta }
  }

  private parsed(): { data: TransactionObj; meta: TransactionMeta } {
    if (!this.document) {
      const rec = JSON.parse(this.read(this.id)) as TransactionRec
      this.document = { data: rec.data, meta: rec.meta }
    }
    return this.document
  }
}
