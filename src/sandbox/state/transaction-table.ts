import type { TransactionRec } from './model'
import type { SqliteDatabase } from './sqlite'
import { KEY_PLACES, StoredTransaction, txKeysOf, type TxKeys } from './stored-transaction'

/**
 * The state file's transactions (persistence.ts): each one's document in `transactions`, and since schema 2 its sort
 * and filter keys in `transaction_keys`, written together. A start reads the keys only; a document is read when the
 * service first uses it (StoredTransaction).
 */

/**
 * The keys' columns of `transaction_keys` after `id` and `t`, in this order everywhere: each with the TxKeys field it
 * holds and where a transaction's JSON keeps it (the schema 1 migration reads it from there).
 */
const KEY_COLUMNS = [
  { column: 'customer_id', field: 'customerId', path: '$.data.customerId' },
  { column: 'platform_customer_id', field: 'platformCustomerId', path: '$.data.platformCustomerId' },
  { column: 'status', field: 'status', path: '$.data.status' },
  { column: 'type', field: 'type', path: '$.data.type' },
  { column: 'sender', field: 'sender', path: '$.meta.sender' },
  { column: 'receiver', field: 'receiver', path: '$.meta.receiver' },
  { column: 'reference', field: 'reference', path: '$.meta.reference' }
] as const satisfies readonly { column: string; field: keyof TxKeys; path: string }[]

const COLUMN_NAMES = ['id', 't', ...KEY_COLUMNS.map((c) => c.column)]
const COLUMNS = COLUMN_NAMES.join(', ')

/** Writes a transaction: its document, and its keys beside it (schema 2), in the caller's SQLite transaction. */
export function transactionWriter(db: SqliteDatabase): (rec: TransactionRec) => void {
  const putDoc = db.prepare('INSERT OR REPLACE INTO transactions (id, doc) VALUES (?, ?)')
  const putKeys = db.prepare(
    `INSERT OR REPLACE INTO transaction_keys (${COLUMNS}) VALUES (${COLUMN_NAMES.map(() => '?').join(', ')})`
  )
  return (rec) => {
    putDoc.run(rec.id, JSON.stringify(rec))
    const keys = txKeysOf(rec)
    putKeys.run(rec.id, rec.t, ...KEY_COLUMNS.map((c) => keys[c.field] ?? null))
  }
}

/**
 * Schema 1 to 2: the keys of every transaction, read by SQLite from its JSON once (seconds at a million rows). The
 * caller runs it in the SQLite transaction that records the new schema, so a file is migrated whole or not at all.
 */
export function fillTransactionKeys(db: SqliteDatabase): void {
  const fromDocument = KEY_COLUMNS.map((c) => `json_extract(doc, '$.${KEY_PLACES[c.field]}.${c.field}')`).join(', ')
  db.exec(
    `INSERT OR REPLACE INTO transaction_keys (${COLUMNS})
    SELECT id, json_extract(doc, '$.t'), ${fromDocument} FROM transactions`
  )
}

/** Every transaction of the file as a StoredTransaction: its keys from their table, its document read when used. */
export function storedTransactions(db: SqliteDatabase): StoredTransaction[] {
  const readDoc = db.prepare('SELECT doc FROM transactions WHERE id = ?').pluck()
  const read = (id: string) => {
    const doc = readDoc.get(id)
    if (typeof doc !== 'string') throw new Error(`transaction ${id} is no longer in the state file`)
    return doc
  }
  const rows = db.prepare(`SELECT ${COLUMNS} FROM transaction_keys`).raw()
  // The keys but the reference take a few values each (customers, statuses, accounts): one string per value, where
  // SQLite hands out a new one per row. At a million rows that is six million strings fewer to keep and collect.
  const values = new Map<string, string>()
  const shared = (value: unknown): string | undefined => {
    if (value === null) return undefined
    const text = String(value)
    const known = values.get(text)
    if (known !== undefined) return known
    values.set(text, text)
    return text
  }
  const out: StoredTransaction[] = []
  for (const row of rows.iterate() as IterableIterator<unknown[]>) {
    // In KEY_COLUMNS' order. An object literal, not one built from that list: this runs a million times at a start.
    const [id, t, customerId, platformCustomerId, status, type, sender, receiver, reference] = row
    out.push(
      new StoredTransaction(
        String(id),
        Number(t),
        {
          customerId: shared(customerId),
          platformCustomerId: shared(platformCustomerId),
          status: shared(status)!,
          type: shared(type)!,
          sender: shared(sender),
          receiver: shared(receiver),
          reference: reference === null ? undefined : String(reference)
        },
        read
      )
    )
  }
  return out
}
