/**
 * Simulated durations, in seconds of the real service. The sandbox multiplies each by its timeScale
 * (`--time-scale 0.01` makes every one 100x shorter).
 */
export const DURATIONS = {
  /** Bank account verification: PENDING → ACTIVE. */
  accountVerification: 5,
  /** Beneficiary verification left PENDING by the 104 suffix resolves (to MATCHED) after this. */
  beneficiaryVerificationPending: 60,
  /** Re-review after a beneficiary update: UNDER_REVIEW → ACTIVE. */
  beneficiaryReview: 10,
  /** Outgoing payment accepted: PENDING → PROCESSING. */
  outgoingPending: 1,
  /** Outgoing payment in flight: PROCESSING → COMPLETED (or FAILED). */
  outgoingProcessing: 5,
  /** Destination suffix 005 on transfer-out: pending about 30 s, then fails. */
  pendingThenFail: 30,
  /** Incoming payment answered 202: the platform must approve or reject within this (reference). */
  approvalDeferral: 5,
  /** A webhook delivery that gets no answer within this has failed (the approval webhook included). */
  webhookTimeout: 5,
  /** Incoming payment after approval: PROCESSING → COMPLETED. */
  incomingProcessing: 3,
  /** `$pending.long.usd` sender: stays PROCESSING this long after approval. */
  pendingLong: 3600,
  /** Quotes expire this long after creation (reference: 1-5 minutes). */
  quoteExpiry: 300,
  /** Quote destination suffix 003: completes after about 6 minutes. */
  quoteSlow: 360,
  /** Quote destination suffix 005: completed payout returned by the bank after this. */
  quoteReturned: 30
} as const

/**
 * The longest approval deferral a sandbox may be given (`approvalDeferralSeconds`): a test or demo setting that keeps a
 * 202'd payment waiting longer than the service's 5 s, so a test holds the decision instead of racing that deadline.
 */
export const MAX_APPROVAL_DEFERRAL_SECONDS = 3600

/** True for a usable approval deferral: a positive number of seconds up to MAX_APPROVAL_DEFERRAL_SECONDS. */
export function validApprovalDeferral(seconds: number): boolean {
  return Number.isFinite(seconds) && seconds > 0 && seconds <= MAX_APPROVAL_DEFERRAL_SECONDS
}
