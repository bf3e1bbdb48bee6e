/**
 * What the sandbox stores. Each record is `{ t, id, data, meta }`: `data` is exactly the JSON object the API returns
 * (so answering is a plain serialisation), `meta` holds what only the sandbox needs, `t` is createdAt in ms (the sort
 * key of every list, together with the id).
 */
import type { CurrencyInfo } from './currencies'

interface AmountObj {
  amount: number
  currency: CurrencyInfo
}

interface AddressObj {
  line1?: string
  line2?: string
  city?: string
  state?: string
  postalCode?: string
  country?: string
}

export interface CustomerObj {
  id: string
  platformCustomerId: string
  customerType: string
  region?: string
  currencies?: string[]
  umaAddress: string
  kycStatus?: string
  fullName?: string
  birthDate?: string
  nationality?: string
  email?: string
  address?: AddressObj
  createdAt: string
  updatedAt: string
  isDeleted: boolean
  [extra: string]: unknown
}

export interface ExternalAccountObj {
  id: string
  status: 'PENDING' | 'ACTIVE' | 'UNDER_REVIEW' | 'INACTIVE'
  currency: string
  accountInfo: Record<string, unknown> & { accountType: string }
  customerId?: string
  platformAccountId?: string
  defaultUmaDepositAccount: boolean
  beneficiaryVerificationStatus?: string
  beneficiaryVerifiedData?: { fullName?: string }
  cryptoNetwork?: string
  createdAt: string
  updatedAt: string
}

export interface PaymentInstruction {
  accountOrWalletInfo: Record<string, unknown>
  instructionsNotes?: string
  isPlatformAccount?: boolean
}

interface InternalAccountObj {
  id: string
  type: 'INTERNAL_FIAT' | 'INTERNAL_CRYPTO'
  customerId?: string
  balance: AmountObj
  fundingPaymentInstructions: PaymentInstruction[]
  createdAt: string
  updatedAt: string
}

export interface TransactionObj {
  id: string
  status: string
  type: 'INCOMING' | 'OUTGOING'
  source?: Record<string, unknown>
  destination: Record<string, unknown>
  customerId: string
  platformCustomerId: string
  settledAt?: string
  createdAt: string
  updatedAt: string
  description?: string
  counterpartyInformation?: Record<string, unknown>
  rateDetails?: Record<string, number>
  failureReason?: string
  receivedAmount?: AmountObj
  sentAmount?: AmountObj
  reconciliationInstructions?: { reference: string }
  exchangeRate?: number
  fees?: number
  quoteId?: string
  paymentInstructions?: PaymentInstruction[]
  refund?: { reference: string; initiatedAt: string; status: string; settledAt?: string; reason?: string }
}

interface QuoteObj {
  id: string
  status: 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'EXPIRED'
  createdAt: string
  expiresAt: string
  source: Record<string, unknown>
  destination: Record<string, unknown>
  sendingCurrency: CurrencyInfo
  receivingCurrency: CurrencyInfo
  totalSendingAmount: number
  totalReceivingAmount: number
  exchangeRate: number
  feesIncluded: number
  paymentInstructions?: PaymentInstruction[]
  transactionId: string
  description?: string
  rateDetails?: Record<string, number>
}

interface Rec<D, M> {
  readonly t: number
  readonly id: string
  data: D
  meta: M
}

interface CustomerMeta {
  /** Internal account per currency (the customer's primary internal account of that currency). */
  internalAccounts: Record<string, string>
}

interface ExternalAccountMeta {
  /** Identifier whose last digits choose sandbox outcomes (account number, CLABE, IBAN, wallet address...). */
  identifier: string
}

interface InternalAccountMeta {
  platform: boolean
}

type TxKind = 'TRANSFER_OUT' | 'QUOTE' | 'RECEIVE' | 'SEED'

export interface TransactionMeta {
  kind: TxKind
  /** Sandbox scenario chosen at creation (suffix rule or sender behaviour). */
  scenario?: string
  /** Internal account debited (outgoing) and by how much (what a refund must give back). */
  debitAccountId?: string
  debited?: number
  /** Internal account to credit on completion (incoming), and by how much. */
  creditAccountId?: string
  credit?: number
  /** Incoming: approval deadline (ms). */
  approvalDeadline?: number
  /** Filter keys. */
  sender?: string
  receiver?: string
  reference?: string
  rejectReason?: string
  receiverCustomerInfo?: Record<string, unknown>
  /** Incoming, real approval protocol (engine/approval.ts): where the platform's decision stands. */
  approval?: ApprovalMeta
}

/** A receiver field the approval webhook asks for (`requestedReceiverCustomerInfoFields`). */
export interface RequestedField {
  name: string
  mandatory: boolean
}

interface ApprovalMeta {
  /** ASKING: the webhook is out; DEFERRED: answered 202, approve/reject allowed until the deadline; DECIDED: done. */
  phase: 'ASKING' | 'DEFERRED' | 'DECIDED'
  requested: RequestedField[]
  /** The HTTP status the platform answered, or why none came. */
  answerStatus?: number
  error?: string
  /** 422: the counterparty fields the platform said it needs. */
  requiredFields?: string[]
  /** 200 without these mandatory receiver fields. */
  missingFields?: string[]
}

interface QuoteMeta {
  scenario: string
  /** Internal account source: debit on execution. */
  sourceInternalAccountId?: string
  customerId: string
}

export type CustomerRec = Rec<CustomerObj, CustomerMeta>
export type ExternalAccountRec = Rec<ExternalAccountObj, ExternalAccountMeta>
export type InternalAccountRec = Rec<InternalAccountObj, InternalAccountMeta>
export type TransactionRec = Rec<TransactionObj, TransactionMeta>
export type QuoteRec = Rec<QuoteObj, QuoteMeta>

/** One movement of an internal balance. The balance of an account is always the sum of its entries. */
export interface JournalEntry {
  at: string
  accountId: string
  delta: number
  kind: 'FUNDING' | 'RECEIPT' | 'TRANSFER' | 'FEE' | 'REFUND'
  ref: string
}

export interface IdempotencyEntry {
  key: string
  fingerprint: string
  status: number
  body: unknown
  at: number
}
