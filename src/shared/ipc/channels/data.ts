import { z } from 'zod'
import {
  Customer,
  CustomerCreateRequest,
  CustomerId,
  DiscoveryEntry,
  DiscoveryQuery,
  ExternalAccount,
  ExternalAccountCreateRequest,
  ExternalAccountId,
  InternalAccount,
  InternalAccountId,
  MAX_SANDBOX_FUNDING_AMOUNT,
  PositiveMinorUnits,
  SandboxReceiveRequest,
  Transaction,
  TransactionId
} from '../../api'
import { channel, NoInput } from '../define'
import { MAX_WINDOW_ROWS } from '../wire'
import { ProfileId } from '../../profile'
import { isTooShortTransactionSearch, TRANSACTION_SEARCH_TOO_SHORT } from '../../transaction-search'
import { MAX_AMOUNT_SCALE } from '../../amount-search'
import { StatusHistory } from '../../status-history'
import { TransferRecord } from '../../transfer-journal'

export {
  isTooShortTransactionSearch,
  MIN_TRANSACTION_SEARCH_CHARS,
  TRANSACTION_SEARCH_TOO_SHORT
} from '../../transaction-search'
// The payment journal's record is its own module; these channels carry it.
export {
  checkedSinceLastAttempt,
  checkFoundIt,
  holdsItsPayment,
  isUnresolvedTransfer,
  PAYMENT_KINDS,
  paymentIntentKeys,
  type PaymentKind,
  quoteRequestKey,
  TRANSFER_JOURNAL_STATES,
  TransferRecord
} from '../../transfer-journal'

/**
 * Data channels. Every read answers at once from the active profile's offline cache with `syncedAt` (null: never
 * synced), then refreshes from the service in the background and emits `data.changed` when it has. Queries are
 * answered in main from indexes, so the renderer only ever holds the window of rows it shows. Writes go straight to
 * the service: offline they fail with code OFFLINE and nothing is queued.
 */

/** ISO time of the last successful refresh of what was asked, or null when it was never synced. */
export const SyncedAt = z.string().nullable()

/** Which window of a list is asked for: every windowed list's input ends with it, and windowOf answers it. */
const windowAt = {
  offset: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(MAX_WINDOW_ROWS).default(100)
}
const SearchText = z.string().trim().max(200)
const TransactionSearchText = SearchText.refine((s) => !isTooShortTransactionSearch(s), {
  error: TRANSACTION_SEARCH_TOO_SHORT
})
const Direction = z.enum(['asc', 'desc'])
/** An id, reference or other exact value a list is narrowed to. */
const ExactValue = z.string().min(1).max(200)
const CurrencyCode = z.string().min(1).max(10)
/** A status as the service names it: known ones and any it adds later. */
const StatusName = z.string().min(1).max(40)
/** Whose accounts: the customers', the platform's own, or both. */
export const AccountOwnerScope = z.enum(['all', 'customer', 'platform']).default('all')
export type AccountOwnerScope = z.output<typeof AccountOwnerScope>

/**
 * An amount typed without a currency, exactly: `units` × 10^-`scale` ("1,250.50" is 125050 at scale 2). Each
 * currency's rows are matched in its own minor units (src/shared/amount-search.ts).
 */
const AmountIs = z.strictObject({
  units: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  scale: z.number().int().min(0).max(MAX_AMOUNT_SCALE)
})

export const TRANSACTION_SORT_FIELDS = ['createdAt', 'updatedAt', 'amount', 'status'] as const
export const TransactionFilter = z
  .strictObject({
    /** Any of these statuses (values shown verbatim, unknown ones allowed). */
    status: z.array(StatusName).max(20).optional(),
    type: z.enum(['INCOMING', 'OUTGOING']).optional(),
    customerId: ExactValue.optional(),
    /** Currency of the amount shown (received for incoming, sent for outgoing). */
    currency: CurrencyCode.optional(),
    /** Source or destination account id. */
    accountId: ExactValue.optional(),
    /** The platform's own id of the customer (spec 4.9 platformCustomerId). */
    platformCustomerId: ExactValue.optional(),
    /** The account money left (spec 4.9 senderAccountIdentifier). */
    senderAccountId: ExactValue.optional(),
    /** The account money went to (spec 4.9 receiverAccountIdentifier). */
    receiverAccountId: ExactValue.optional(),
    /** Reconciliation reference, exact. */
    reference: ExactValue.optional(),
    /** Bounds, inclusive, of the amount shown, in minor units of its currency (meaningful with `currency`). */
    amountMin: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    amountMax: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    /** An amount typed without a currency ("1250" finds $1,250.00 and ¥1,250): see amount-search.ts. */
    amountIs: AmountIs.optional(),
    /**
     * Case-insensitive substring of the id, description, customer ids, reference, UMA addresses or account ids; three
     * characters or more (empty: no text filter).
     */
    search: TransactionSearchText.optional(),
    createdFrom: z.iso.datetime({ offset: true }).optional(),
    createdTo: z.iso.datetime({ offset: true }).optional()
  })
  .refine((f) => f.amountMin === undefined || f.amountMax === undefined || f.amountMin <= f.amountMax, {
    error: 'The smallest amount is larger than the largest',
    path: ['amountMax']
  })
  .refine((f) => !f.createdFrom || !f.createdTo || Date.parse(f.createdFrom) <= Date.parse(f.createdTo), {
    error: 'The date range ends before it starts',
    path: ['createdTo']
  })
export type TransactionFilter = z.infer<typeof TransactionFilter>

export const TransactionSort = z.strictObject({ field: z.enum(TRANSACTION_SORT_FIELDS), direction: Direction })
export type TransactionSort = z.infer<typeof TransactionSort>

export const TransactionsQueryInput = z.strictObject({
  filter: TransactionFilter.default({}),
  sort: TransactionSort.default({ field: 'createdAt', direction: 'desc' }),
  ...windowAt
})
export type TransactionsQueryInput = z.infer<typeof TransactionsQueryInput>

function windowOf<T extends z.ZodType>(row: T) {
  return z.object({
    profileId: ProfileId,
    rows: z.array(row),
    /** Matches of the whole filter, not just this window. */
    total: z.number().int().min(0),
    offset: z.number().int().min(0),
    syncedAt: SyncedAt
  })
}
/**
 * The labels of the customers and accounts a window's rows name ("Priya Raman", "Platform · USD"), by id, which main
 * adds from the cache's names table; an id without one is shown shortened (src/shared/labels.ts labelOf).
 */
export const Names = z.record(z.string().max(300), z.string().max(500))
const TransactionsWindow = windowOf(Transaction).extend({ names: Names })
type TransactionsWindow = z.infer<typeof TransactionsWindow>

export const CustomersQueryInput = z.strictObject({
  search: SearchText.optional(),
  kycStatus: StatusName.optional(),
  sort: z
    .strictObject({ field: z.enum(['fullName', 'createdAt', 'kycStatus']), direction: Direction })
    .default({ field: 'createdAt', direction: 'desc' }),
  ...windowAt
})
export type CustomersQueryInput = z.infer<typeof CustomersQueryInput>
const CustomersWindow = windowOf(Customer)

/** Whose accounts, and in which currency: the filters both account lists share. */
const InternalAccountsInput = z.strictObject({
  scope: AccountOwnerScope,
  customerId: ExactValue.optional(),
  currency: CurrencyCode.optional()
})

export const ExternalAccountsQueryInput = InternalAccountsInput.extend({
  status: StatusName.optional(),
  search: SearchText.optional(),
  ...windowAt
})
export type ExternalAccountsQueryInput = z.infer<typeof ExternalAccountsQueryInput>
const ExternalAccountsWindow = windowOf(ExternalAccount)

const InternalAccountsList = z.object({
  profileId: ProfileId,
  rows: z.array(InternalAccount),
  syncedAt: SyncedAt
})

const DiscoveriesList = z.object({ profileId: ProfileId, rows: z.array(DiscoveryEntry), syncedAt: SyncedAt })

export const TransferSendInput = z.strictObject({
  /** One uuid per operator action (the review step's "Send"): every retry of that action reuses its Idempotency-Key. */
  actionId: z.uuid({ error: 'actionId must be a uuid generated once per operator action' }),
  sourceAccountId: InternalAccountId,
  destinationAccountId: ExternalAccountId,
  amount: PositiveMinorUnits,
  /** Required (true) on production profiles: the operator confirmed twice. */
  confirmProduction: z.boolean().optional()
})
export type TransferSendInput = z.infer<typeof TransferSendInput>

const TransferActionInput = z.strictObject({ actionId: z.uuid() })

/** What the service holds that could be this transfer: outgoing, from its account, to its destination, same amount. */
const TransferCheckResult = z.object({
  profileId: ProfileId,
  record: TransferRecord,
  matches: z.array(Transaction)
})

export const TransferResolveInput = z.strictObject({ actionId: z.uuid(), transactionId: TransactionId })
export type TransferResolveInput = z.infer<typeof TransferResolveInput>

/** "It did not go through, send again": a new action (new key) in place of an unknown one the check did not find. */
export const TransferSendAgainInput = z.strictObject({
  actionId: z.uuid(),
  newActionId: z.uuid({ error: 'newActionId must be a new uuid for the new attempt' }),
  confirmNotSent: z.literal(true, { error: 'Confirm that the service shows no such transfer' }),
  confirmProduction: z.boolean().optional()
})
export type TransferSendAgainInput = z.infer<typeof TransferSendAgainInput>

const TransferResult = z.object({ profileId: ProfileId, transaction: Transaction, record: TransferRecord })

export const dataChannels = {
  'transactions.query': channel(
    TransactionsQueryInput,
    TransactionsWindow,
    'A filtered, sorted window of cached transactions with the total count'
  ),
  'transactions.get': channel(
    z.strictObject({ id: TransactionId }),
    z.object({
      profileId: ProfileId,
      transaction: Transaction.nullable(),
      names: Names,
      syncedAt: SyncedAt,
      /** The statuses the cache saw it in, oldest first (empty when the transaction is not cached). */
      history: StatusHistory
    }),
    'One transaction from the cache (then refreshed), with the names of its customer and accounts and its status timeline'
  ),
  'customers.query': channel(CustomersQueryInput, CustomersWindow, 'A filtered window of cached customers'),
  'customers.get': channel(
    z.strictObject({ id: CustomerId }),
    z.object({ profileId: ProfileId, customer: Customer.nullable(), syncedAt: SyncedAt }),
    'One customer from the cache (then refreshed)'
  ),
  'customers.create': channel(CustomerCreateRequest, Customer, 'Register a customer'),
  'externalAccounts.query': channel(
    ExternalAccountsQueryInput,
    ExternalAccountsWindow,
    'A filtered window of cached external accounts'
  ),
  'externalAccounts.create': channel(ExternalAccountCreateRequest, ExternalAccount, 'Add an external account'),
  'externalAccounts.remove': channel(
    z.strictObject({ id: ExternalAccountId }),
    z.null(),
    'Delete an external account for good'
  ),
  'internalAccounts.list': channel(
    InternalAccountsInput,
    InternalAccountsList,
    'Cached internal accounts and balances'
  ),
  'discoveries.list': channel(DiscoveryQuery, DiscoveriesList, 'Bank names for a country or currency'),
  'transfers.send': channel(
    TransferSendInput,
    TransferResult,
    'Send money out of an internal account, exactly once per operator action'
  ),
  'transfers.check': channel(
    TransferActionInput,
    TransferCheckResult,
    'Look a transfer of unknown outcome up at the service by time, amount and accounts'
  ),
  'transfers.resolve': channel(
    TransferResolveInput,
    TransferResult,
    'Settle a transfer of unknown outcome with the transaction the check found'
  ),
  'transfers.sendAgain': channel(
    TransferSendAgainInput,
    TransferResult,
    'Send a checked transfer of unknown outcome again, as a new action, on the operator’s word'
  ),
  'transfers.journal': channel(
    NoInput,
    z.object({ profileId: ProfileId, records: z.array(TransferRecord) }),
    'Transfers started from this Paydesk, newest first, with whether their outcome is known'
  ),
  'sandbox.fund': channel(
    z.strictObject({
      accountId: InternalAccountId,
      amount: PositiveMinorUnits.refine((n) => n <= MAX_SANDBOX_FUNDING_AMOUNT, {
        error: `Sandbox funding is at most ${MAX_SANDBOX_FUNDING_AMOUNT} minor units`
      })
    }),
    InternalAccount,
    'Sandbox only: add funds to an internal account'
  ),
  'sandbox.receive': channel(SandboxReceiveRequest, Transaction, 'Sandbox only: simulate an incoming payment')
}

export const DataCollection = z.enum([
  'transactions',
  'customers',
  'externalAccounts',
  'internalAccounts',
  'discoveries'
])
export type DataCollection = z.infer<typeof DataCollection>

export const dataEvents = {
  /** Something in the active profile's cache changed: re-query what is on screen. */
  'data.changed': z.object({ profileId: ProfileId, collections: z.array(DataCollection), syncedAt: SyncedAt })
}
