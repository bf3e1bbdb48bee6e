/**
 * The behaviour of the sandbox, independent of HTTP: every operation takes already validated input (the shared request
 * schemas validate at the HTTP edge), applies the business rules of the spec and the reference's sandbox, and either
 * changes state or throws an ApiError before changing anything.
 */
import { accountInfoIdentifier, isWalletAccountType } from '../shared/api/account-info'
import type { CustomerCreateRequest, CustomerListQuery, CustomerUpdateRequest } from '../shared/api/customer'
import {
  externalAccountUpdateFor,
  type ExternalAccountCreateRequest,
  type ExternalAccountListQuery,
  type PlatformExternalAccountQuery,
  type ExternalAccountUpdateRequest
} from '../shared/api/external-account'
import type { InternalAccountQuery } from '../shared/api/internal-account'
import type { QuoteCreateRequest } from '../shared/api/quote'
import type { SandboxReceiveRequest, SandboxSendRequest } from '../shared/api/sandbox'
import {
  transactionDateRange,
  type ApprovePaymentRequest,
  type RejectPaymentRequest,
  type TransactionListQuery,
  type TransferOutRequest
} from '../shared/api/transaction'
import { iso, type Clock } from './clock'
import {
  amountOf,
  convertMinor,
  minorNeededFor,
  currenciesForRegion,
  currency,
  exchangeRate,
  isCrypto,
  isKnownCurrency,
  kycRegionOf
} from './currencies'
import { BANK_NAME_REQUIRED, isDiscoveredBankName } from './discovery'
import { ApiError, conflict, invalidInput, notFound, REFERENCE_NOT_FOUND, validationError } from './errors'
import type {
  CustomerObj,
  CustomerRec,
  ExternalAccountObj,
  ExternalAccountRec,
  InternalAccountRec,
  JournalEntry,
  PaymentInstruction,
  QuoteRec,
  TransactionObj,
  TransactionRec
} from './model'
import { defaultPaymentRails, fiatFundingAccount } from './funding'
import { paginate, type Page } from './paging'
import {
  beneficiaryVerification,
  kycForFullName,
  quoteScenario,
  sandboxSender,
  transferScenario,
  type QuoteScenario,
  type TransferScenario
} from './rules'
import type { Job, Scheduler } from './scheduler'
import type { SortedIndex } from './sorted-index'
import type { Store } from './store'
import { DURATIONS } from './timing'

/** Fixed fee of an outgoing payment (transfer-out and quotes), in minor units of the sending currency. */
export const OUTGOING_FIXED_FEE = 10
/** Fees an incoming payment's sender pays (shown in rateDetails; the receiver gets receivedAmount in full). */
export const INCOMING_FIXED_FEE = 10
export const INCOMING_VARIABLE_FEE_RATE = 0.003

/** Currencies the sandbox platform is configured for (one platform internal account each). */
export const PLATFORM_CURRENCIES = ['USD', 'EUR', 'GBP', 'MXN', 'BTC', 'USDC'] as const

const PENDING_STATUSES = new Set(['CREATED', 'PENDING', 'PROCESSING'])

export const JOB = {
  accountVerify: 'account.verify',
  accountReview: 'account.review',
  outgoingProcess: 'outgoing.process',
  outgoingSettle: 'outgoing.settle',
  outgoingReturn: 'outgoing.return',
  incomingTimeout: 'incoming.timeout',
  incomingSettle: 'incoming.settle',
  quoteExpire: 'quote.expire'
} as const

export interface EngineOptions {
  approvalWindowSeconds: number
}

export class Engine {
  private readonly txCountCache = new Map<string, { version: number; count: number }>()

  constructor(
    readonly store: Store,
    readonly clock: Clock,
    readonly scheduler: Scheduler,
    private readonly options: EngineOptions,
    private readonly changed: () => void
  ) {
    scheduler.on(JOB.accountVerify, (j) => this.onAccountVerified(j))
    scheduler.on(JOB.accountReview, (j) => this.onAccountReviewed(j))
    scheduler.on(JOB.outgoingProcess, (j) => this.onOutgoingProcess(j))
    scheduler.on(JOB.outgoingSettle, (j) => this.onOutgoingSettle(j))
    scheduler.on(JOB.outgoingReturn, (j) => this.onOutgoingReturned(j))
    scheduler.on(JOB.incomingTimeout, (j) => this.onIncomingTimeout(j))
    scheduler.on(JOB.incomingSettle, (j) => this.onIncomingSettle(j))
    scheduler.on(JOB.quoteExpire, (j) => this.onQuoteExpired(j))
  }

  // ---------------------------------------------------------------- helpers

  private newId(prefix: string, t: number): string {
    return this.store.ids.next(prefix, t)
  }

  private reference(t: number): string {
    const n = (this.store.ids.sequence + 1).toString(36).toUpperCase()
    return `SBX-${t.toString(36).toUpperCase().slice(-5)}${n}-REF`
  }

  private journal(entry: Omit<JournalEntry, 'at'>, at: number): void {
    this.store.journal.push({ ...entry, at: iso(at) })
  }

  /** Move money on an internal account; the only place balances change. Never below zero. */
  private post(account: InternalAccountRec, delta: number, kind: JournalEntry['kind'], ref: string, at: number): void {
    const next = account.data.balance.amount + delta
    if (next < 0) {
      // Callers check first; reaching this is a bug, and refusing keeps the ledger right.
      throw new ApiError(500, 'INTERNAL_ERROR', `Ledger refused to take ${account.id} below zero`)
    }
    if (!Number.isSafeInteger(next)) {
      throw new ApiError(400, 'AMOUNT_OUT_OF_RANGE', 'The balance would exceed the largest amount the sandbox can hold')
    }
    account.data.balance = { amount: next, currency: account.data.balance.currency }
    account.data.updatedAt = iso(at)
    this.journal({ accountId: account.id, delta, kind, ref }, at)
  }

  customer(id: string): CustomerRec {
    const c = this.store.customers.get(id)
    if (!c) throw notFound('USER_NOT_FOUND', `Customer ${id} not found`, { customerId: id })
    return c
  }

  externalAccount(id: string): ExternalAccountRec {
    const a = this.store.externalAccounts.get(id)
    if (!a) throw notFound(REFERENCE_NOT_FOUND, `External account ${id} not found`, { externalAccountId: id })
    return a
  }

  internalAccount(id: string): InternalAccountRec {
    const a = this.store.internalAccounts.get(id)
    if (!a) throw notFound(REFERENCE_NOT_FOUND, `Internal account ${id} not found`, { accountId: id })
    return a
  }

  transaction(id: string): TransactionRec {
    const t = this.store.transactions.get(id)
    if (!t) throw notFound('TRANSACTION_NOT_FOUND', `Transaction ${id} not found`, { transactionId: id })
    return t
  }

  quote(id: string): QuoteRec {
    const q = this.store.quotes.get(id)
    if (!q) throw notFound('QUOTE_NOT_FOUND', `Quote ${id} not found`, { quoteId: id })
    return q
  }

  /** Who a transaction on this internal account is made for: its customer, or the platform. */
  private ownerOf(account: InternalAccountRec): { customerId: string; platformCustomerId: string } {
    if (account.data.customerId) {
      const c = this.customer(account.data.customerId)
      return { customerId: c.id, platformCustomerId: c.data.platformCustomerId }
    }
    return { customerId: this.store.platform.id, platformCustomerId: this.store.platform.platformCustomerId }
  }

  private requireReadyCustomer(c: CustomerRec): void {
    if (c.data.isDeleted) {
      throw new ApiError(410, 'CUSTOMER_DELETED', `Customer ${c.id} has been deleted`, { customerId: c.id })
    }
    if (c.data.kycStatus !== 'APPROVED') {
      throw new ApiError(403, 'USER_NOT_READY', `Customer ${c.id} is not ready: KYC status is ${c.data.kycStatus}`, {
        customerId: c.id,
        kycStatus: c.data.kycStatus
      })
    }
  }

  // ---------------------------------------------------------------- customers

  private checkCurrencies(list: string[]): void {
    for (const code of list) {
      if (!isKnownCurrency(code)) {
        throw new ApiError(400, 'INVALID_CURRENCY', `Currency ${code} is not supported by the sandbox`, {
          currency: code
        })
      }
    }
    const regions = new Set(list.filter((c) => !isCrypto(c) && c !== 'USD').map((c) => kycRegionOf(c) ?? c))
    if (regions.size > 1) {
      throw new ApiError(
        400,
        'INVALID_INPUT',
        `These currencies have different KYC requirements and need separate customers: ${list.join(', ')}`,
        { currencies: list, kycRegions: [...regions], reason: 'SEPARATE_CUSTOMERS_REQUIRED' }
      )
    }
  }

  private generateUma(base: string): string {
    const slug =
      base
        .toLowerCase()
        .normalize('NFKD')
        .replace(/[^a-z0-9]+/g, '.')
        .replace(/^\.+|\.+$/g, '')
        .slice(0, 32) || 'customer'
    let uma = `$${slug}@${this.store.platform.umaDomain}`
    for (let i = 2; this.store.customerByUma.has(uma); i++) uma = `$${slug}.${i}@${this.store.platform.umaDomain}`
    return uma
  }

  createCustomer(req: CustomerCreateRequest): CustomerObj {
    const t = this.clock.stamp()
    if (req.umaAddress !== undefined && this.store.customerByUma.has(req.umaAddress)) {
      throw conflict('UMA_ADDRESS_EXISTS', `UMA address ${req.umaAddress} is already used by another customer`, {
        umaAddress: req.umaAddress
      })
    }
    if (req.platformCustomerId !== undefined) {
      for (const c of this.store.customers.values()) {
        if (c.data.platformCustomerId === req.platformCustomerId && !c.data.isDeleted) {
          throw conflict(
            'PLATFORM_CUSTOMER_ID_EXISTS',
            `platformCustomerId ${req.platformCustomerId} is already used by ${c.id}`,
            { platformCustomerId: req.platformCustomerId, customerId: c.id }
          )
        }
      }
    }
    const currencies = req.currencies ?? currenciesForRegion(req.region)
    this.checkCurrencies(currencies)
    const id = this.newId('Customer', t)
    const platformCustomerId = req.platformCustomerId ?? `pc_${id.slice(-12)}`
    const data: CustomerObj = {
      id,
      platformCustomerId,
      customerType: req.customerType,
      ...(req.region !== undefined ? { region: req.region } : {}),
      currencies,
      umaAddress: req.umaAddress ?? this.generateUma(req.fullName ?? platformCustomerId),
      kycStatus: kycForFullName(req.fullName),
      ...(req.fullName !== undefined ? { fullName: req.fullName } : {}),
      ...(req.birthDate !== undefined ? { birthDate: req.birthDate } : {}),
      ...(req.nationality !== undefined ? { nationality: req.nationality } : {}),
      ...(req.address !== undefined ? { address: { ...req.address } } : {}),
      createdAt: iso(t),
      updatedAt: iso(t),
      isDeleted: false
    }
    const rec: CustomerRec = { t, id, data, meta: { internalAccounts: {} } }
    this.store.addCustomer(rec)
    for (const cur of currencies) this.openInternalAccount(rec, cur, t)
    this.changed()
    return data
  }

  /** The platform's internal accounts, one per configured currency (reference: created with the platform). */
  openPlatformAccounts(): void {
    const t = this.clock.stamp()
    const have = new Set(this.listPlatformInternalAccounts().map((a) => a.balance.currency.code))
    for (const cur of PLATFORM_CURRENCIES) if (!have.has(cur)) this.openInternalAccount(undefined, cur, t)
    this.changed()
  }

  /** A customer's internal account in `cur`, opened when the customer is created (reference: automatic). */
  openInternalAccount(owner: CustomerRec | undefined, cur: string, t: number): InternalAccountRec {
    const id = this.newId('InternalAccount', t)
    const crypto = isCrypto(cur)
    const reference = `FUND-${id.slice(-10).toUpperCase()}`
    const instruction: PaymentInstruction = crypto
      ? {
          accountOrWalletInfo: {
            accountType: 'SPARK_WALLET',
            assetType: cur === 'BTC' ? 'BTC' : 'USDB',
            address: `sandbox-deposit-${id.slice(-12)}`,
            reference
          },
          instructionsNotes: 'Sandbox: use POST /sandbox/internal-accounts/{id}/fund to add funds.',
          isPlatformAccount: !owner
        }
      : {
          accountOrWalletInfo: {
            ...fiatFundingAccount(cur, this.store.ids.sequence),
            bankName: 'Paydesk Sandbox Bank',
            reference
          },
          instructionsNotes: `Include reference ${reference} in the transfer memo. Sandbox: use POST /sandbox/internal-accounts/{id}/fund instead.`,
          isPlatformAccount: !owner
        }
    const rec: InternalAccountRec = {
      t,
      id,
      data: {
        id,
        type: crypto ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT',
        ...(owner ? { customerId: owner.id } : {}),
        balance: amountOf(0, cur),
        fundingPaymentInstructions: [instruction],
        createdAt: iso(t),
        updatedAt: iso(t)
      },
      meta: { platform: !owner }
    }
    this.store.addInternalAccount(rec)
    if (owner) owner.meta.internalAccounts[cur] = id
    return rec
  }

  getCustomer(id: string): CustomerObj {
    return this.customer(id).data
  }

  updateCustomer(id: string, req: CustomerUpdateRequest): CustomerObj {
    const c = this.customer(id)
    if (c.data.isDeleted)
      throw new ApiError(410, 'CUSTOMER_DELETED', `Customer ${id} has been deleted`, { customerId: id })
    if (
      req.umaAddress !== undefined &&
      req.umaAddress !== c.data.umaAddress &&
      this.store.customerByUma.has(req.umaAddress)
    ) {
      throw conflict('UMA_ADDRESS_EXISTS', `UMA address ${req.umaAddress} is already used by another customer`, {
        umaAddress: req.umaAddress
      })
    }
    if (req.platformCustomerId !== undefined && req.platformCustomerId !== c.data.platformCustomerId) {
      for (const o of this.store.customers.values()) {
        if (o.id !== id && o.data.platformCustomerId === req.platformCustomerId && !o.data.isDeleted) {
          throw conflict(
            'PLATFORM_CUSTOMER_ID_EXISTS',
            `platformCustomerId ${req.platformCustomerId} is already used by ${o.id}`,
            {
              platformCustomerId: req.platformCustomerId
            }
          )
        }
      }
    }
    if (req.currencies !== undefined) this.checkCurrencies(req.currencies)
    const t = this.clock.stamp()
    if (req.umaAddress !== undefined) this.store.setCustomerUma(c, req.umaAddress)
    if (req.platformCustomerId !== undefined) c.data.platformCustomerId = req.platformCustomerId
    if (req.fullName !== undefined) {
      c.data.fullName = req.fullName
      c.data.kycStatus = kycForFullName(req.fullName)
    }
    if (req.birthDate !== undefined) c.data.birthDate = req.birthDate
    if (req.nationality !== undefined) c.data.nationality = req.nationality
    if (req.address !== undefined) c.data.address = { ...req.address }
    if (req.currencies !== undefined) {
      c.data.currencies = req.currencies
      for (const cur of req.currencies) if (!c.meta.internalAccounts[cur]) this.openInternalAccount(c, cur, t)
    }
    c.data.updatedAt = iso(t)
    this.changed()
    return c.data
  }

  deleteCustomer(id: string): CustomerObj {
    const c = this.customer(id)
    if (c.data.isDeleted)
      throw new ApiError(410, 'CUSTOMER_DELETED', `Customer ${id} has already been deleted`, { customerId: id })
    c.data.isDeleted = true
    c.data.updatedAt = iso(this.clock.stamp())
    this.changed()
    return c.data
  }

  listCustomers(q: CustomerListQuery): Page<CustomerRec> {
    const ms = (s: string | undefined) => (s === undefined ? undefined : Date.parse(s))
    const createdAfter = ms(q.createdAfter)
    const createdBefore = ms(q.createdBefore)
    const updatedAfter = ms(q.updatedAfter)
    const updatedBefore = ms(q.updatedBefore)
    return paginate(this.store.customerIndex, {
      limit: q.limit,
      cursor: q.cursor,
      order: 'desc',
      from: createdAfter,
      to: createdBefore,
      predicate: (r) => {
        const d = r.data
        if (!q.isIncludingDeleted && d.isDeleted) return false
        if (q.platformCustomerId !== undefined && d.platformCustomerId !== q.platformCustomerId) return false
        if (q.customerType !== undefined && d.customerType !== q.customerType) return false
        if (q.region !== undefined && d.region !== q.region) return false
        if (q.currency !== undefined && !(d.currencies ?? []).includes(q.currency)) return false
        if (q.umaAddress !== undefined && d.umaAddress !== q.umaAddress) return false
        if (updatedAfter !== undefined || updatedBefore !== undefined) {
          const u = Date.parse(d.updatedAt)
          if (updatedAfter !== undefined && u < updatedAfter) return false
          if (updatedBefore !== undefined && u > updatedBefore) return false
        }
        return true
      }
    })
  }

  // ---------------------------------------------------------------- external accounts

  createExternalAccount(req: ExternalAccountCreateRequest): ExternalAccountObj {
    const owner = req.customerId !== undefined ? this.customer(req.customerId) : undefined
    if (owner?.data.isDeleted) {
      throw new ApiError(410, 'CUSTOMER_DELETED', `Customer ${owner.id} has been deleted`, { customerId: owner.id })
    }
    const info = req.accountInfo as unknown as Record<string, unknown> & { accountType: string }
    const wallet = isWalletAccountType(info.accountType)
    if (!isKnownCurrency(req.currency)) {
      throw new ApiError(400, 'INVALID_CURRENCY', `Currency ${req.currency} is not supported by the sandbox`, {
        currency: req.currency
      })
    }
    if (wallet && !isCrypto(req.currency)) {
      throw new ApiError(
        400,
        'INVALID_CURRENCY',
        `A ${info.accountType} account holds a crypto currency (BTC, USDC, USDB), not ${req.currency}`,
        {
          currency: req.currency
        }
      )
    }
    if (req.defaultUmaDepositAccount === true && !owner) {
      throw invalidInput(
        'defaultUmaDepositAccount needs a customerId: only a customer has a UMA address to deposit to',
        {
          field: 'defaultUmaDepositAccount'
        }
      )
    }
    const bankName = typeof info.bankName === 'string' ? info.bankName : undefined
    if (!wallet && (BANK_NAME_REQUIRED.has(req.currency) || bankName !== undefined)) {
      if (bankName === undefined) {
        throw invalidInput(`accountInfo.bankName is required for ${req.currency} accounts (use GET /discoveries)`, {
          field: 'accountInfo.bankName'
        })
      }
      if (BANK_NAME_REQUIRED.has(req.currency) && !isDiscoveredBankName(bankName, req.currency)) {
        throw invalidInput(
          `accountInfo.bankName "${bankName}" is not a bankName returned by GET /discoveries?currency=${req.currency}`,
          { field: 'accountInfo.bankName', bankName }
        )
      }
    }
    const identifier = accountInfoIdentifier(info) ?? ''
    for (const a of owner
      ? (this.store.externalByCustomer.get(owner.id)?.items ?? [])
      : this.store.externalIndex.items) {
      if (
        (a.data.customerId ?? undefined) === owner?.id &&
        a.data.accountInfo.accountType === info.accountType &&
        a.meta.identifier === identifier &&
        a.data.currency === req.currency
      ) {
        throw conflict('EXTERNAL_ACCOUNT_EXISTS', `This account is already registered as ${a.id}`, {
          externalAccountId: a.id
        })
      }
    }
    const verification = wallet ? undefined : beneficiaryVerification(identifier)
    if (verification === 'INVALID_ACCOUNT') {
      throw new ApiError(400, 'INVALID_BANK_ACCOUNT', 'The bank rejected the account details (invalid account)', {
        identifierSuffix: identifier.slice(-3)
      })
    }
    const t = this.clock.stamp()
    const id = this.newId('ExternalAccount', t)
    // Platform accounts and wallets need no verification; a customer's bank account is verified first.
    const status: ExternalAccountObj['status'] = wallet || !owner ? 'ACTIVE' : 'PENDING'
    const data: ExternalAccountObj = {
      id,
      status,
      currency: req.currency,
      // The published API returns paymentRails on every bank account; a request may leave them out (spec 2.6).
      accountInfo:
        wallet || info.paymentRails !== undefined
          ? structuredClone(info)
          : {
              ...structuredClone(info),
              paymentRails: defaultPaymentRails(req.currency, 'provider' in info && 'phoneNumber' in info)
            },
      ...(owner ? { customerId: owner.id } : {}),
      ...(req.platformAccountId !== undefined ? { platformAccountId: req.platformAccountId } : {}),
      defaultUmaDepositAccount: req.defaultUmaDepositAccount === true,
      ...(wallet ? { cryptoNetwork: req.cryptoNetwork } : {}),
      createdAt: iso(t),
      updatedAt: iso(t)
    }
    if (verification) this.applyVerification(data, verification)
    const rec: ExternalAccountRec = { t, id, data, meta: { identifier } }
    if (data.defaultUmaDepositAccount && owner) this.clearDefaultDeposit(owner.id, t)
    this.store.addExternalAccount(rec)
    if (status === 'PENDING') {
      const seconds =
        verification === 'PENDING' ? DURATIONS.beneficiaryVerificationPending : DURATIONS.accountVerification
      this.scheduler.schedule(JOB.accountVerify, id, this.clock.delay(seconds))
    }
    this.changed()
    return data
  }

  private applyVerification(
    data: ExternalAccountObj,
    v: Exclude<ReturnType<typeof beneficiaryVerification>, 'INVALID_ACCOUNT'>
  ): void {
    data.beneficiaryVerificationStatus = v
    const name = data.accountInfo.beneficiary as
      | { fullName?: string; legalName?: string; businessInfo?: { legalName?: string } }
      | undefined
    const fullName = name?.fullName ?? name?.legalName ?? name?.businessInfo?.legalName
    if (v === 'MATCHED' && fullName) data.beneficiaryVerifiedData = { fullName }
    else if (v === 'PARTIAL_MATCH' && fullName) {
      const parts = fullName.split(/\s+/)
      data.beneficiaryVerifiedData = {
        fullName: parts.length > 1 ? `${parts[0]?.[0] ?? ''}. ${parts.slice(1).join(' ')}` : `${fullName} Jr`
      }
    } else if (v === 'NOT_MATCHED') data.beneficiaryVerifiedData = { fullName: 'Alex Unrelated Holder' }
    else delete data.beneficiaryVerifiedData
  }

  private clearDefaultDeposit(customerId: string, t: number): void {
    for (const a of this.store.externalByCustomer.get(customerId)?.items ?? []) {
      if (a.data.defaultUmaDepositAccount) {
        a.data.defaultUmaDepositAccount = false
        a.data.updatedAt = iso(t)
      }
    }
  }

  getExternalAccount(id: string): ExternalAccountObj {
    return this.externalAccount(id).data
  }

  updateExternalAccount(id: string, req: ExternalAccountUpdateRequest): ExternalAccountObj {
    const a = this.externalAccount(id)
    // The same rules as the form's: a wallet has no beneficiary; a beneficiary meets its currency's minimums. The
    // details name each refused field by its request path, so Paydesk shows the refusal at that field.
    const checked = externalAccountUpdateFor({
      currency: a.data.currency,
      accountType: a.data.accountInfo.accountType
    }).safeParse(req)
    if (!checked.success) throw validationError('external account update', checked.error.issues)
    const t = this.clock.stamp()
    if (req.platformAccountId !== undefined) a.data.platformAccountId = req.platformAccountId
    if (req.beneficiary !== undefined) {
      a.data.accountInfo = { ...a.data.accountInfo, beneficiary: structuredClone(req.beneficiary) }
      const v = beneficiaryVerification(a.meta.identifier)
      if (v !== 'INVALID_ACCOUNT' && a.data.beneficiaryVerificationStatus !== 'PENDING')
        this.applyVerification(a.data, v)
      if (a.data.status === 'ACTIVE') {
        a.data.status = 'UNDER_REVIEW'
        this.scheduler.cancel(id, JOB.accountReview)
        this.scheduler.schedule(JOB.accountReview, id, this.clock.delay(DURATIONS.beneficiaryReview))
      }
    }
    a.data.updatedAt = iso(t)
    this.changed()
    return a.data
  }

  deleteExternalAccount(id: string): void {
    const a = this.externalAccount(id)
    const pending = (this.store.txByReceiver.get(id)?.items ?? []).find((tx) => PENDING_STATUSES.has(tx.data.status))
    if (pending) {
      throw conflict(
        'EXTERNAL_ACCOUNT_IN_USE',
        `External account ${id} is referenced by pending transaction ${pending.id}; try again once it has settled`,
        { externalAccountId: id, transactionId: pending.id, transactionStatus: pending.data.status }
      )
    }
    this.scheduler.cancel(id)
    this.store.removeExternalAccount(a)
    this.changed()
  }

  listExternalAccounts(q: ExternalAccountListQuery): Page<ExternalAccountRec> {
    const index: SortedIndex<ExternalAccountRec> | undefined =
      q.customerId !== undefined ? this.store.externalByCustomer.get(q.customerId) : this.store.externalIndex
    return paginate(index, {
      limit: q.limit,
      cursor: q.cursor,
      order: 'desc',
      predicate: (r) =>
        r.data.customerId !== undefined &&
        (q.currency === undefined || r.data.currency === q.currency) &&
        (q.accountType === undefined || r.data.accountInfo.accountType === q.accountType)
    })
  }

  /** Platform external accounts, newest first, paged as the published API does. */
  listPlatformExternalAccounts(q: PlatformExternalAccountQuery): Page<ExternalAccountRec> {
    return paginate(this.store.externalIndex, {
      limit: q.limit,
      cursor: q.cursor,
      order: 'desc',
      predicate: (r) => r.data.customerId === undefined && (q.currency === undefined || r.data.currency === q.currency)
    })
  }

  private onAccountVerified(job: Job): void {
    const a = this.store.externalAccounts.get(job.ref)
    if (!a || a.data.status !== 'PENDING') return
    a.data.status = 'ACTIVE'
    if (a.data.beneficiaryVerificationStatus === 'PENDING') this.applyVerification(a.data, 'MATCHED')
    a.data.updatedAt = iso(this.clock.now())
  }

  private onAccountReviewed(job: Job): void {
    const a = this.store.externalAccounts.get(job.ref)
    if (!a || a.data.status !== 'UNDER_REVIEW') return
    a.data.status = 'ACTIVE'
    a.data.updatedAt = iso(this.clock.now())
  }

  // ---------------------------------------------------------------- internal accounts

  listPlatformInternalAccounts(currencyFilter?: string): InternalAccountRec['data'][] {
    return this.store.internalIndex.items
      .filter(
        (r) => r.meta.platform && (currencyFilter === undefined || r.data.balance.currency.code === currencyFilter)
      )
      .map((r) => r.data)
  }

  listCustomerInternalAccounts(q: InternalAccountQuery): Page<InternalAccountRec> {
    return paginate(this.store.internalIndex, {
      limit: q.limit,
      cursor: q.cursor,
      order: 'asc',
      predicate: (r) =>
        !r.meta.platform &&
        (q.customerId === undefined || r.data.customerId === q.customerId) &&
        (q.currency === undefined || r.data.balance.currency.code === q.currency) &&
        (q.type === undefined || r.data.type === q.type)
    })
  }

  fund(accountId: string, amount: number): InternalAccountRec['data'] {
    const a = this.internalAccount(accountId)
    const t = this.clock.stamp()
    this.post(a, amount, 'FUNDING', `fund:${t}`, t)
    this.changed()
    return a.data
  }

  // ---------------------------------------------------------------- transfers out

  /** Common checks of a payment from an internal account to an external account. */
  private checkPayment(source: InternalAccountRec, dest: ExternalAccountRec): void {
    if (source.data.customerId) this.requireReadyCustomer(this.customer(source.data.customerId))
    if (source.data.customerId && dest.data.customerId !== source.data.customerId) {
      throw invalidInput(
        `Destination ${dest.id} does not belong to customer ${source.data.customerId}, who owns the source account`,
        { sourceCustomerId: source.data.customerId, destinationCustomerId: dest.data.customerId ?? null }
      )
    }
    if (dest.data.status !== 'ACTIVE') {
      throw conflict(
        'EXTERNAL_ACCOUNT_NOT_ACTIVE',
        `External account ${dest.id} is ${dest.data.status}; only ACTIVE accounts can receive payments`,
        { externalAccountId: dest.id, status: dest.data.status }
      )
    }
  }

  transferOut(req: TransferOutRequest): TransactionObj {
    const source = this.internalAccount(req.source.accountId)
    const dest = this.externalAccount(req.destination.accountId)
    const cur = source.data.balance.currency.code
    if (dest.data.currency !== cur) {
      throw new ApiError(
        400,
        'INVALID_CURRENCY',
        `Transfer-out moves one currency: the source holds ${cur}, the destination ${dest.data.currency} (use a quote to convert)`,
        { sourceCurrency: cur, destinationCurrency: dest.data.currency }
      )
    }
    this.checkPayment(source, dest)
    const fee = OUTGOING_FIXED_FEE
    const balance = source.data.balance.amount
    const amount = req.amount ?? balance - fee
    if (amount <= 0) {
      throw new ApiError(
        400,
        'INVALID_AMOUNT',
        `Nothing to transfer: the balance (${balance}) does not cover the fee (${fee})`,
        {
          balance,
          fee
        }
      )
    }
    const total = amount + fee
    if (!Number.isSafeInteger(total) || total > balance) {
      throw new ApiError(
        400,
        'INVALID_AMOUNT',
        `Insufficient balance: ${source.id} holds ${balance}, the transfer needs ${total} (amount ${amount} + fee ${fee})`,
        {
          reason: 'INSUFFICIENT_FUNDS',
          balance,
          amount,
          fee,
          required: total
        }
      )
    }
    const scenario = transferScenario(dest.meta.identifier)
    const t = this.clock.stamp()
    const id = this.newId('Transaction', t)
    const owner = this.ownerOf(source)
    const immediateFailure = scenario === 'INSUFFICIENT_FUNDS' || scenario === 'ACCOUNT_CLOSED'
    const data: TransactionObj = {
      id,
      status: immediateFailure ? 'FAILED' : 'PENDING',
      type: 'OUTGOING',
      source: { sourceType: 'ACCOUNT', accountId: source.id, currency: cur },
      destination: { destinationType: 'ACCOUNT', accountId: dest.id, currency: cur },
      customerId: owner.customerId,
      platformCustomerId: owner.platformCustomerId,
      createdAt: iso(t),
      updatedAt: iso(t),
      sentAmount: amountOf(total, cur),
      receivedAmount: amountOf(amount, cur),
      exchangeRate: 1,
      fees: fee,
      rateDetails: {
        counterpartyMultiplier: 1,
        counterpartyFixedFee: 0,
        gridApiMultiplier: 1,
        gridApiFixedFee: fee,
        gridApiVariableFeeRate: 0,
        gridApiVariableFeeAmount: 0
      },
      ...(immediateFailure ? { failureReason: 'QUOTE_EXECUTION_FAILED' } : {})
    }
    const rec: TransactionRec = {
      t,
      id,
      data,
      meta: { kind: 'TRANSFER_OUT', scenario: `T:${scenario}`, sender: source.id, receiver: dest.id }
    }
    if (!immediateFailure) {
      this.post(source, -amount, 'TRANSFER', id, t)
      this.post(source, -fee, 'FEE', id, t)
      rec.meta.debitAccountId = source.id
      rec.meta.debited = total
      const wait = scenario === 'PENDING_THEN_FAIL' ? DURATIONS.pendingThenFail : DURATIONS.outgoingPending
      this.scheduler.schedule(JOB.outgoingProcess, id, this.clock.delay(wait))
    }
    this.store.addTransaction(rec)
    this.changed()
    return data
  }

  /** PENDING → PROCESSING (or, for the 005 suffix, straight to FAILED after its long pending time). */
  private onOutgoingProcess(job: Job): void {
    const rec = this.store.transactions.get(job.ref)
    if (!rec || rec.data.status !== 'PENDING') return
    const now = this.clock.now()
    if (rec.meta.scenario === 'T:PENDING_THEN_FAIL') {
      this.failOutgoing(rec, 'COUNTERPARTY_POST_TX_FAILED', 'COMPLETED', 'TRANSACTION_FAILED', now)
      return
    }
    this.store.setTxStatus(rec, 'PROCESSING')
    rec.data.updatedAt = iso(now)
    this.scheduleSettle(rec)
  }

  private scheduleSettle(rec: TransactionRec): void {
    const slow = rec.meta.scenario === 'Q:SLOW'
    this.scheduler.schedule(
      JOB.outgoingSettle,
      rec.id,
      this.clock.delay(slow ? DURATIONS.quoteSlow : DURATIONS.outgoingProcessing)
    )
  }

  /** PROCESSING → COMPLETED, or FAILED per the suffix scenario. */
  private onOutgoingSettle(job: Job): void {
    const rec = this.store.transactions.get(job.ref)
    if (!rec || rec.data.status !== 'PROCESSING') return
    const now = this.clock.now()
    switch (rec.meta.scenario) {
      case 'T:REJECTED_BY_BANK':
      case 'Q:DELIVERY_FAILS':
        this.failOutgoing(rec, 'COUNTERPARTY_POST_TX_FAILED', 'COMPLETED', 'TRANSACTION_FAILED', now)
        return
      case 'Q:USER_CANCELS':
        this.failOutgoing(rec, 'COUNTERPARTY_POST_TX_FAILED', 'COMPLETED', 'USER_CANCELLATION', now)
        return
      case 'Q:PAYOUT_AND_REFUND_FAIL':
        this.failOutgoing(rec, 'COUNTERPARTY_POST_TX_FAILED', 'FAILED', 'TRANSACTION_FAILED', now)
        return
      default:
        this.store.setTxStatus(rec, 'COMPLETED')
        rec.data.settledAt = iso(now)
        rec.data.updatedAt = iso(now)
        this.syncQuote(rec)
        if (rec.meta.scenario === 'Q:RETURNED') {
          this.scheduler.schedule(JOB.outgoingReturn, rec.id, this.clock.delay(DURATIONS.quoteReturned))
        }
    }
  }

  /** Quote suffix 005: a completed payout comes back from the bank. */
  private onOutgoingReturned(job: Job): void {
    const rec = this.store.transactions.get(job.ref)
    if (!rec || rec.data.status !== 'COMPLETED') return
    this.failOutgoing(rec, 'COUNTERPARTY_POST_TX_FAILED', 'COMPLETED', 'TRANSACTION_FAILED', this.clock.now())
  }

  /** FAILED with a reason; money taken from an internal account goes back unless the refund itself fails. */
  private failOutgoing(
    rec: TransactionRec,
    reason: string,
    refundStatus: 'COMPLETED' | 'FAILED',
    refundReason: string,
    now: number
  ): void {
    this.store.setTxStatus(rec, 'FAILED')
    rec.data.failureReason = reason
    rec.data.updatedAt = iso(now)
    if (rec.meta.debited !== undefined && rec.meta.debitAccountId) {
      rec.data.refund = {
        reference: `${rec.id.slice(-12).toUpperCase()}-REFUND`,
        initiatedAt: iso(now),
        status: refundStatus,
        ...(refundStatus === 'COMPLETED' ? { settledAt: iso(now) } : {}),
        reason: refundReason
      }
      const account = this.store.internalAccounts.get(rec.meta.debitAccountId)
      if (refundStatus === 'COMPLETED' && account) this.post(account, rec.meta.debited, 'REFUND', rec.id, now)
    }
    this.syncQuote(rec)
  }

  // ---------------------------------------------------------------- quotes

  createQuote(req: QuoteCreateRequest): QuoteRec['data'] {
    const source = this.internalAccount(req.source.accountId)
    // An UMA address destination is a receiver outside this sandbox: no account to check, it always succeeds.
    const toAccount = req.destination.destinationType === 'ACCOUNT' ? req.destination : undefined
    const toUma = req.destination.destinationType === 'UMA_ADDRESS' ? req.destination : undefined
    const dest = toAccount ? this.externalAccount(toAccount.accountId) : undefined
    if (
      req.source.customerId !== undefined &&
      source.data.customerId !== undefined &&
      req.source.customerId !== source.data.customerId
    ) {
      throw invalidInput(`source.customerId ${req.source.customerId} does not own ${source.id}`, {
        field: 'source.customerId'
      })
    }
    if (req.source.customerId !== undefined) this.customer(req.source.customerId)
    if (dest) this.checkPayment(source, dest)
    const sending = source.data.balance.currency.code
    const receiving = dest ? dest.data.currency : (toUma?.currency ?? sending)
    if (!isKnownCurrency(receiving)) {
      throw invalidInput(`destination.currency ${receiving} is not a currency this sandbox knows`, {
        field: 'destination.currency'
      })
    }
    const receiver = dest
      ? { destinationType: 'ACCOUNT', accountId: dest.id }
      : { destinationType: 'UMA_ADDRESS', umaAddress: toUma?.umaAddress }
    const fee = OUTGOING_FIXED_FEE
    let total: number
    let received: number
    if (req.lockedCurrencySide === 'SENDING') {
      total = req.lockedCurrencyAmount
      received = convertMinor(total - fee, sending, receiving)
    } else {
      received = req.lockedCurrencyAmount
      total = Math.max(1, minorNeededFor(received, sending, receiving)) + fee
    }
    if (total - fee <= 0 || received <= 0 || !Number.isSafeInteger(total)) {
      throw new ApiError(400, 'INVALID_AMOUNT', `Amount too small: after the fee of ${fee} nothing would be received`, {
        totalSendingAmount: total,
        totalReceivingAmount: received,
        fee
      })
    }
    if (req.immediatelyExecute === true) this.checkQuoteFunds(source, total)
    const t = this.clock.stamp()
    const quoteId = this.newId('Quote', t)
    const txId = this.newId('Transaction', t)
    const owner = this.ownerOf(source)
    const rate = exchangeRate(sending, receiving)
    const rateDetails = {
      counterpartyMultiplier: 1 / rate,
      counterpartyFixedFee: 0,
      gridApiMultiplier: 1,
      gridApiFixedFee: fee,
      gridApiVariableFeeRate: 0,
      gridApiVariableFeeAmount: 0
    }
    const expiresAt = t + this.clock.delay(DURATIONS.quoteExpiry)
    const scenario: QuoteScenario = dest ? quoteScenario(dest.meta.identifier) : 'SUCCESS'
    const quote: QuoteRec = {
      t,
      id: quoteId,
      data: {
        id: quoteId,
        status: 'PENDING',
        createdAt: iso(t),
        expiresAt: iso(expiresAt),
        source: {
          sourceType: 'ACCOUNT',
          accountId: source.id,
          ...(owner.customerId.startsWith('Customer:') ? { customerId: owner.customerId } : {})
        },
        destination: {
          ...receiver,
          ...(toAccount?.paymentRail ? { paymentRail: toAccount.paymentRail } : {}),
          ...(toUma ? { currency: receiving } : {})
        },
        sendingCurrency: currency(sending),
        receivingCurrency: currency(receiving),
        totalSendingAmount: total,
        totalReceivingAmount: received,
        exchangeRate: rate,
        feesIncluded: fee,
        transactionId: txId,
        ...(req.description !== undefined ? { description: req.description } : {}),
        rateDetails
      },
      meta: { scenario, sourceInternalAccountId: source.id, customerId: owner.customerId }
    }
    const tx: TransactionRec = {
      t,
      id: txId,
      data: {
        id: txId,
        status: 'PENDING',
        type: 'OUTGOING',
        source: { sourceType: 'ACCOUNT', accountId: source.id, currency: sending },
        destination: { ...receiver, currency: receiving },
        customerId: owner.customerId,
        platformCustomerId: owner.platformCustomerId,
        createdAt: iso(t),
        updatedAt: iso(t),
        ...(req.description !== undefined ? { description: req.description } : {}),
        sentAmount: amountOf(total, sending),
        receivedAmount: amountOf(received, receiving),
        exchangeRate: rate,
        fees: fee,
        quoteId,
        rateDetails
      },
      meta: {
        kind: 'QUOTE',
        scenario: `Q:${scenario}`,
        sender: source.id,
        receiver: dest?.id ?? String(toUma?.umaAddress)
      }
    }
    this.store.quotes.set(quoteId, quote)
    this.store.addTransaction(tx)
    this.scheduler.scheduleAt(JOB.quoteExpire, quoteId, expiresAt)
    if (req.immediatelyExecute === true) this.executeQuote(quoteId, undefined)
    this.changed()
    return quote.data
  }

  getQuote(id: string): QuoteRec['data'] {
    return this.quote(id).data
  }

  private checkQuotePending(q: QuoteRec): void {
    if (q.data.status === 'EXPIRED' || Date.parse(q.data.expiresAt) <= this.clock.now()) {
      throw conflict('QUOTE_EXPIRED', `Quote ${q.id} expired at ${q.data.expiresAt}`, {
        quoteId: q.id,
        expiresAt: q.data.expiresAt
      })
    }
    if (q.data.status !== 'PENDING') {
      throw conflict('QUOTE_NOT_PENDING', `Quote ${q.id} is ${q.data.status}; it can be executed only once`, {
        quoteId: q.id,
        status: q.data.status
      })
    }
  }

  /**
   * Execute a PENDING quote: the internal source account pays totalSendingAmount and the payment starts. A funded
   * amount (sandbox send's currencyAmount) that differs from the quote fails the payment with FUNDING_AMOUNT_MISMATCH.
   */
  executeQuote(quoteId: string, funded: { currencyCode: string; currencyAmount?: number } | undefined): TransactionRec {
    const q = this.quote(quoteId)
    this.checkQuotePending(q)
    const tx = this.transaction(q.data.transactionId)
    if (funded && funded.currencyCode !== q.data.sendingCurrency.code) {
      throw new ApiError(
        400,
        'INVALID_CURRENCY',
        `Quote ${q.id} is funded in ${q.data.sendingCurrency.code}, not ${funded.currencyCode}`,
        {
          expected: q.data.sendingCurrency.code,
          currencyCode: funded.currencyCode
        }
      )
    }
    if (funded?.currencyAmount !== undefined && funded.currencyAmount !== q.data.totalSendingAmount) {
      const now = this.clock.stamp()
      this.scheduler.cancel(q.id, JOB.quoteExpire)
      this.store.setTxStatus(tx, 'FAILED')
      tx.data.failureReason = 'FUNDING_AMOUNT_MISMATCH'
      tx.data.updatedAt = iso(now)
      this.syncQuote(tx)
      this.changed()
      return tx
    }
    const source = this.internalAccount(q.meta.sourceInternalAccountId ?? '')
    const total = q.data.totalSendingAmount
    const fee = q.data.feesIncluded
    this.checkQuoteFunds(source, total)
    if (q.data.destination.destinationType === 'ACCOUNT') {
      this.checkPayment(source, this.externalAccount(String(q.data.destination.accountId)))
    }
    const now = this.clock.stamp()
    this.scheduler.cancel(q.id, JOB.quoteExpire)
    if (q.meta.scenario === 'EXECUTION_FAILS') {
      this.store.setTxStatus(tx, 'FAILED')
      tx.data.failureReason = 'QUOTE_EXECUTION_FAILED'
      tx.data.updatedAt = iso(now)
      this.syncQuote(tx)
      this.changed()
      return tx
    }
    this.post(source, -(total - fee), 'TRANSFER', tx.id, now)
    this.post(source, -fee, 'FEE', tx.id, now)
    tx.meta.debitAccountId = source.id
    tx.meta.debited = total
    this.store.setTxStatus(tx, 'PROCESSING')
    tx.data.updatedAt = iso(now)
    this.syncQuote(tx)
    this.scheduleSettle(tx)
    this.changed()
    return tx
  }

  private checkQuoteFunds(source: InternalAccountRec, total: number): void {
    if (source.data.balance.amount < total) {
      throw new ApiError(
        400,
        'INVALID_AMOUNT',
        `Insufficient balance: ${source.id} holds ${source.data.balance.amount}, the quote needs ${total}`,
        {
          reason: 'INSUFFICIENT_FUNDS',
          balance: source.data.balance.amount,
          required: total
        }
      )
    }
  }

  sandboxSend(req: SandboxSendRequest): TransactionObj {
    return this.executeQuote(req.quoteId, {
      currencyCode: req.currencyCode,
      ...(req.currencyAmount !== undefined ? { currencyAmount: req.currencyAmount } : {})
    }).data
  }

  private syncQuote(tx: TransactionRec): void {
    if (!tx.data.quoteId) return
    const q = this.store.quotes.get(tx.data.quoteId)
    if (!q) return
    const s = tx.data.status
    q.data.status =
      s === 'PENDING' || s === 'PROCESSING' || s === 'COMPLETED' || s === 'FAILED' || s === 'EXPIRED' ? s : 'FAILED'
  }

  private onQuoteExpired(job: Job): void {
    const q = this.store.quotes.get(job.ref)
    if (!q || q.data.status !== 'PENDING') return
    q.data.status = 'EXPIRED'
    const tx = this.store.transactions.get(q.data.transactionId)
    if (tx && tx.data.status === 'PENDING') {
      this.store.setTxStatus(tx, 'EXPIRED')
      tx.data.updatedAt = iso(this.clock.now())
    }
  }

  // ---------------------------------------------------------------- incoming payments

  sandboxReceive(req: SandboxReceiveRequest): TransactionObj {
    const sender = sandboxSender(req.senderUmaAddress)
    if (!sender) {
      throw notFound('USER_NOT_FOUND', `Unknown sandbox sender ${req.senderUmaAddress}`, {
        senderUmaAddress: req.senderUmaAddress,
        knownSenders: [
          '$success.usd@sandbox.uma.money',
          '$success.eur@sandbox.uma.money',
          '$success.mxn@sandbox.uma.money',
          '$pending.long.usd@sandbox.uma.money',
          '$fail.compliance.usd@sandbox.uma.money'
        ]
      })
    }
    let c: CustomerRec | undefined
    if (req.customerId !== undefined) c = this.customer(req.customerId)
    if (req.receiverUmaAddress !== undefined) {
      const byUma = this.store.customerByUma.get(req.receiverUmaAddress)
      if (!byUma) {
        throw notFound('USER_NOT_FOUND', `No customer has the UMA address ${req.receiverUmaAddress}`, {
          receiverUmaAddress: req.receiverUmaAddress
        })
      }
      if (c && c.id !== byUma) {
        throw invalidInput(`receiverUmaAddress ${req.receiverUmaAddress} belongs to ${byUma}, not ${c.id}`, {
          customerId: c.id,
          receiverUmaAddress: req.receiverUmaAddress
        })
      }
      c = this.customer(byUma)
    }
    if (!c) throw invalidInput('Give receiverUmaAddress or customerId')
    this.requireReadyCustomer(c)
    const cur = req.receivingCurrencyCode
    const internalId = c.meta.internalAccounts[cur]
    if (!internalId) {
      throw new ApiError(
        400,
        'INVALID_CURRENCY',
        `Customer ${c.id} cannot receive ${cur} (currencies: ${(c.data.currencies ?? []).join(', ')})`,
        {
          customerId: c.id,
          currency: cur
        }
      )
    }
    // Spec section 1: the default deposit external account if set, else the primary internal account.
    const deposit = (this.store.externalByCustomer.get(c.id)?.items ?? []).find((a) => a.data.defaultUmaDepositAccount)
    if (deposit) {
      if (deposit.data.currency !== cur) {
        throw new ApiError(
          400,
          'INVALID_CURRENCY',
          `The default deposit account ${deposit.id} holds ${deposit.data.currency}, not ${cur}`,
          {
            externalAccountId: deposit.id,
            currency: cur
          }
        )
      }
      if (deposit.data.status !== 'ACTIVE') {
        throw conflict(
          'EXTERNAL_ACCOUNT_NOT_ACTIVE',
          `The default deposit account ${deposit.id} is ${deposit.data.status}; only ACTIVE accounts can receive payments`,
          {
            externalAccountId: deposit.id,
            status: deposit.data.status
          }
        )
      }
    }
    const destinationId = deposit ? deposit.id : internalId
    const t = this.clock.stamp()
    const id = this.newId('Transaction', t)
    const amount = req.receivingCurrencyAmount
    const variable = Math.round(amount * INCOMING_VARIABLE_FEE_RATE)
    const reference = this.reference(t)
    const failsCompliance = sender.behaviour === 'FAIL_COMPLIANCE'
    const data: TransactionObj = {
      id,
      status: failsCompliance ? 'FAILED' : 'PENDING',
      type: 'INCOMING',
      source: { sourceType: 'UMA_ADDRESS', umaAddress: sender.address, currency: sender.currency },
      destination: { destinationType: 'ACCOUNT', accountId: destinationId, currency: cur },
      customerId: c.id,
      platformCustomerId: c.data.platformCustomerId,
      createdAt: iso(t),
      updatedAt: iso(t),
      counterpartyInformation: { FULL_NAME: sender.fullName, NATIONALITY: 'US' },
      receivedAmount: amountOf(amount, cur),
      reconciliationInstructions: { reference },
      rateDetails: {
        gridApiMultiplier: 1 / exchangeRate(sender.currency, cur),
        gridApiFixedFee: INCOMING_FIXED_FEE,
        gridApiVariableFeeRate: INCOMING_VARIABLE_FEE_RATE,
        gridApiVariableFeeAmount: variable
      },
      ...(failsCompliance ? { failureReason: 'PAY_REQUEST_FAILED' } : {})
    }
    const rec: TransactionRec = {
      t,
      id,
      data,
      meta: {
        kind: 'RECEIVE',
        scenario: sender.behaviour,
        sender: sender.address,
        receiver: destinationId,
        reference,
        ...(deposit ? {} : { creditAccountId: internalId, credit: amount })
      }
    }
    if (!failsCompliance) {
      const deadline = t + this.clock.delay(this.options.approvalWindowSeconds)
      rec.meta.approvalDeadline = deadline
      this.scheduler.scheduleAt(JOB.incomingTimeout, id, deadline)
    }
    this.store.addTransaction(rec)
    this.changed()
    return data
  }

  private pendingIncoming(id: string, action: string): TransactionRec {
    const rec = this.transaction(id)
    if (rec.data.type !== 'INCOMING' || rec.data.status !== 'PENDING') {
      throw conflict(
        'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
        `Transaction ${id} cannot be ${action}: it is ${rec.data.type === 'INCOMING' ? rec.data.status : 'an outgoing payment'}, not an incoming payment waiting for approval`,
        { transactionId: id, status: rec.data.status, type: rec.data.type }
      )
    }
    return rec
  }

  approve(id: string, req: ApprovePaymentRequest): TransactionObj {
    const rec = this.pendingIncoming(id, 'approved')
    const now = this.clock.stamp()
    this.scheduler.cancel(id, JOB.incomingTimeout)
    this.store.setTxStatus(rec, 'PROCESSING')
    rec.data.updatedAt = iso(now)
    if (req.receiverCustomerInfo !== undefined) rec.meta.receiverCustomerInfo = req.receiverCustomerInfo
    const seconds = rec.meta.scenario === 'PENDING_LONG' ? DURATIONS.pendingLong : DURATIONS.incomingProcessing
    rec.data.settledAt = iso(now + this.clock.delay(seconds))
    this.scheduler.schedule(JOB.incomingSettle, id, this.clock.delay(seconds))
    this.changed()
    return rec.data
  }

  reject(id: string, req: RejectPaymentRequest): TransactionObj {
    const rec = this.pendingIncoming(id, 'rejected')
    const now = this.clock.stamp()
    this.scheduler.cancel(id, JOB.incomingTimeout)
    this.store.setTxStatus(rec, 'REJECTED')
    rec.data.updatedAt = iso(now)
    if (req.reason !== undefined) rec.meta.rejectReason = req.reason
    this.changed()
    return rec.data
  }

  private onIncomingTimeout(job: Job): void {
    const rec = this.store.transactions.get(job.ref)
    if (!rec || rec.data.type !== 'INCOMING' || rec.data.status !== 'PENDING') return
    this.store.setTxStatus(rec, 'FAILED')
    rec.data.failureReason = 'PAYMENT_APPROVAL_TIMED_OUT'
    rec.data.updatedAt = iso(this.clock.now())
  }

  private onIncomingSettle(job: Job): void {
    const rec = this.store.transactions.get(job.ref)
    if (!rec || rec.data.status !== 'PROCESSING') return
    const now = this.clock.now()
    if (rec.meta.creditAccountId && rec.meta.credit !== undefined) {
      const account = this.store.internalAccounts.get(rec.meta.creditAccountId)
      if (account) this.post(account, rec.meta.credit, 'RECEIPT', rec.id, now)
    }
    this.store.setTxStatus(rec, 'COMPLETED')
    rec.data.settledAt = iso(now)
    rec.data.updatedAt = iso(now)
  }

  // ---------------------------------------------------------------- transactions

  getTransaction(id: string): TransactionObj {
    return this.transaction(id).data
  }

  listTransactions(q: TransactionListQuery): Page<TransactionRec> {
    const s = this.store
    type Cand = { index: SortedIndex<TransactionRec> | undefined; test: (r: TransactionRec) => boolean }
    const cands: Cand[] = []
    if (q.customerId !== undefined)
      cands.push({ index: s.txByCustomer.get(q.customerId), test: (r) => r.data.customerId === q.customerId })
    if (q.platformCustomerId !== undefined)
      cands.push({
        index: s.txByPlatformCustomer.get(q.platformCustomerId),
        test: (r) => r.data.platformCustomerId === q.platformCustomerId
      })
    if (q.status !== undefined && q.type !== undefined) {
      cands.push({
        index: s.txByTypeStatus.get(`${q.type}|${q.status}`),
        test: (r) => r.data.status === q.status && r.data.type === q.type
      })
    } else if (q.status !== undefined) {
      cands.push({ index: s.txByStatus.get(q.status), test: (r) => r.data.status === q.status })
    } else if (q.type !== undefined) {
      cands.push({ index: s.txByType.get(q.type), test: (r) => r.data.type === q.type })
    }
    if (q.senderAccountIdentifier !== undefined)
      cands.push({
        index: s.txBySender.get(q.senderAccountIdentifier),
        test: (r) => r.meta.sender === q.senderAccountIdentifier
      })
    if (q.receiverAccountIdentifier !== undefined)
      cands.push({
        index: s.txByReceiver.get(q.receiverAccountIdentifier),
        test: (r) => r.meta.receiver === q.receiverAccountIdentifier
      })
    if (q.reference !== undefined)
      cands.push({ index: s.txByReference.get(q.reference), test: (r) => r.meta.reference === q.reference })
    let index: SortedIndex<TransactionRec> | undefined = s.txAll
    let chosen: Cand | undefined
    for (const c of cands) {
      if (!c.index) {
        index = undefined
        chosen = c
        break
      }
      if (!chosen || c.index.size < (chosen.index?.size ?? Infinity)) {
        chosen = c
        index = c.index
      }
    }
    const rest = cands.filter((c) => c !== chosen).map((c) => c.test)
    const { fromMs, toMs } = transactionDateRange(q)
    const filterKey = JSON.stringify([
      q.customerId,
      q.platformCustomerId,
      q.status,
      q.type,
      q.senderAccountIdentifier,
      q.receiverAccountIdentifier,
      q.reference,
      fromMs,
      toMs
    ])
    return paginate(index, {
      limit: q.limit,
      cursor: q.cursor,
      order: q.sortOrder,
      from: Number.isFinite(fromMs) ? fromMs : undefined,
      to: Number.isFinite(toMs) ? toMs : undefined,
      predicate: rest.length === 0 ? undefined : (r) => rest.every((f) => f(r)),
      countCache: { map: this.txCountCache, key: filterKey, version: s.txVersion }
    })
  }

  // ---------------------------------------------------------------- checks used by tests and the admin view

  /** Sum of journal entries per account; equals every balance when the ledger is right. */
  ledgerTotals(): Map<string, number> {
    const totals = new Map<string, number>()
    for (const e of this.store.journal) totals.set(e.accountId, (totals.get(e.accountId) ?? 0) + e.delta)
    return totals
  }
}

export type { TransferScenario }
