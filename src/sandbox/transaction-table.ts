import type { TransactionRec } from './model'
import type { SqliteDatabase } from './sqlite'
import { StoredTransaction, txKeysOf } from './stored-transaction'

/**
 * The state file's transactions (persistence.ts): each one's document in `transactions`, and since schema 2 its sort
 * and filter keys in `transaction_keys`, written together. A start reads the keys only; a document is read when the
 * service first uses it (StoredTransaction).
 */

/** Writes a transaction: its document, and its keys beside it (schema 2), in the caller's SQLite transaction. */
export function transactionWriter(db: SqliteDatabase): (rec: TransactionRec) => void {
  const putDoc = db.prepare('INSERT OR REPLACE INTO transactions (id, doc) VALUES (?, ?)')
  const putKeys = db.prepare(
    `INSERT OR REPLACE INTO transaction_keys (id, t, customer_id, platform_customer_id, status, type, sender, receiver,
      reference) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
  return (rec) => {
    putDoc.run(rec.id, JSON.stringify(rec))
    const k = txKeysOf(rec)
    putKeys.run(rec.id, rec.t, k.customerId, k.platformCustomerId, k.status, k.type, k.sender, k.receiver, k.reference)
  }
}

/**
 * Schema 1 to 2: the keys of every transaction, read by SQLite from its JSON once (seconds at a million rows). The
 * caller runs it in the SQLite transaction that records the new schema, so a file is migrated whole or not at all.
 */
export function fillTransactionKeys(db: SqliteDatabase): void {
  db.exec(`
    INSERT OR REPLACE INTO transaction_keys (id, t, customer_id, platform_customer_id, status, type, sender, receiver,
      reference)
    SELECT id, json_extract(doc, '$.t'), json_extract(doc, '$.data.customerId'),
      json_extract(doc, '$.data.platformCustomerId'), json_extract(doc, '$.data.status'),
      json_extract(doc, '$.data.type'), json_extract(doc, '$.meta.sender'), json_extract(doc, '$.meta.receiver'),
      json_extract(doc, '$.meta.reference')
    FROM transactions
  `)
}

/** Every transaction of the file as a StoredTransaction: its keys from their table, its document read when used. */
export function storedTransactions(db: SqliteDatabase): StoredTransaction[] {
  const readDoc = db.prepare('SELECT doc FROM transactions WHERE id = ?').pluck()
  const read = (id: string) => {
    const doc = readDoc.get(id)
    if (typeof doc !== 'string') throw new Error(`transaction ${id} is no longer in the state file`)
    return doc
  }
  const rows = db
    .prepare(
      `SELECT id, t, customer_id, platform_customer_id, status, type, sender, receiver, reference
      FROM transaction_keys`
    )
    .raw()
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
