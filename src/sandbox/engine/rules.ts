/**
 * Magic values of the real service's sandbox (reference README, "Sandbox behaviour of the real service").
 */

type KycStatus = 'UNVERIFIED' | 'PENDING' | 'APPROVED' | 'REJECTED'

/**
 * Every magic value below is the last 3 characters of a name or an identifier: what the table says for them, else
 * the ordinary outcome.
 */
function bySuffix<T extends string>(text: string, table: Readonly<Record<string, T>>, otherwise: NoInfer<T>): T {
  return table[text.slice(-3)] ?? otherwise
}

/** KYC by the last 3 characters of fullName: 001 PENDING, 002 REJECTED, 003 UNVERIFIED, else APPROVED. */
const KYC_STATUSES: Record<string, KycStatus> = { '001': 'PENDING', '002': 'REJECTED', '003': 'UNVERIFIED' }

export function kycForFullName(fullName: string | undefined): KycStatus {
  return bySuffix((fullName ?? '').trim(), KYC_STATUSES, 'APPROVED')
}

/** Outcome of a transfer-out by the last 3 digits of the destination's identifier. */
type TransferScenario = 'SUCCESS' | 'INSUFFICIENT_FUNDS' | 'ACCOUNT_CLOSED' | 'REJECTED_BY_BANK' | 'PENDING_THEN_FAIL'

const TRANSFER_SCENARIOS: Record<string, TransferScenario> = {
  '002': 'INSUFFICIENT_FUNDS', // fails at once
  '003': 'ACCOUNT_CLOSED', // fails at once
  '004': 'REJECTED_BY_BANK', // fails after processing
  '005': 'PENDING_THEN_FAIL' // pending about 30 s, then fails
}

export function transferScenario(identifier: string): TransferScenario {
  return bySuffix(identifier, TRANSFER_SCENARIOS, 'SUCCESS')
}

/** Outcome of an executed quote by the last 3 digits of the destination's identifier. */
export type QuoteScenario =
  | 'SUCCESS'
  | 'EXECUTION_FAILS'
  | 'SLOW'
  | 'DELIVERY_FAILS'
  | 'RETURNED'
  | 'USER_CANCELS'
  | 'PAYOUT_AND_REFUND_FAIL'

const QUOTE_SCENARIOS: Record<string, QuoteScenario> = {
  '002': 'EXECUTION_FAILS',
  '003': 'SLOW', // completes after about 6 minutes
  '004': 'DELIVERY_FAILS',
  '005': 'RETURNED', // completes, then returned by the bank
  '006': 'USER_CANCELS',
  '007': 'PAYOUT_AND_REFUND_FAIL'
}

export function quoteScenario(identifier: string): QuoteScenario {
  return bySuffix(identifier, QUOTE_SCENARIOS, 'SUCCESS')
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
const VERIFICATIONS: Record<string, BeneficiaryVerification> = {
  '102': 'NOT_MATCHED',
  '103': 'PARTIAL_MATCH',
  '104': 'PENDING',
  '105': 'INVALID_ACCOUNT',
  '106': 'UNSUPPORTED',
  '107': 'CHECKED_BY_RECEIVING_FI'
}

export function beneficiaryVerification(identifier: string): BeneficiaryVerification {
  return bySuffix(identifier, VERIFICATIONS, 'MATCHED')
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
