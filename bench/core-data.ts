/**
 * The bench's synthetic data: a deterministic history of transactions over 2,000 customers, and those customers' names,
 * shared by the core, names and export benches so each reads the same rows.
 */
import { CacheStore } from '../src/main/infra/cache/store'
import type { Transaction } from '../src/shared/api'

const STATUSES = ['CREATED', 'PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'REJECTED', 'EXPIRED', 'REFUNDED']
const CURRENCIES = ['USD', 'EUR', 'MXN', 'GBP']

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32
}

/** A deterministic history, made a batch at a time so a million rows never sit in memory together. */
export function* transactionBatches(n: number, batch: number, first = 0): Generator<Transaction[]> {
  const r = rng(42 + first)
  const start = Date.parse('2025-01-01T00:00:00Z')
  for (let from = first; from < n; from += batch) {
    const out: Transaction[] = []
    for (let i = from; i < Math.min(n, from + batch); i++) {
      const created = new Date(start + i * 30_000).toISOString()
      const currency = CURRENCIES[Math.floor(r() * CURRENCIES.length)]!
      const amount = {
        amount: 1 + Math.floor(r() * 10_000_000),
        currency: { code: currency, name: currency, symbol: '$', decimals: 2 }
      }
      const common = {
        id: `Transaction:bench-${String(i).padStart(7, '0')}`,
        status: STATUSES[Math.floor(r() * STATUSES.length)]!,
        customerId: `Customer:${Math.floor(r() * 2_000)}`,
        platformCustomerId: `pc-${i % 2_000}`,
        destination: { destinationType: 'ACCOUNT', accountId: `ExternalAccount:${i % 500}`, currency },
        createdAt: created,
        updatedAt: created,
        settledAt: created,
        description: `Payment ${i}`,
        rateDetails: {
          gridApiMultiplier: 1,
          gridApiFixedFee: 10,
          gridApiVariableFeeRate: 0.001,
          gridApiVariableFeeAmount: 12
        }
      }
      out.push(
        (r() < 0.5
          ? {
              ...common,
              type: 'INCOMING',
              receivedAmount: amount,
              reconciliationInstructions: { reference: `REF-${i}` }
            }
          : {
              ...common,
              type: 'OUTGOING',
              source: { sourceType: 'ACCOUNT', accountId: `InternalAccount:${i % 8}`, currency },
              sentAmount: amount,
              fees: 10
            }) as Transaction
      )
    }
    yield out
  }
}

/** First names of the bench's 2,000 customers (the transactions name Customer:0..1999): one in twenty is a Jane. */
const FIRST_NAMES = ['Jane', 'Priya', 'Omar', 'Li', 'Ana', 'Tomás', 'Chidi', 'Sofia', 'Ken', 'Maria']
const LAST_NAMES = ['Smith', 'Raman', 'Haddad', 'Wei', 'Silva', 'Novak', 'Okafor', 'Rossi', 'Sato', 'García']

/** Names the history's customers (schema 7), as a synced cache has them: the list reads them with its rows. */
export async function nameCustomers(file: string, key: Buffer): Promise<void> {
  const { store } = await CacheStore.open(file, key)
  if (store.count('customers') === 0) {
    const customers = Array.from({ length: 2_000 }, (_, i) => ({
      id: `Customer:${i}`,
      platformCustomerId: `pc-${i}`,
      customerType: 'INDIVIDUAL',
      umaAddress: `$c${i}@bench.example`,
      fullName: `${FIRST_NAMES[(i * 7) % 20 < 1 ? 0 : 1 + (i % 9)]} ${LAST_NAMES[Math.floor(i / 10) % 10]} ${i}`
    }))
    await store.put('customers', customers)
  }
  await store.close()
}
