import { describe, expect, it } from 'vitest'
import {
  CustomersQueryInput,
  TransactionFilter,
  TransactionsQueryInput
} from '../../../../src/shared/ipc/channels/data'

describe('the transactions search rule', () => {
  it('refuses one or two characters, trimmed, with a message that says what to do', () => {
    for (const search of ['8', '86', ' 86 ', 'é1', '💶a']) {
      const parsed = TransactionsQueryInput.safeParse({ filter: { search } })
      expect(parsed.success, search).toBe(false)
      expect(parsed.error?.issues[0]).toMatchObject({
        message: 'Search needs at least 3 characters',
        path: ['filter', 'search']
      })
    }
  })

  it('takes three characters or more (counted as characters, not UTF-16 units), and empty as no text filter', () => {
    expect(TransactionFilter.parse({ search: ' 86a ' }).search).toBe('86a')
    expect(TransactionFilter.parse({ search: '💶💶💶' }).search).toBe('💶💶💶')
    expect(TransactionFilter.parse({ search: '   ' }).search).toBe('')
    expect(TransactionFilter.parse({}).search).toBeUndefined()
  })

  it('leaves the customers search as it was: a short list in memory answers any length', () => {
    expect(CustomersQueryInput.parse({ search: 'ja' }).search).toBe('ja')
  })
})
