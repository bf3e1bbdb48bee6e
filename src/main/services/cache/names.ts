import type { Customer, ExternalAccount, InternalAccount } from '../../../shared/api'
import { customerName, externalAccountLabel, internalAccountLabel } from '../../../shared/labels'
import type { SqliteDatabase } from './sqlite'

/**
 * The names table (schema.ts migration 7): the label of every cached customer and account by id, written with the
 * documents by the shared labelling functions (src/shared/labels.ts). The transaction views read a window's names from
 * it in the same snapshot as its rows (one lookup for the ids shown, however long the history), and a text search reads
 * the customers whose names hold the needle from it, then their transactions by the customer index: a transaction's
 * own row and its text index never hold a name, so a customer renamed changes one row here, not their history.
 */

type NamedCollection = 'customers' | 'internalAccounts' | 'externalAccounts'
export const NAMED_COLLECTIONS: readonly string[] = ['customers', 'internalAccounts', 'externalAccounts']

const KIND: Record<NamedCollection, string> = {
  customers: 'customer',
  internalAccounts: 'internal',
  externalAccounts: 'external'
}

/** The columns of a transaction row that name a customer or an account, read beside its document. */
export const ROW_PARTIES = ['tx.customer_id', 'tx.source_account', 'tx.destination_account'] as const

/** Labels a customer's or an account's documents into the names table; a customer renamed relabels their accounts. */
export function writeNames(db: SqliteDatabase, c: NamedCollection, docs: readonly { id: string }[]): void {
  const upsert = db.prepare(
    `INSERT INTO names (id, kind, name, search, owner) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, name = excluded.name, search = excluded.search,
       owner = excluded.owner`
  )
  const current = db.prepare('SELECT name FROM names WHERE id = ?').pluck()
  const renamed: string[] = []
  for (const doc of docs) {
    const name = labelOf(db, c, doc)
    if (name === null) {
      removeName(db, doc.id)
      continue
    }
    if (c === 'customers' && current.get(doc.id) !== name) renamed.push(doc.id)
    const owner = c === 'customers' ? null : ((doc as { customerId?: string | null }).customerId ?? null)
    upsert.run(doc.id, KIND[c], name, name.toLowerCase(), owner)
  }
  if (renamed.length === 0) return
  // Accounts carry their holder's name: read theirs again from the documents, by the owner index.
  const owned = db.prepare(
    `SELECT docs.c, docs.doc FROM names JOIN docs ON docs.id = names.id
     WHERE names.owner = ? AND docs.c IN ('internalAccounts', 'externalAccounts')`
  )
  for (const owner of renamed)
    for (const row of owned.all(owner) as { c: NamedCollection; doc: string }[])
      writeNames(db, row.c, [JSON.parse(row.doc) as { id: string }])
}

export function removeName(db: SqliteDatabase, id: string): void {
  db.prepare('DELETE FROM names WHERE id = ?').run(id)
}

/** Labels every cached customer and account (a cache made before migration 7): customers first, then whose they are. */
export function fillNames(db: SqliteDatabase): void {
  const docs = db.prepare('SELECT doc FROM docs WHERE c = ?').pluck()
  for (const c of NAMED_COLLECTIONS as NamedCollection[])
    writeNames(
      db,
      c,
      (docs.all(c) as string[]).map((d) => JSON.parse(d) as { id: string })
    )
}

/** The customers whose names hold a (lowercased) needle: a text search finds their transactions too. */
export function customersNamed(db: SqliteDatabase, needle: string): string[] {
  return db
    .prepare("SELECT id FROM names WHERE kind = 'customer' AND instr(search, ?) > 0")
    .pluck()
    .all(needle) as string[]
}

/**
 * The labels of the ids a window of rows names (ROW_PARTIES), in one lookup by the table's key. Read per row instead
 * (a subquery beside each row's columns, merged from one JSON object each), the names cost the list a lookup and a
 * JSON text per row of every window.
 */
export function namesOfIds(db: SqliteDatabase, ids: Iterable<unknown>): Record<string, string> {
  const wanted = [...new Set([...ids].filter((id): id is string => typeof id === 'string' && id.length > 0))]
  const names: Record<string, string> = {}
  // A window names a few hundred ids at most; a long export page is asked in parts, under SQLite's limit of variables.
  for (let i = 0; i < wanted.length; i += IDS_PER_LOOKUP) {
    const part = wanted.slice(i, i + IDS_PER_LOOKUP)
    const rows = db
      .prepare(`SELECT id, name FROM names WHERE id IN (${part.map(() => '?').join(', ')})`)
      .raw()
      .all(...part) as [string, string][]
    for (const [id, name] of rows) names[id] = name
  }
  return names
}

const IDS_PER_LOOKUP = 10_000

/** A document's label, or null for one too incomplete to name (it is then shown by its id, as before). */
function labelOf(db: SqliteDatabase, c: NamedCollection, doc: { id: string }): string | null {
  try {
    if (c === 'customers') return customerName(doc as Customer) || null
    const account = doc as { customerId?: string | null }
    const owner = account.customerId
      ? (db.prepare('SELECT name FROM names WHERE id = ?').pluck().get(account.customerId) as string | undefined)
      : undefined
    return c === 'internalAccounts'
      ? internalAccountLabel(doc as InternalAccount, owner)
      : externalAccountLabel(doc as ExternalAccount, owner)
  } catch {
    // A document the service sent without the fields a label reads (the schemas are loose): no name, never a failed write.
    return null
  }
}
