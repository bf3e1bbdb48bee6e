import { amountOf, convertMinor } from './currencies'
import type { CustomerRec, ExternalAccountRec, InternalAccountRec, TransactionRec } from './model'
import type { Logger } from './persistence'
import type { Store } from './sandbox-store'

const DAY_MS = 24 * 60 * 60 * 1000
const HISTORY_MS = 365 * DAY_MS
/** A history is in the past: only final statuses, so nothing waits for approval or a timed transition. */
const INCOMING_STATUSES = ['COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED', 'FAILED', 'REJECTED', 'REFUNDED']
const OUTGOING_STATUSES = ['COMPLETED', 'COMPLETED', 'COMPLETED', 'FAILED', 'EXPIRED']
const SENDERS = [
  '$success.usd@sandbox.uma.money',
  '$alice@remit.example',
  '$bob@wallet.example',
  '$carla@pay.example',
  '$dmitri@bank.example'
]
const DESCRIPTIONS = ['Invoice', 'Payroll', 'Refund of order', 'Rent', 'Supplier payment', 'Top-up', 'Remittance']
const OUTGOING_FEE = 10
export const MAX_GENERATED_TRANSACTIONS = 5_000_000

/**
 * `PAYDESK_LOCAL_GENERATE_TRANSACTIONS`-style value: a whole number of transactions, or undefined when unset/empty.
 * Anything else throws, naming the variable, so a typo is not silently a history of 0.
 */
export function parseGenerateCount(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined
  const n = Number(raw.replace(/_/g, ''))
  if (!Number.isInteger(n) || n < 1 || n > MAX_GENERATED_TRANSACTIONS)
    throw new Error(`${name} must be a whole number from 1 to ${MAX_GENERATED_TRANSACTIONS} (got "${raw}")`)
  return n
}

/** mulberry32: a tiny seeded PRNG; the same seed gives the same sequence on every machine. */
function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface Party {
  customer: CustomerRec
  internals: InternalAccountRec[]
  externals: ExternalAccountRec[]
}

function partiesOf(store: Store): Party[] {
  const parties: Party[] = []
  for (const customer of store.customerIndex.items) {
    const internals = [...store.internalAccounts.values()].filter((a) => a.data.customerId === customer.id)
    if (internals.length === 0) continue
    const externals = store.externalByCustomer.get(customer.id)?.items.slice() ?? []
    parties.push({ customer, internals, externals })
  }
  return parties
}

/**
 * Adds `count` synthetic transactions over the 12 months before `now`: incoming and outgoing, final statuses,
 * spread across the seeded customers and their accounts and currencies, integer amounts. Deterministic: the same
 * count and `now` give the same transactions (ids included). Returns how many were added; 0 when the store has no
 * customer with an internal account to attach them to.
 */
function generateHistory(store: Store, count: number, now: number): number {
  const parties = partiesOf(store)
  if (parties.length === 0 || count <= 0) return 0
  const random = prng(0x9e3779b9 ^ count)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T
  const start = now - HISTORY_MS
  const recs: TransactionRec[] = []
  for (let i = 0; i < count; i++) {
    const t = start + Math.floor(((i + random()) * HISTORY_MS) / count)
    const id = deterministicId(store.ids.next('Transaction', t), random)
    const { customer, internals, externals } = pick(parties)
    const account = pick(internals)
    const currency = account.data.balance.currency.code
    // Log-spread amounts: mostly small, some large (1.00 to about 50,000.00 in two-decimal terms).
    const amount = Math.max(1, Math.floor(100 * Math.exp(random() * 10.8)))
    const createdAt = new Date(t).toISOString()
    const settledAt = new Date(t + Math.floor(random() * 3_600_000)).toISOString()
    const reference = `GEN-${(i + 1).toString(36).toUpperCase()}`
    const description = `${pick(DESCRIPTIONS)} ${1000 + Math.floor(random() * 9000)}`
    /** What both directions carry: who, when (a COMPLETED one settled within the hour), and the description. */
    const common = (status: string) => ({
      id,
      status,
      customerId: customer.id,
      platformCustomerId: customer.data.platformCustomerId,
      createdAt,
      updatedAt: status === 'COMPLETED' ? settledAt : createdAt,
      ...(status === 'COMPLETED' && { settledAt }),
      description
    })
    const outgoing = externals.length > 0 && random() < 0.4
    if (outgoing) {
      const ext = pick(externals)
      const status = pick(OUTGOING_STATUSES)
      const receiving = ext.data.currency
      const sent = amount + OUTGOING_FEE
      recs.push({
        t,
        id,
        data: {
          ...common(status),
          type: 'OUTGOING',
          source: { sourceType: 'ACCOUNT', accountId: account.id, currency },
          destination: { destinationType: 'ACCOUNT', accountId: ext.id, currency: receiving },
          sentAmount: amountOf(sent, currency),
          receivedAmount: amountOf(Math.max(1, convertMinor(amount, currency, receiving)), receiving),
          fees: OUTGOING_FEE,
          ...(status === 'FAILED' && { failureReason: 'COUNTERPARTY_POST_TX_FAILED' })
        },
        meta: { kind: 'SEED', sender: account.id, receiver: ext.id, reference }
      })
    } else {
      const status = pick(INCOMING_STATUSES)
      const sender = pick(SENDERS)
      recs.push({
        t,
        id,
        data: {
          ...common(status),
          type: 'INCOMING',
          source: { sourceType: 'UMA_ADDRESS', umaAddress: sender, currency },
          destination: { destinationType: 'ACCOUNT', accountId: account.id, currency },
          receivedAmount: amountOf(amount, currency),
          reconciliationInstructions: { reference },
          ...(status === 'FAILED' && { failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' })
        },
        meta: { kind: 'SEED', sender, receiver: account.id, reference }
      })
    }
  }
  store.loadTransactions(recs)
  for (const r of recs) store.markTxDirty(r.id)
  store.generatedTransactions = count
  return count
}

/** Ids end in a little randomness (ids.ts); a generated history draws it from its PRNG instead, to be reproducible. */
function deterministicId(id: string, random: () => number): string {
  const tail = Math.floor(random() * 4096)
    .toString(16)
    .padStart(3, '0')
  return id.slice(0, -3) + tail
}

/** Adds the synthetic history unless this data already has one; true when it added transactions. */
export function generateOnce(store: Store, count: number, now: number, log: Logger): boolean {
  if (store.generatedTransactions !== undefined) {
    if (store.generatedTransactions !== count)
      log(
        `Local sandbox: this data already holds a generated history of ${store.generatedTransactions} transactions; ` +
          `not adding ${count} more (start with a fresh data file to generate another size)`
      )
    return false
  }
  const started = performance.now()
  const added = generateHistory(store, count, now)
  if (added === 0) log('Local sandbox: no customer with an internal account to generate a history for')
  else log(`Local sandbox: generated ${added} history transactions in ${Math.round(performance.now() - started)} ms`)
  return added > 0
}
