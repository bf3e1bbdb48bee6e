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

/**
 * Where a transaction's document keeps each key, under the key's own name: in `data` (the API's object) or in `meta`
 * (the sandbox's own). The state file's key columns read the same places (transaction-table.ts).
 */
export const KEY_PLACES = {
  customerId: 'data',
  platformCustomerId: 'data',
  status: 'data',
  type: 'data',
  sender: 'meta',
  receiver: 'meta',
  reference: 'meta'
} as const satisfies {
  [K in keyof TxKeys]: K extends keyof TransactionObj ? 'data' : K extends keyof TransactionMeta ? 'meta' : never
}

function keyInDocument<K extends keyof TxKeys>(rec: TransactionRec, field: K): TxKeys[K] {
  return (rec[KEY_PLACES[field]] as Partial<TxKeys>)[field] as TxKeys[K]
}

/** A transaction's keys, as it is now: from its document, or, for a stored one not read yet, from the state file. */
export function txKeysOf(rec: TransactionRec): TxKeys {
  if (rec instanceof StoredTransaction) return rec.keys()
  return keysOfDocument(rec)
}

/**
 * One of a transaction's keys, as txKeysOf would give it, without building the keys: the list's filters test every
 * row of a range with it (a count at 100,000 rows tests 100,000).
 */
export function txKeyOf<K extends keyof TxKeys>(rec: TransactionRec, field: K): TxKeys[K] {
  if (rec instanceof StoredTransaction) return rec.key(field)
  return keyInDocument(rec, field)
}

function keysOfDocument(rec: TransactionRec): TxKeys {
  return {
    customerId: keyInDocument(rec, 'customerId'),
    platformCustomerId: keyInDocument(rec, 'platformCustomerId'),
    status: keyInDocument(rec, 'status'),
    type: keyInDocument(rec, 'type'),
    sender: keyInDocument(rec, 'sender'),
    receiver: keyInDocument(rec, 'receiver'),
    reference: keyInDocument(rec, 'reference')
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

  key<K extends keyof TxKeys>(field: K): TxKeys[K] {
    return this.document ? keyInDocument(this, field) : this.stored[field]
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
