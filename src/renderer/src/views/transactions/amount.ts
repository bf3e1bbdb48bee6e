import type { CurrencyAmount, Transaction } from '../../../../shared/api'

/** The amount a transaction is about: what arrived for incoming, what left for outgoing. */
export function headlineAmount(t: Transaction): CurrencyAmount | undefined {
  if (t.type === 'INCOMING' && 'receivedAmount' in t) return t.receivedAmount as CurrencyAmount
  if (t.type === 'OUTGOING' && 'sentAmount' in t) return t.sentAmount as CurrencyAmount
  return undefined
}
