import type { Customer, ExternalAccount, InternalAccount, Transaction } from '../../../shared/api'
import { customerName, externalAccountLabel, internalAccountLabel } from '../../../shared/labels'
import type { SqliteDatabase } from './sqlite'
import { partiesOf } from './transaction-rows'

/**
 * The names table (schema.ts migration 7): the label of every cached customer and account by id, written with the
 * documents by the shared labelling functions (src/shared/labels.ts). The detail reads names by id from it, and a text
 * search reads the customers whose names hold the needle from it, then their transactions by the customer index: a
 * transaction's text index never holds a name, so a search follows a rename at once. Each transaction row keeps the
 * names a list shows (ROW_NAMES), which the table's triggers write onto the rows when a label changes (schema.ts
 * migration 9).
 */

type NamedCollection = 'customers' | 'internalAccounts' | 'externalAccounts'
export const NAMED_COLLECTIONS: readonly string[] = ['customers', 'internalAccounts', 'externalAccounts']

const KIND: Record<NamedCollection, string> = {
  customers: 'customer',
  internalAccounts: 'internal',
  externalAccounts: 'external'
}

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
 * The ids a transaction row names, each beside the name the row keeps for it (schema.ts migration 9): a window reads
 * both with its rows. Looked up per window instead (one lookup by this table's key), names cost the list 1.16-1.29x
 * its time before them.
 */
export const ROW_NAMES = [
  ['customer_id', 'customer_name'],
  ['source_account', 'source_name'],
  ['destination_account', 'destination_name']
] as const

/** The label of the id in a column, looked up: what a row keeps, computed as it is written or filled. */
export const nameOf = (idColumn: string) => `(SELECT name FROM names WHERE id = ${idColumn})`

/**
 * What a window selects for its names, one column per ROW_NAMES entry: the kept ones, or, while the writer thread has
 * not filled them yet (schema.ts namesPending, seconds after an upgrade), the same looked up row by row. Only the
 * names: each column read costs a window a string per row (ids and names: 2.4x the window's rows read alone, names
 * only 1.4x), and the ids are in the documents, which main parses anyway (namesByIds).
 */
export function rowNameColumns(kept: boolean): string {
  return ROW_NAMES.map(([id, name]) => (kept ? `tx.${name}` : nameOf(`tx.${id}`))).join(', ')
}

/**
 * The labels of a window's rows by id, on main: `names` holds each row's ROW_NAMES names in turn (null: unnamed), as
 * the reader read them, and each row's ids come from its parsed document as the row's columns were written.
 */
export function namesByIds(rows: readonly Transaction[], names: readonly (string | null)[]): Record<string, string> {
  const byId: Record<string, string> = {}
  rows.forEach((row, r) => {
    const ids = partiesOf(row)
    for (let i = 0; i < ids.length; i++) {
      const name = names[r * ids.length + i]
      if (typeof name === 'string' && ids[i]) byId[ids[i]!] = name
    }
  })
  return byId
}

/** Writes every row's names from this table (a cache from before migration 9), then lets its triggers keep them. */
export function fillRowNames(db: SqliteDatabase): void {
  db.exec(`UPDATE tx SET ${ROW_NAMES.map(([id, name]) => `${name} = ${nameOf(id)}`).join(', ')}`)
}

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
