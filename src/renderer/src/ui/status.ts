/**
 * One meaning per colour across the app (design/ui.md). Unknown values from the server are shown verbatim in grey.
 */
import { paymentStatusMeaning } from '../../../shared/payment-status'

export type Tone = 'good' | 'waiting' | 'needs-you' | 'bad' | 'neutral' | 'unknown'

const EXTERNAL_ACCOUNT: Record<string, Tone> = {
  ACTIVE: 'good',
  PENDING: 'waiting',
  UNDER_REVIEW: 'waiting',
  INACTIVE: 'bad',
  FAILED: 'bad',
  DISABLED: 'bad'
}
const KYC: Record<string, Tone> = { APPROVED: 'good', PENDING: 'waiting', UNVERIFIED: 'needs-you', REJECTED: 'bad' }

/**
 * A payment's colour comes from the one vocabulary of payment statuses (shared/payment-status.ts) that main's
 * notifications use too. PENDING is amber whatever the direction: on an incoming payment it means the quote was created, never that it waits
 * for an approval (only the approval gate's prompts do, and they live in Approvals).
 */
export const transactionTone = (status: string | undefined): Tone => paymentStatusMeaning(status)
export const externalAccountTone = (status: string | undefined): Tone =>
  (status && EXTERNAL_ACCOUNT[status]) || 'unknown'
export const kycTone = (status: string | undefined): Tone => (status && KYC[status]) || 'unknown'

/** Sentences for failure reasons, with the raw code shown beside them. */
export const FAILURE_REASON_TEXT: Record<string, string> = {
  LNURLP_FAILED: 'The sender could not look up the receiving address.',
  PAY_REQUEST_FAILED: 'The sender’s pay request failed.',
  PAYMENT_APPROVAL_WEBHOOK_ERROR: 'The approval request to your platform failed.',
  PAYMENT_APPROVAL_TIMED_OUT: 'Nobody approved the payment in time, so it was rejected.',
  OFFRAMP_FAILED: 'Converting to fiat failed.',
  MISSING_MANDATORY_PAYEE_DATA: 'Required recipient information was missing.',
  QUOTE_EXPIRED: 'The quote expired before it was executed.',
  QUOTE_EXECUTION_FAILED: 'Executing the quote failed.',
  LIGHTNING_PAYMENT_FAILED: 'The Lightning payment failed.',
  FUNDING_AMOUNT_MISMATCH: 'The funds received did not match the quote.',
  COUNTERPARTY_POST_TX_FAILED: 'The receiving side failed after the transfer.'
}
