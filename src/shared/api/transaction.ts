import { z } from 'zod'
import { AddressInput } from './address'
import { IsoDateOrDateTime, IsoDateTime, isRealIsoDate } from './country'
import { closedEnum, openEnum } from './enums'
import { CustomerId, ExternalAccountId, InternalAccountId, TransactionRef } from './ids'
import { QueryCursor, QueryLimit } from './list'
import { CurrencyAmount, MinorUnits, PositiveMinorUnits } from './money'
import { nonBlank } from './text'

const TRANSACTION_TYPES = ['INCOMING', 'OUTGOING'] as const

/** Incoming transaction statuses, also the values of the list filter (spec 3.2). */
export const TRANSACTION_STATUSES = [
  'CREATED',
  'PENDING',
  'PROCESSING',
  'COMPLETED',
  'REJECTED',
  'FAILED',
  'REFUNDED',
  'EXPIRED'
] as const
export const INCOMING_TRANSACTION_STATUSES = TRANSACTION_STATUSES
export const OUTGOING_TRANSACTION_STATUSES = ['PENDING', 'EXPIRED', 'PROCESSING', 'COMPLETED', 'FAILED'] as const

export const INCOMING_FAILURE_REASONS = [
  'LNURLP_FAILED',
  'PAY_REQUEST_FAILED',
  'PAYMENT_APPROVAL_WEBHOOK_ERROR',
  'PAYMENT_APPROVAL_TIMED_OUT',
  'OFFRAMP_FAILED',
  'MISSING_MANDATORY_PAYEE_DATA',
  'QUOTE_EXPIRED',
  'QUOTE_EXECUTION_FAILED'
] as const
export const OUTGOING_FAILURE_REASONS = [
  'QUOTE_EXPIRED',
  'QUOTE_EXECUTION_FAILED',
  'LIGHTNING_PAYMENT_FAILED',
  'FUNDING_AMOUNT_MISMATCH',
  'COUNTERPARTY_POST_TX_FAILED'
] as const

/** Refund statuses and reasons: the spec names COMPLETED and TRANSACTION_FAILED; the reference adds the rest. */
const REFUND_STATUSES = ['PENDING', 'COMPLETED', 'FAILED'] as const
const REFUND_REASONS = ['TRANSACTION_FAILED', 'USER_CANCELLATION', 'TIMEOUT'] as const

const TRANSACTION_ENDPOINT_TYPES = ['ACCOUNT', 'UMA_ADDRESS', 'REALTIME_FUNDING'] as const

/**
 * Rate and fee details. The spec writes the service's own fee names as `serviceApi*`; the real service sends
 * `gridApi*`. Both are accepted; read them through `rateDetailsFees`.
 */
export const RateDetails = z.looseObject({
  counterpartyMultiplier: z.number().optional(),
  counterpartyFixedFee: z.number().optional(),
  serviceApiMultiplier: z.number().optional(),
  serviceApiFixedFee: z.number().optional(),
  serviceApiVariableFeeRate: z.number().optional(),
  serviceApiVariableFeeAmount: z.number().optional(),
  gridApiMultiplier: z.number().optional(),
  gridApiFixedFee: z.number().optional(),
  gridApiVariableFeeRate: z.number().optional(),
  gridApiVariableFeeAmount: z.number().optional()
})
export type RateDetails = z.infer<typeof RateDetails>

/** The service's four fee members, whichever naming the server used (gridApi* preferred). */
export function rateDetailsFees(rd: RateDetails): {
  apiMultiplier?: number
  apiFixedFee?: number
  apiVariableFeeRate?: number
  apiVariableFeeAmount?: number
} {
  return {
    apiMultiplier: rd.gridApiMultiplier ?? rd.serviceApiMultiplier,
    apiFixedFee: rd.gridApiFixedFee ?? rd.serviceApiFixedFee,
    apiVariableFeeRate: rd.gridApiVariableFeeRate ?? rd.serviceApiVariableFeeRate,
    apiVariableFeeAmount: rd.gridApiVariableFeeAmount ?? rd.serviceApiVariableFeeAmount
  }
}

export const Refund = z.looseObject({
  reference: z.string(),
  initiatedAt: z.string(),
  status: openEnum(REFUND_STATUSES),
  settledAt: z.string().optional(),
  reason: openEnum(REFUND_REASONS).optional()
})
export type Refund = z.infer<typeof Refund>

/** Either end of a transaction: the same fields, told apart only by their type's name (sourceType, destinationType). */
const endpoint = {
  accountId: z.string().optional(),
  currency: z.string().optional(),
  umaAddress: z.string().optional()
}
const TransactionSource = z.looseObject({ sourceType: openEnum(TRANSACTION_ENDPOINT_TYPES).optional(), ...endpoint })
type TransactionSource = z.infer<typeof TransactionSource>
const TransactionDestination = z.looseObject({
  destinationType: openEnum(TRANSACTION_ENDPOINT_TYPES).optional(),
  ...endpoint
})
type TransactionDestination = z.infer<typeof TransactionDestination>

export const PaymentInstruction = z.looseObject({
  accountOrWalletInfo: z.looseObject({ accountType: z.string().optional() }),
  instructionsNotes: z.string().optional(),
  isPlatformAccount: z.boolean().optional()
})
export type PaymentInstruction = z.infer<typeof PaymentInstruction>

const common = {
  id: TransactionRef,
  status: openEnum(TRANSACTION_STATUSES),
  destination: TransactionDestination,
  customerId: z.string(),
  platformCustomerId: z.string(),
  settledAt: z.string().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  description: z.string().optional(),
  counterpartyInformation: z.record(z.string(), z.unknown()).optional(),
  rateDetails: RateDetails.optional()
}

export const IncomingTransaction = z.looseObject({
  ...common,
  type: z.literal('INCOMING'),
  receivedAmount: CurrencyAmount,
  source: TransactionSource.optional(),
  reconciliationInstructions: z.looseObject({ reference: z.string() }).optional(),
  failureReason: openEnum(INCOMING_FAILURE_REASONS).optional()
})
export type IncomingTransaction = z.infer<typeof IncomingTransaction>

export const OutgoingTransaction = z.looseObject({
  ...common,
  type: z.literal('OUTGOING'),
  status: openEnum(OUTGOING_TRANSACTION_STATUSES),
  source: TransactionSource,
  sentAmount: CurrencyAmount,
  receivedAmount: CurrencyAmount.optional(),
  exchangeRate: z.number().optional(),
  fees: MinorUnits.refine((n) => n >= 0, { error: 'fees must not be negative' }).optional(),
  quoteId: z.string().optional(),
  paymentInstructions: z.array(PaymentInstruction).optional(),
  refund: Refund.optional(),
  failureReason: openEnum(OUTGOING_FAILURE_REASONS).optional()
})
export type OutgoingTransaction = z.infer<typeof OutgoingTransaction>

/**
 * A transaction whose `type` Paydesk does not know (the service may add types). Only id and type are required, so it
 * can be listed and shown verbatim. INCOMING and OUTGOING never fall back here: a malformed one fails.
 */
const UnknownTransaction = z.looseObject({
  id: z.string(),
  type: z.string().refine((t) => !(TRANSACTION_TYPES as readonly string[]).includes(t), {
    error: 'An INCOMING or OUTGOING transaction must match its own shape'
  }) as unknown as z.ZodType<string & { readonly __unknownTransactionType?: never }, string>,
  status: z.string().optional()
})
type UnknownTransaction = z.infer<typeof UnknownTransaction>

/** INCOMING or OUTGOING only. */
export const KnownTransaction = z.discriminatedUnion('type', [IncomingTransaction, OutgoingTransaction])
export type KnownTransaction = z.infer<typeof KnownTransaction>

export type Transaction = IncomingTransaction | OutgoingTransaction | UnknownTransaction

/**
 * A transaction of any type, dispatched on `type`: INCOMING and OUTGOING are checked against their own shape (so their
 * errors are specific), any other type is tolerated as an UnknownTransaction.
 */
export const Transaction: z.ZodType<Transaction, unknown> = z.unknown().transform((input, ctx): Transaction => {
  const type = typeof input === 'object' && input !== null ? (input as { type?: unknown }).type : undefined
  const schema: z.ZodType<Transaction> =
    type === 'INCOMING' ? IncomingTransaction : type === 'OUTGOING' ? OutgoingTransaction : UnknownTransaction
  const result = schema.safeParse(input)
  if (result.success) return result.data
  for (const issue of result.error.issues) {
    ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message, input: issue.input })
  }
  return z.NEVER
})

export function isIncomingTransaction(t: Transaction): t is IncomingTransaction {
  return t.type === 'INCOMING'
}
export function isOutgoingTransaction(t: Transaction): t is OutgoingTransaction {
  return t.type === 'OUTGOING'
}

/** Start of the instant range a date filter covers: a date means its first millisecond (UTC). */
function startMs(value: string): number {
  return isRealIsoDate(value) ? Date.parse(`${value}T00:00:00.000Z`) : Date.parse(value)
}
/** End of the instant range a date filter covers: a date means its last millisecond (UTC), since it is inclusive. */
function endMs(value: string): number {
  return isRealIsoDate(value) ? Date.parse(`${value}T23:59:59.999Z`) : Date.parse(value)
}

/**
 * The inclusive instant range of a list query's startDate/endDate, in epoch milliseconds (a date-only value covers
 * its whole UTC day). Use it on the server side to filter by createdAt.
 */
export function transactionDateRange(q: { startDate?: string; endDate?: string }): { fromMs: number; toMs: number } {
  return {
    fromMs: q.startDate === undefined ? Number.NEGATIVE_INFINITY : startMs(q.startDate),
    toMs: q.endDate === undefined ? Number.POSITIVE_INFINITY : endMs(q.endDate)
  }
}

const identifier = (what: string) => z.string().min(1, { error: `${what} must not be empty` })

/**
 * GET /transactions query (spec 4.9, plus the published `accountIdentifier`: the sender or the receiver). startDate and
 * endDate are inclusive; startDate must not be after endDate.
 */
export const TransactionListQuery = z
  .strictObject({
    customerId: CustomerId.optional(),
    platformCustomerId: identifier('platformCustomerId').optional(),
    accountIdentifier: identifier('accountIdentifier').optional(),
    senderAccountIdentifier: identifier('senderAccountIdentifier').optional(),
    receiverAccountIdentifier: identifier('receiverAccountIdentifier').optional(),
    status: closedEnum(TRANSACTION_STATUSES, 'status').optional(),
    type: closedEnum(TRANSACTION_TYPES, 'type').optional(),
    reference: identifier('reference').optional(),
    // date-time only, as the spec (4.9) and the published API (format: date-time) have it; Paydesk sends instants.
    startDate: IsoDateTime.optional(),
    endDate: IsoDateOrDateTime.optional(),
    limit: QueryLimit,
    cursor: QueryCursor.optional(),
    sortOrder: closedEnum(['asc', 'desc'] as const, 'sortOrder').default('desc')
  })
  .superRefine((q, ctx) => {
    if (q.startDate !== undefined && q.endDate !== undefined && startMs(q.startDate) > endMs(q.endDate)) {
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'endDate must not be before startDate' })
    }
  })
export type TransactionListQuery = z.infer<typeof TransactionListQuery>

/** POST /transfer-out body (spec 4.10). */
export const TransferOutRequest = z.strictObject({
  source: z.strictObject(
    { accountId: InternalAccountId },
    {
      error: (issue) =>
        issue.code === 'invalid_type' ? 'source must be an object { accountId: "InternalAccount:..." }' : undefined
    }
  ),
  destination: z.strictObject(
    { accountId: ExternalAccountId },
    {
      error: (issue) =>
        issue.code === 'invalid_type' ? 'destination must be an object { accountId: "ExternalAccount:..." }' : undefined
    }
  ),
  amount: PositiveMinorUnits.optional()
})
export type TransferOutRequest = z.infer<typeof TransferOutRequest>

/** Upper-snake keys such as FULL_NAME, BIRTH_DATE, COUNTRY_OF_RESIDENCE. */
export const UPPER_SNAKE_PATTERN = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/

/** POST /transactions/{id}/approve body (spec 4.11): values are strings or addresses, keyed by UPPER_SNAKE names. */
export const ApprovePaymentRequest = z.strictObject({
  receiverCustomerInfo: z
    .record(
      z.string().regex(UPPER_SNAKE_PATTERN, {
        error: 'receiverCustomerInfo keys must be UPPER_SNAKE_CASE names such as FULL_NAME or BIRTH_DATE'
      }),
      z.union([nonBlank('receiverCustomerInfo value'), AddressInput], {
        error: 'Each receiverCustomerInfo value must be a non-empty string or an address object'
      }),
      {
        error: (issue) =>
          issue.code === 'invalid_key'
            ? 'receiverCustomerInfo keys must be UPPER_SNAKE_CASE names such as FULL_NAME or BIRTH_DATE'
            : issue.code === 'invalid_type'
              ? 'receiverCustomerInfo must be an object of UPPER_SNAKE_CASE names to values'
              : undefined
      }
    )
    .optional()
})
export type ApprovePaymentRequest = z.infer<typeof ApprovePaymentRequest>

/** POST /transactions/{id}/reject body (reference). */
export const RejectPaymentRequest = z.strictObject({
  reason: nonBlank('reason').optional()
})
export type RejectPaymentRequest = z.infer<typeof RejectPaymentRequest>

/** A receiverCustomerInfo field the approval webhook asks for (reference). */
export const RequestedReceiverCustomerInfoField = z.looseObject({
  name: z.string(),
  mandatory: z.boolean().optional()
})
export type RequestedReceiverCustomerInfoField = z.infer<typeof RequestedReceiverCustomerInfoField>
