import { describe, expect, it } from 'vitest'
import { transferSettled } from '../../../../src/main/domain/notifications/wording'
import type { Transaction } from '../../../../src/shared/api'

const sent = {
  id: 'Transaction:1',
  status: 'COMPLETED',
  type: 'OUTGOING',
  sentAmount: { amount: 12_34, currency: { code: 'USD', decimals: 2 } }
} as unknown as Transaction

describe('a payment the operator started settles', () => {
  it('a transfer is reported as a transfer, with the amount in its currency', () => {
    const n = transferSettled(
      { amount: 12_34, destinationAccountId: 'ExternalAccount:9' },
      'Transaction:1',
      'COMPLETED',
      sent
    )
    expect(n.title).toBe('Transfer completed')
    expect(n.body).toBe('12.34 USD reached ExternalAccount:9.')
  })

  it('says where the money went by the account’s label, and by its id where the cache has none', () => {
    const record = { amount: 12_34, destinationAccountId: 'ExternalAccount:9' }
    const names = { 'ExternalAccount:9': 'Priya Raman · US bank …3210' }
    expect(transferSettled(record, 'Transaction:1', 'COMPLETED', sent, names).body).toBe(
      '12.34 USD reached Priya Raman · US bank …3210.'
    )
    expect(
      transferSettled(record, 'Transaction:1', 'FAILED', { ...sent, failureReason: 'BANK_REJECTED' } as never, names)
        .body
    ).toBe('12.34 USD to Priya Raman · US bank …3210 did not go through (BANK_REJECTED).')
  })

  it('a quote’s payment is reported as one, not as a transfer', () => {
    const record = { amount: 12_34, destinationAccountId: 'ExternalAccount:9', kind: 'quote-execute' as const }
    expect(transferSettled(record, 'Transaction:1', 'COMPLETED', sent).title).toBe('Quote payment completed')
    expect(transferSettled(record, 'Transaction:1', 'FAILED', undefined)).toMatchObject({
      title: 'Quote payment failed',
      body: '1234 minor units to ExternalAccount:9 did not go through.'
    })
  })
})
