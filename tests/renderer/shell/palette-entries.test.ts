import { describe, expect, it, vi } from 'vitest'
import type { InternalAccount, Transaction } from '../../../src/shared/api'
import type { ProfileList } from '../../../src/shared/profile'
import {
  commandGroups,
  entryMatches,
  internalAccountEntries,
  PALETTE_LIMIT,
  queryWords,
  recordHeading,
  transactionEntry
} from '../../../src/renderer/src/shell/palette-entries'

// The entries name customers as every view does (views/customers/names.ts), a module that also holds the bridge: a
// bridge that never answers stands in for the page's, before anything is imported.
vi.hoisted(() => {
  vi.stubGlobal('window', { paydesk: { invoke: () => new Promise(() => {}), on: () => () => {} } })
})

const profiles = {
  activeProfileId: 'p-local',
  profiles: [
    { id: 'p-local', name: 'Local sandbox', environment: 'local' },
    { id: 'p-prod', name: 'Acme live', environment: 'production' }
  ]
} as unknown as ProfileList

const labels = (query: string, environment: 'local' | 'production' = 'local') =>
  commandGroups(query, profiles, environment).map((g) => [g.heading, g.entries.map((e) => e.label)])

describe('commands', () => {
  it('finds actions by their words: "send" is Send money, first', () => {
    expect(labels('send')).toEqual([['Actions', ['Send money']]])
    expect(labels('pay')[0]).toEqual(['Actions', ['Send money']])
    expect(labels('new')).toEqual([['Actions', ['New customer', 'New quote']]])
    expect(labels('?')).toEqual([])
    expect(labels('help')).toEqual([['Actions', ['Keyboard shortcuts']]])
  })

  it('offers every other profile to switch to, never the active one', () => {
    expect(labels('switch profile')).toEqual([['Profiles', ['Switch to Acme live']]])
    expect(labels('production')).toEqual([['Profiles', ['Switch to Acme live']]])
    // Alone on its profile, it leads to where profiles are added.
    const alone = { ...profiles, profiles: profiles.profiles.slice(0, 1) }
    expect(commandGroups('switch profile', alone, 'local')).toEqual([
      {
        heading: 'Profiles',
        entries: [expect.objectContaining({ label: 'Add a profile', run: { kind: 'go', route: 'settings' } })]
      }
    ])
  })

  it('goes to the sections the sidebar offers, with their shortcut; no Sandbox tools on production', () => {
    const [, sections] = labels('').find(([heading]) => heading === 'Go to') ?? []
    expect(sections).toContain('Sandbox tools')
    const production = labels('', 'production').find(([heading]) => heading === 'Go to')?.[1]
    expect(production).not.toContain('Sandbox tools')
    const internal = commandGroups('internal', profiles, 'local')
    expect(internal).toHaveLength(1)
    expect(internal[0]?.entries[0]).toMatchObject({ keys: 'g i', run: { kind: 'go', route: 'internal-accounts' } })
  })

  it('offers nothing for what matches nothing', () => {
    expect(commandGroups('zzqx', profiles, 'local')).toEqual([])
  })

  it('matches every word typed, in any order, ignoring case and spaces around', () => {
    const entry = { value: 'x', label: 'Send money', keywords: ['payout'], run: { kind: 'send-money' as const } }
    expect(queryWords('  Money   SEND ')).toEqual(['money', 'send'])
    expect(entryMatches(entry, queryWords('money send'))).toBe(true)
    expect(entryMatches(entry, queryWords('PAYOUT'))).toBe(true)
    expect(entryMatches(entry, queryWords('send quote'))).toBe(false)
    expect(entryMatches(entry, [])).toBe(true)
  })
})

const usd = { code: 'USD', decimals: 2, symbol: '$' }
const account = (id: string, customerId: string | null, code = 'USD') =>
  ({ id, customerId, balance: { amount: 100, currency: { ...usd, code } } }) as InternalAccount
/** A pending payment to Jane received as `receivedAmount`, with only the members an entry reads. */
const janesIncoming = (receivedAmount: { amount: number; currency: { code: string } }) =>
  ({
    id: 'Transaction:01a2aaaa-0000-7000-8000-0000000052ee',
    type: 'INCOMING',
    status: 'PENDING',
    customerId: 'Customer:0001-jane',
    receivedAmount
  }) as unknown as Transaction

describe('records', () => {
  const names = new Map([['Customer:0001-jane', 'Jane Smith']])

  it('finds internal accounts by owner name, currency or id fragment, named "Owner · currency"', () => {
    const accounts = [
      account('InternalAccount:aaaa-1bf9', null),
      account('InternalAccount:bbbb-aca1', 'Customer:0001-jane'),
      account('InternalAccount:cccc-bdf9', 'Customer:0001-jane', 'BTC')
    ]
    expect(internalAccountEntries(accounts, names, 'jane').entries.map((e) => e.label)).toEqual([
      'Jane Smith · USD',
      'Jane Smith · BTC'
    ])
    expect(internalAccountEntries(accounts, names, 'platform usd').entries.map((e) => e.label)).toEqual([
      'Platform · USD'
    ])
    const byId = internalAccountEntries(accounts, names, 'bdf9').entries
    expect(byId).toHaveLength(1)
    expect(byId[0]?.run).toEqual({ kind: 'go', route: 'internal-accounts', focusId: 'InternalAccount:cccc-bdf9' })
  })

  it('lists a few internal accounts and counts them all', () => {
    const many = Array.from({ length: 8 }, (_, i) => account(`InternalAccount:${i}`, null))
    const found = internalAccountEntries(many, names, 'usd')
    expect(found.entries).toHaveLength(PALETTE_LIMIT)
    expect(found.total).toBe(8)
    expect(recordHeading('Internal accounts', found.entries.length, found.total)).toBe('Internal accounts · 5 of 8')
    expect(recordHeading('Customers', 2, 2)).toBe('Customers')
  })

  it('names a transaction by direction, amount (formatted here, at the edge) and customer, with status and id', () => {
    const t = janesIncoming({ amount: 42_000, currency: usd })
    expect(transactionEntry(t, names)).toEqual({
      value: `record:${t.id}`,
      label: 'Incoming · $420.00 USD · Jane Smith',
      detail: 'PENDING · Transaction:01a2…52ee',
      run: { kind: 'go', route: 'transactions', focusId: t.id }
    })
    // No decimals known: the exact minor units, never a guessed format.
    const odd = janesIncoming({ amount: 7, currency: { code: 'XYZ' } })
    expect(transactionEntry(odd, new Map()).label).toBe('Incoming · 7 minor units XYZ · Customer:0001-jane')
  })
})
