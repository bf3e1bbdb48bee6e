import type { Customer, ExternalAccount, InternalAccount, Transaction } from '../../../shared/api'
import { customerName, externalAccountLabel, internalAccountLabel } from '../../../shared/labels'
import { statementOf, type SqliteDatabase } from './sqlite'

/**
 * The names table (schema.ts migration 7): the label of every cached customer and account by id, written with the
 * documents by the shared labelling functions (src/shared/labels.ts). The detail reads names by id from it, and a text
 * search reads the customers whose names hold the needle from it, then their transactions by the customer index: a
 * transaction's text index never holds a name, so a search follows a rename at once. The lists name their rows'
 * ids from it too, on main (LabelMemory).
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

/** Labels main keeps at most before it forgets them all and reads again the ones it is asked for. */
const REMEMBERED_LABELS = 50_000

/**
 * The labels of the customers and accounts that windows' rows name, as main read them from the names table, by id
 * (null: the cache has none for it). A window's rows come from the reader thread as documents only, and main, which
 * parses them anyway, names their ids from here: a string per name per row read with the rows cost the list 1.14-1.27x
 * its time before names (kept in the rows, schema 9), while here a window's names cost a Map lookup per id once their
 * labels are known (docs/transactions-export.md has the figures). Any write of customers or accounts that changed one
 * forgets them all (store.ts put): a rename also relabels the accounts its customer holds, and such writes are rare
 * beside the list's reads.
 */
export class LabelMemory {
  /**
   * By id, the id as first read and its label (null: none). A window's ids are new strings each time (parsed from its
   * documents); its names are keyed by the kept ones, so no new string is made an object's key for every window.
   */
  private readonly labels = new Map<string, readonly [string, string] | null>()

  constructor(private readonly db: SqliteDatabase) {}

  forget(): void {
    this.labels.clear()
  }

  /** The labels of these ids that the cache knows, by id. */
  of(ids: readonly (string | null | undefined)[]): Record<string, string> {
    const byId = noPrototype()
    const unknown: string[] = []
    for (const id of ids) {
      if (!id) continue
      const label = this.labels.get(id)
      if (label) byId[label[0]] = label[1]
      else if (label === undefined) unknown.push(id)
    }
    return this.read(byId, unknown)
  }

  /**
   * The labels of the customers and accounts that transactions name (their customer, the account the money left and
   * the one it reached: shared/labels.ts transactionParties), by id. This runs on main for every window and costs
   * about what the window's own statement does, so it is one loop over the rows: through a list of their ids, or a
   * helper per id, it cost twice as much.
   */
  ofTransactions(rows: readonly Transaction[]): Record<string, string> {
    const byId = noPrototype()
    const unknown: string[] = []
    for (const row of rows as readonly Parties[]) {
      const ids = [row.customerId, row.source?.accountId, row.destination?.accountId]
      for (let i = 0; i < 3; i++) {
        const id = ids[i]
        if (typeof id !== 'string' || id === '') continue
        const label = this.labels.get(id)
        if (label) byId[label[0]] = label[1]
        else if (label === undefined) unknown.push(id)
      }
    }
    return this.read(byId, unknown)
  }

  /** Completes `byId` with the labels of `unknown`, read in one statement (remembered as none where there is none). */
  private read(byId: Record<string, string>, unknown: string[]): Record<string, string> {
    if (unknown.length === 0) return byId
    if (this.labels.size + unknown.length > REMEMBERED_LABELS) this.labels.clear()
    for (const id of unknown) this.labels.set(id, null)
    const read = statementOf(this.db, 'SELECT id, name FROM names WHERE id IN (SELECT value FROM json_each(?))')
      .raw()
      .all(JSON.stringify(unknown)) as [string, string][]
    for (const [id, name] of read) {
      this.labels.set(id, [id, name])
      byId[id] = name
    }
    return byId
  }
}

type Parties = { customerId?: unknown; source?: { accountId?: unknown }; destination?: { accountId?: unknown } }

/**
 * An object for a window's names with no prototype: an id is never taken for an inherited key, and it takes a window's
 * 300 or so keys faster than a plain object.
 */
const noPrototype = () => Object.create(null) as Record<string, string>

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
