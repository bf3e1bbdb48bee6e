import type { Customer, CurrencyAmount, ExternalAccount, InternalAccount, Transaction } from '../../../shared/api'
import { formatMoney } from '../../../shared/format/money'
import { shortenId } from '../../../shared/format/ids'
import type { ProfileEnvironment, ProfileList } from '../../../shared/profile'
import { ROUTES, type RouteId } from '../stores/ui'
import { customerName } from '../views/customers/names'
import { describeAccount } from '../views/external-accounts/describe'
import { headlineAmount } from '../views/transactions/amount'

/**
 * What the command palette offers, as plain data: its actions, sections and profiles, and the customers, accounts and
 * transactions a search found. Which entries match what was typed is decided here too, so the palette component only
 * draws them and runs the one picked.
 */

/** What picking an entry does. Each action opens the flow the app already has for it. */
export type PaletteRun =
  | { kind: 'go'; route: RouteId; focusId?: string }
  | { kind: 'new-customer' }
  | { kind: 'send-money' }
  | { kind: 'new-quote' }
  | { kind: 'shortcuts' }
  | { kind: 'switch-profile'; profileId: string }

export interface PaletteEntry {
  /** Unique in the palette (cmdk's value): the kind of entry and its id. */
  value: string
  label: string
  /** What tells it apart: a shortened id, a status, an environment. */
  detail?: string
  /** The shortcut that does the same, shown beside it. */
  keys?: string
  /** Words it is also found by, besides its label and detail. */
  keywords?: readonly string[]
  run: PaletteRun
}

export interface PaletteGroup {
  heading: string
  entries: PaletteEntry[]
}

/** How many of each kind of record the palette lists: it finds, the section's own list browses. */
export const PALETTE_LIMIT = 5
/** Records are searched from two characters: one matches nearly everything. */
export const MIN_RECORD_SEARCH_CHARS = 2

const ACTIONS: readonly PaletteEntry[] = [
  {
    value: 'action:send-money',
    label: 'Send money',
    keywords: ['pay', 'payout', 'transfer', 'withdraw'],
    run: { kind: 'send-money' }
  },
  {
    value: 'action:new-customer',
    label: 'New customer',
    keywords: ['add', 'create', 'register', 'onboard'],
    run: { kind: 'new-customer' }
  },
  {
    value: 'action:new-quote',
    label: 'New quote',
    keywords: ['fx', 'exchange', 'rate', 'convert', 'uma'],
    run: { kind: 'new-quote' }
  },
  {
    value: 'action:shortcuts',
    label: 'Keyboard shortcuts',
    keys: '?',
    keywords: ['help', 'keys', 'hotkeys'],
    run: { kind: 'shortcuts' }
  }
]

const ENVIRONMENT_NAMES: Record<ProfileEnvironment, string> = {
  local: 'Local sandbox',
  sandbox: 'Sandbox',
  production: 'Production'
}

/** Lowercased words of the query: an entry matches when its text holds every one of them. */
export function queryWords(query: string): string[] {
  return query.trim().toLowerCase().split(/\s+/).filter(Boolean)
}

export function entryMatches(entry: PaletteEntry, words: readonly string[]): boolean {
  if (words.length === 0) return true
  const text = [entry.label, entry.detail ?? '', ...(entry.keywords ?? [])].join(' ').toLowerCase()
  return words.every((w) => text.includes(w))
}

/** Actions, sections (as the sidebar offers them) and the other profiles, narrowed to what was typed. */
export function commandGroups(
  query: string,
  profiles: ProfileList | null,
  environment: ProfileEnvironment
): PaletteGroup[] {
  const words = queryWords(query)
  const sections: PaletteEntry[] = ROUTES.filter((r) => !('sandboxOnly' in r) || environment !== 'production').map(
    (r) => ({
      value: `go:${r.id}`,
      label: r.label,
      keys: `g ${r.key}`,
      keywords: ['go to', 'open'],
      run: { kind: 'go', route: r.id }
    })
  )
  const others: PaletteEntry[] = (profiles?.profiles ?? [])
    .filter((p) => p.id !== profiles?.activeProfileId)
    .map((p) => ({
      value: `profile:${p.id}`,
      label: `Switch to ${p.name}`,
      detail: ENVIRONMENT_NAMES[p.environment],
      keywords: ['switch profile', 'change profile', 'environment'],
      run: { kind: 'switch-profile', profileId: p.id }
    }))
  // With no other profile to switch to, "switch profile" still leads somewhere: to where profiles are added.
  if (others.length === 0) {
    others.push({
      value: 'go:add-profile',
      label: 'Add a profile',
      detail: 'Settings',
      keywords: ['switch profile', 'new profile', 'environment'],
      run: { kind: 'go', route: 'settings' }
    })
  }
  return [
    { heading: 'Actions', entries: ACTIONS.filter((e) => entryMatches(e, words)) },
    { heading: 'Go to', entries: sections.filter((e) => entryMatches(e, words)) },
    { heading: 'Profiles', entries: others.filter((e) => entryMatches(e, words)) }
  ].filter((g) => g.entries.length > 0)
}

function amountText(amount: CurrencyAmount | undefined): string | undefined {
  if (!amount) return undefined
  const { code, decimals, symbol } = amount.currency
  // Without the currency's decimals any formatting would be a guess (as the Money atom says): exact minor units.
  if (decimals === undefined) return `${amount.amount} minor units ${code}`
  return formatMoney(amount.amount, { code, decimals, ...(symbol ? { symbol } : {}) }, { showCode: true })
}

export function customerEntry(c: Customer): PaletteEntry {
  return {
    value: `record:${c.id}`,
    label: customerName(c),
    detail: shortenId(c.id),
    run: { kind: 'go', route: 'customers', focusId: c.id }
  }
}

export function externalAccountEntry(a: ExternalAccount): PaletteEntry {
  return {
    value: `record:${a.id}`,
    label: `${describeAccount(a)} · ${a.currency}`,
    detail: shortenId(a.id),
    run: { kind: 'go', route: 'external-accounts', focusId: a.id }
  }
}

/** "Platform · USD" or "Priya Raman · USD": whose money, in what. */
export function internalAccountLabel(a: InternalAccount, customerNames: ReadonlyMap<string, string>): string {
  const owner = a.customerId ? (customerNames.get(a.customerId) ?? shortenId(a.customerId)) : 'Platform'
  return `${owner} · ${a.balance.currency.code}`
}

/**
 * The internal accounts whose label or id holds every word typed. They are few (one per currency per owner) and
 * already in the renderer's cache, so they are narrowed here rather than asked for.
 */
export function internalAccountEntries(
  accounts: readonly InternalAccount[],
  customerNames: ReadonlyMap<string, string>,
  query: string
): { entries: PaletteEntry[]; total: number } {
  const words = queryWords(query)
  const found = accounts
    .map((a) => ({
      value: `record:${a.id}`,
      label: internalAccountLabel(a, customerNames),
      detail: shortenId(a.id),
      keywords: [a.id],
      run: { kind: 'go', route: 'internal-accounts', focusId: a.id } as const
    }))
    .filter((e) => entryMatches(e, words))
  return { entries: found.slice(0, PALETTE_LIMIT), total: found.length }
}

export function transactionEntry(t: Transaction, customerNames: ReadonlyMap<string, string>): PaletteEntry {
  const direction = t.type === 'INCOMING' ? 'Incoming' : t.type === 'OUTGOING' ? 'Outgoing' : String(t.type)
  const customerId = 'customerId' in t && typeof t.customerId === 'string' ? t.customerId : undefined
  const who = customerId ? (customerNames.get(customerId) ?? shortenId(customerId)) : undefined
  return {
    value: `record:${t.id}`,
    label: [direction, amountText(headlineAmount(t)), who].filter(Boolean).join(' · '),
    detail: `${t.status ?? 'UNKNOWN'} · ${shortenId(t.id)}`,
    run: { kind: 'go', route: 'transactions', focusId: t.id }
  }
}

/** "Customers" or, when the search found more than the palette lists, "Customers · 5 of 12". */
export function recordHeading(noun: string, shown: number, total: number): string {
  return total > shown ? `${noun} · ${shown} of ${total}` : noun
}
