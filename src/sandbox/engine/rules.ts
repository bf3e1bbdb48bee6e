/**
 * Magic values of the real service's sandbox (reference README, "Sandbox behaviour of the real service").
 */

type KycStatus = 'UNVERIFIED' | 'PENDING' | 'APPROVED' | 'REJECTED'

/** KYC by the last 3 characters of fullName: 001 PENDING, 002 REJECTED, 003 UNVERIFIED, else APPROVED. */
export function kycForFullName(fullName: string | undefined): KycStatus {
  const suffix = (fullName ?? '').trim().slice(-3)
  if (suffix === '001') return 'PENDING'
  if (suffix === '002') return 'REJECTED'
  if (suffix === '003') return 'UNVERIFIED'
  return 'APPROVED'
}

/** Outcome of a transfer-out by the last 3 digits of the destination's identifier. */
type TransferScenario =
  | 'SUCCESS'
  | 'INSUFFICIENT_FUNDS' // 002: fails at once
  | 'ACCOUNT_CLOSED' // 003: fails at once
  | 'REJECTED_BY_BANK' // 004: fails after processing
  | 'PENDING_THEN_FAIL' // 005: pending about 30 s, then fails

export function transferScenario(identifier: string): TransferScenario {
  switch (identifier.slice(-3)) {
    case '002':
      return 'INSUFFICIENT_FUNDS'
    case '003':
      return 'ACCOUNT_CLOSED'
    case '004':
      return 'REJECTED_BY_BANK'
    case '005':
      return 'PENDING_THEN_FAIL'
    default:
      return 'SUCCESS'
  }
}

/** Outcome of an executed quote by the last 3 digits of the destination's identifier. */
export type QuoteScenario =
  | 'SUCCESS'
  | 'EXECUTION_FAILS' // 002
  | 'SLOW' // 003: completes after about 6 minutes
  | 'DELIVERY_FAILS' // 004
  | 'RETURNED' // 005: completes, then returned by the bank
  | 'USER_CANCELS' // 006
  | 'PAYOUT_AND_REFUND_FAIL' // 007

export function quoteScenario(identifier: string): QuoteScenario {
  switch (identifier.slice(-3)) {
    case '002':
      return 'EXECUTION_FAILS'
    case '003':
      return 'SLOW'
    case '004':
      return 'DELIVERY_FAILS'
    case '005':
      return 'RETURNED'
    case '006':
      return 'USER_CANCELS'
    case '007':
      return 'PAYOUT_AND_REFUND_FAIL'
    default:
      return 'SUCCESS'
  }
}

type BeneficiaryVerification =
  | 'MATCHED'
  | 'PARTIAL_MATCH'
  | 'NOT_MATCHED'
  | 'UNSUPPORTED'
  | 'CHECKED_BY_RECEIVING_FI'
  | 'PENDING'
  | 'INVALID_ACCOUNT'

/** Beneficiary name verification by suffix: 102..107; 105 means the account is invalid (create answers 400). */
export function beneficiaryVerification(identifier: string): BeneficiaryVerification {
  switch (identifier.slice(-3)) {
    case '102':
      return 'NOT_MATCHED'
    case '103':
      return 'PARTIAL_MATCH'
    case '104':
      return 'PENDING'
    case '105':
      return 'INVALID_ACCOUNT'
    case '106':
      return 'UNSUPPORTED'
    case '107':
      return 'CHECKED_BY_RECEIVING_FI'
    default:
      return 'MATCHED'
  }
}

/** Test sender addresses of POST /sandbox/uma/receive. */
interface SandboxSender {
  address: string
  currency: string
  behaviour: 'SUCCESS' | 'PENDING_LONG' | 'FAIL_COMPLIANCE'
  fullName: string
}

const SENDER_DOMAINS = ['sandbox.uma.money', 'sandbox.grid.uma.money']

export function sandboxSender(address: string): SandboxSender | undefined {
  const m = /^\$([a-z.]+)\.(usd|eur|mxn)@(.+)$/.exec(address.trim().toLowerCase())
  if (!m || !SENDER_DOMAINS.includes(m[3] as string)) return undefined
  const kind = m[1]
  const cur = (m[2] as string).toUpperCase()
  if (kind === 'success') return { address, currency: cur, behaviour: 'SUCCESS', fullName: 'Sandbox Sender' }
  if (kind === 'pending.long' && cur === 'USD')
    return { address, currency: cur, behaviour: 'PENDING_LONG', fullName: 'Slow Sandbox Sender' }
  if (kind === 'fail.compliance' && cur === 'USD')
    return { address, currency: cur, behaviour: 'FAIL_COMPLIANCE', fullName: 'Flagged Sandbox Sender' }
  return undefined
}
