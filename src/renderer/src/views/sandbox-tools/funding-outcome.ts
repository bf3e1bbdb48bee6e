/**
 * A funding request whose answer never came (a timeout, a dropped connection, a service error: main marks the error
 * `maybeApplied`): it may have been applied. The account's balance, as sync keeps reading it, tells when it is known: up by exactly the amount, it went
 * through; moved otherwise, something else changed it too and the operator must look; unchanged, not known yet.
 */

export interface UnansweredFunding {
  accountId: string
  /** The balance when it was asked for, in minor units. */
  before: number
  amount: number
}

export type FundingOutcome =
  | { kind: 'unknown' }
  | { kind: 'applied'; after: number }
  | { kind: 'changed'; after: number }

export function fundingOutcome(asked: UnansweredFunding, balanceNow: number | undefined): FundingOutcome {
  if (balanceNow === undefined || balanceNow === asked.before) return { kind: 'unknown' }
  if (balanceNow === asked.before + asked.amount) return { kind: 'applied', after: balanceNow }
  return { kind: 'changed', after: balanceNow }
}
