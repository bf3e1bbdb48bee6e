import type { QueryClient } from '@tanstack/react-query'
import type { Customer, ExternalAccount, InternalAccount } from '../../../shared/api'
import { customerName, externalAccountLabel, internalAccountLabel, type Names } from '../../../shared/labels'

/**
 * A notice's words as an operator reads them: every platform id in them (`Customer:…`, `ExternalAccount:…`) becomes
 * the label Paydesk shows everywhere else ("Jane Smith · US bank …9012"), else what it is ("an external account"),
 * and the ids it stood for are kept so the toast can offer them one copy-click away. Main words its notifications with
 * the cache's names already; an id reaches a toast only where main knew no name (an account not synced yet), or from
 * a message that carries one, and the page may know the name from a list it has shown since.
 */

/** The platform's typed ids (spec: `<Type>:<id>`); a sentence's full stop after one is not part of it. */
const TYPED_ID = /\b(Customer|InternalAccount|ExternalAccount|Transaction):[A-Za-z0-9][A-Za-z0-9_-]*/g

/** What an id is, for one the page has no name for. */
const WHAT: Record<string, string> = {
  Customer: 'a customer',
  InternalAccount: 'an internal account',
  ExternalAccount: 'an external account',
  Transaction: 'a transaction'
}

export interface NamedText {
  text: string
  /** The ids the words named, first seen first, each once. */
  ids: string[]
}

/** `text` with each typed id replaced by its label (`names`), else by what it is. */
export function nameIds(text: string, names: Names): NamedText {
  const ids: string[] = []
  const named = text.replace(TYPED_ID, (id: string, type: string, at: number) => {
    if (!ids.includes(id)) ids.push(id)
    const name = names[id]
    if (name !== undefined) return name
    // "An external account was removed": a sentence (or a grouped notice's line) that starts with one starts with a
    // capital. A name is shown as it is written.
    const words = WHAT[type]!
    return /(^|[.!?]\s+|\n\s*)$/.test(text.slice(0, at)) ? words[0]!.toUpperCase() + words.slice(1) : words
  })
  return { text: named, ids }
}

/** A toast's title and body named (nameIds), and every id they named. */
export function nameNotice(notice: { title: string; body: string }, names: Names) {
  const title = nameIds(notice.title, names)
  const body = nameIds(notice.body, names)
  return { title: title.text, body: body.text, ids: [...new Set([...title.ids, ...body.ids])] }
}

type Answer = { profileId?: unknown; names?: unknown; rows?: unknown }

/**
 * The names the page already holds, from the answers in its query cache: those the transactions windows and details
 * came with (the cache's names table), and the customers and accounts lists' rows labelled by the same functions.
 * Only answers about `profileId` when one is given (a notice about a background profile).
 */
export function knownNames(client: QueryClient, profileId?: string): Names {
  const names: Record<string, string> = {}
  const lists: { channel: string; rows: unknown[] }[] = []
  for (const query of client.getQueryCache().getAll()) {
    const data = query.state.data as Answer | undefined
    if (!data || typeof data !== 'object') continue
    if (profileId !== undefined && data.profileId !== undefined && data.profileId !== profileId) continue
    if (data.names && typeof data.names === 'object')
      for (const [id, name] of Object.entries(data.names)) if (typeof name === 'string') names[id] = name
    if (Array.isArray(data.rows)) lists.push({ channel: String(query.queryKey[0]), rows: data.rows })
  }
  // Customers first: an account is labelled with its holder's name.
  const of = (channel: string) => lists.filter((l) => l.channel === channel).flatMap((l) => l.rows)
  for (const c of of('customers.query')) label(names, c, (doc) => customerName(doc as Customer))
  for (const a of of('internalAccounts.list'))
    label(names, a, (doc) => internalAccountLabel(doc as InternalAccount, ownerName(names, doc)))
  for (const a of of('externalAccounts.query'))
    label(names, a, (doc) => externalAccountLabel(doc as ExternalAccount, ownerName(names, doc)))
  return names
}

function ownerName(names: Names, doc: object): string | undefined {
  const owner = (doc as { customerId?: unknown }).customerId
  return typeof owner === 'string' ? names[owner] : undefined
}

/** Adds a row's label unless one is known already (the cache's, as main words it) or the row is too loose to label. */
function label(names: Record<string, string>, row: unknown, labelOf: (doc: object) => string): void {
  const id = (row as { id?: unknown } | null)?.id
  if (typeof id !== 'string' || id in names) return
  try {
    const name = labelOf(row as object)
    if (name) names[id] = name
  } catch {
    // A row without the fields a label reads (the schemas are loose): shown as what it is, never a failed toast.
  }
}
