import { describe, expect, it } from 'vitest'
import {
  chipsOf,
  nextSort,
  searchToApply,
  sortOf,
  WORKBENCH_DEFAULTS,
  workbenchQuery
} from '../../../../src/renderer/src/views/transactions/workbench-filters'

const NOW = new Date(2026, 10, 24, 15, 30) // 24 Nov 2026 15:30 in the zone the test runs in
const f = (patch: Partial<typeof WORKBENCH_DEFAULTS>) => ({ ...WORKBENCH_DEFAULTS, ...patch })

describe('workbench filters', () => {
  it('turns what the operator typed into the shared filter and sort', () => {
    const { filter, sort, errors } = workbenchQuery(
      f({
        status: 'COMPLETED,FAILED',
        type: 'OUTGOING',
        customerId: 'Customer:1',
        platformCustomerId: ' pc-1 ',
        senderAccountId: 'InternalAccount:1',
        receiverAccountId: 'ExternalAccount:2',
        reference: 'REF-9',
        currency: 'usd',
        amountMin: '10',
        amountMax: '1,250.5',
        sort: 'amount:asc'
      }),
      NOW
    )
    expect(errors).toEqual({})
    expect(filter).toEqual({
      status: ['COMPLETED', 'FAILED'],
      type: 'OUTGOING',
      customerId: 'Customer:1',
      platformCustomerId: 'pc-1',
      senderAccountId: 'InternalAccount:1',
      receiverAccountId: 'ExternalAccount:2',
      reference: 'REF-9',
      currency: 'USD',
      amountMin: 1000,
      amountMax: 125050
    })
    expect(sort).toEqual({ field: 'amount', direction: 'asc' })
  })

  it('date presets count back from now; a custom range covers whole local days', () => {
    expect(workbenchQuery(f({ datePreset: 'today' }), NOW).filter.createdFrom).toBe(
      new Date(2026, 10, 24).toISOString()
    )
    expect(workbenchQuery(f({ datePreset: '7d' }), NOW).filter.createdFrom).toBe(
      new Date(NOW.getTime() - 7 * 86_400_000).toISOString()
    )
    expect(workbenchQuery(f({ datePreset: '30d' }), NOW).filter.createdFrom).toBe(
      new Date(NOW.getTime() - 30 * 86_400_000).toISOString()
    )
    const custom = workbenchQuery(f({ datePreset: 'custom', dateFrom: '2026-11-01', dateTo: '2026-11-02' }), NOW)
    expect(custom.filter).toEqual({
      createdFrom: new Date(2026, 10, 1).toISOString(),
      createdTo: new Date(new Date(2026, 10, 3).getTime() - 1).toISOString()
    })
    expect(
      workbenchQuery(f({ datePreset: 'custom', dateFrom: '2026-11-05', dateTo: '2026-11-02' }), NOW).errors
    ).toEqual({ dateTo: 'The range ends before it starts' })
  })

  it('an amount needs a currency and its decimals; a bad bound is said at its field and left out', () => {
    expect(workbenchQuery(f({ amountMin: '5' }), NOW)).toMatchObject({
      filter: {},
      errors: { amountMin: expect.stringMatching(/Choose a currency/) }
    })
    expect(workbenchQuery(f({ currency: 'JPY', amountMin: '5.5' }), NOW).errors.amountMin).toBe(
      'This currency has no decimal places'
    )
    expect(workbenchQuery(f({ currency: 'USD', amountMin: '9', amountMax: '3' }), NOW)).toMatchObject({
      filter: { currency: 'USD', amountMin: 900 },
      errors: { amountMax: 'The largest amount is below the smallest' }
    })
  })

  it('shows one removable chip per active filter, each clearing what it stands for', () => {
    const chips = chipsOf(
      f({ status: 'PENDING', currency: 'EUR', amountMin: '5', datePreset: 'custom', dateFrom: '2026-11-01' })
    )
    expect(chips.map((c) => c.label)).toEqual([
      'Status: PENDING',
      'Currency: EUR',
      'Amount: ≥ 5 EUR',
      expect.stringMatching(/^Created: 2026-11-01 to … \(.+\)$/)
    ])
    expect(chips[1]!.keys).toEqual(['currency', 'amountMin', 'amountMax'])
    expect(chips[3]!.keys).toEqual(['datePreset', 'dateFrom', 'dateTo'])
    expect(chipsOf(WORKBENCH_DEFAULTS)).toEqual([])
  })
})

describe('the transactions search in the workbench', () => {
  it('sends no text condition for one or two characters, typed or restored, and sends three', () => {
    expect(workbenchQuery(f({ search: '86' }), NOW).filter).toEqual({})
    expect(workbenchQuery(f({ search: ' 8 ', status: 'FAILED' }), NOW).filter).toEqual({ status: ['FAILED'] })
    expect(workbenchQuery(f({ search: ' 86a ' }), NOW).filter).toEqual({ search: '86a' })
  })

  it('keeps the search the list shows while fewer than three characters are typed, and clears with the box', () => {
    let applied = ''
    const typing = ['8', '86', '86a', '86a0', '86a', '86', '8', '', 'x', 'xy']
    const shown = typing.map((typed) => (applied = searchToApply(typed, applied)))
    expect(shown).toEqual(['', '', '86a', '86a0', '86a', '86a', '86a', '', '', ''])
  })

  it('sorts by amount only within one currency, and a header click flips or starts a sort', () => {
    expect(sortOf(f({ sort: 'amount:desc', currency: 'USD' }))).toEqual({ field: 'amount', direction: 'desc' })
    expect(sortOf(f({ sort: 'amount:desc' }))).toEqual({ field: 'createdAt', direction: 'desc' })
    expect(nextSort({ field: 'createdAt', direction: 'desc' }, 'createdAt')).toBe('createdAt:asc')
    expect(nextSort({ field: 'createdAt', direction: 'asc' }, 'amount')).toBe('amount:desc')
  })

  it('a search that reads as an amount asks for that amount, not for text', () => {
    expect(workbenchQuery(f({ search: '1,250.00' }), NOW).filter).toEqual({ amountIs: { units: 1250, scale: 0 } })
    expect(workbenchQuery(f({ search: '1250' }), NOW).filter).toEqual({ amountIs: { units: 1250, scale: 0 } })
    expect(workbenchQuery(f({ search: 'ee4c' }), NOW).filter).toEqual({ search: 'ee4c' })
    expect(workbenchQuery(f({ search: '12' }), NOW).filter).toEqual({})
  })
})
