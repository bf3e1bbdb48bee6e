import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { failedApprovals } from '../../../src/main/handlers/gate'
import { CacheStore } from '../../../src/main/infra/cache/store'
import type { Transaction } from '../../../src/shared/api'
import { tempDir } from '../helpers'

let dir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir, cleanup } = await tempDir('failed-approvals')))
afterEach(() => cleanup())

const usd = { code: 'USD', decimals: 2 }
function incoming(n: number, status: string, failureReason?: string): Transaction {
  return {
    id: `Transaction:${n}`,
    type: 'INCOMING',
    status,
    customerId: 'Customer:1',
    platformCustomerId: 'p-1',
    createdAt: new Date(Date.parse('2026-11-27T10:00:00Z') + n * 60_000).toISOString(),
    receivedAmount: { amount: 100 + n, currency: usd },
    destination: { accountId: 'InternalAccount:1', currency: 'USD' },
    ...(failureReason !== undefined && { failureReason })
  } as unknown as Transaction
}

describe('payments that failed for an approval reason', () => {
  it('lists the incoming payments failed with PAYMENT_APPROVAL_*, newest first, and never a PENDING one', async () => {
    const { store } = await CacheStore.open(path.join(dir, 'cache.db'), randomBytes(32))
    try {
      await store.put('transactions', [
        incoming(1, 'FAILED', 'PAYMENT_APPROVAL_TIMED_OUT'),
        incoming(2, 'PENDING'),
        incoming(3, 'FAILED', 'QUOTE_EXPIRED'),
        incoming(4, 'FAILED', 'PAYMENT_APPROVAL_WEBHOOK_ERROR'),
        incoming(5, 'COMPLETED'),
        { ...incoming(6, 'FAILED', 'PAYMENT_APPROVAL_TIMED_OUT'), type: 'OUTGOING' } as Transaction
      ])
      const found = await failedApprovals({ cache: store })
      expect(found.map((t) => t.id)).toEqual(['Transaction:4', 'Transaction:1'])
    } finally {
      await store.close()
    }
  })
})
