/**
 * External accounts (customers' and the platform's): registered with the bank's checks, verified and reviewed over
 * time, updated, deleted when no pending payment needs them, and listed.
 */
import {
  accountInfoIdentifier,
  DEFAULT_USD_BANK_ACCOUNT_TYPE,
  isWalletAccountType
} from '../../shared/api/account-info'
import {
  cryptoNetworkOf,
  externalAccountUpdateFor,
  type ExternalAccountCreateRequest,
  type ExternalAccountListQuery,
  type ExternalAccountUpdateRequest,
  type PlatformExternalAccountQuery
} from '../../shared/api/external-account'
import { iso } from '../state/clock'
import { isCrypto, isKnownCurrency } from '../state/currencies'
import { BANK_NAME_REQUIRED, isDiscoveredBankName } from '../state/discovery'
import { ApiError, conflict, invalidInput, refusedAsInvalid, validationError } from '../state/sandbox-errors'
import { defaultPaymentRails } from './funding'
import type { CustomerRec, ExternalAccountObj, ExternalAccountRec } from '../state/model'
import { pageFor, type Page } from '../state/paging'
import { beneficiaryVerification } from './rules'
import { DURATIONS } from '../state/timing'
import { unsupportedCurrency, type EngineCore } from './core'
import { JOB, type JobHandlers } from './jobs'

const PENDING_STATUSES = new Set(['CREATED', 'PENDING', 'PROCESSING'])

type Verification = Exclude<ReturnType<typeof beneficiaryVerification>, 'INVALID_ACCOUNT'>

/** What the bank's beneficiary check found, with the name it holds (a near miss shows the name it has). */
function applyVerification(data: ExternalAccountObj, v: Verification): void {
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

type AccountInfo = Record<string, unknown> & { accountType: string }

/**
 * The accountInfo as stored and answered: what was sent, with what the published API fills in when a request leaves
 * it out (spec 2.6): the payment rails of a bank account, and checking for a USD account that does not say.
 */
function storedAccountInfo(req: ExternalAccountCreateRequest, info: AccountInfo): AccountInfo {
  const stored = structuredClone(info)
  if (isWalletAccountType(info.accountType)) return stored
  if (stored.paymentRails === undefined)
    stored.paymentRails = defaultPaymentRails(req.currency, 'provider' in info && 'phoneNumber' in info)
  if (stored.accountType === 'USD_ACCOUNT' && stored.bankAccountType === undefined)
    stored.bankAccountType = stored.accountCategory ?? DEFAULT_USD_BANK_ACCOUNT_TYPE
  return stored
}

/** The currency, the owner and the bank name suit this kind of account; throws before anything changes. */
function checkNewAccount(req: ExternalAccountCreateRequest, info: AccountInfo, owner: CustomerRec | undefined): void {
  const wallet = isWalletAccountType(info.accountType)
  if (!isKnownCurrency(req.currency)) throw unsupportedCurrency(req.currency)
  if (wallet && !isCrypto(req.currency)) {
    throw new ApiError(
      400,
      'INVALID_CURRENCY',
      `A ${info.accountType} account holds a crypto currency (BTC, USDC, USDB), not ${req.currency}`,
      { currency: req.currency }
    )
  }
  if (req.defaultUmaDepositAccount === true && !owner) {
    throw invalidInput('Only a customer’s account can be their default deposit account: choose the customer', {
      field: 'defaultUmaDepositAccount'
    })
  }
  const bankName = typeof info.bankName === 'string' ? info.bankName : undefined
  if (wallet || !(BANK_NAME_REQUIRED.has(req.currency) || bankName !== undefined)) return
  if (bankName === undefined) {
    throw invalidInput(`Choose the bank: required for ${req.currency} accounts, from the service’s bank list`, {
      field: 'accountInfo.bankName'
    })
  }
  if (BANK_NAME_REQUIRED.has(req.currency) && !isDiscoveredBankName(bankName, req.currency)) {
    throw invalidInput(
      `“${bankName}” is not a bank the service lists for ${req.currency}: choose one from its bank list`,
      { field: 'accountInfo.bankName', bankName }
    )
  }
}

/**
 * The customer a new account is for. Account creation publishes neither 404 nor 410: an unknown or deleted customer
 * is invalid input, the reason in details (docs/real-service.md, "Errors").
 */
function ownerOfNewAccount(core: EngineCore, customerId: string): CustomerRec {
  const owner = core.store.customers.get(customerId)
  if (!owner) {
    throw refusedAsInvalid('USER_NOT_FOUND', `Customer ${customerId} not found`, { field: 'customerId', customerId })
  }
  if (owner.data.isDeleted) {
    throw refusedAsInvalid('CUSTOMER_DELETED', `Customer ${customerId} has been deleted`, {
      field: 'customerId',
      customerId
    })
  }
  return owner
}

export function externalAccountOperations(core: EngineCore) {
  const { store, clock, scheduler } = core

  function requireUnregistered(
    owner: CustomerRec | undefined,
    info: AccountInfo,
    identifier: string,
    currency: string
  ) {
    const candidates = owner ? (store.externalByCustomer.get(owner.id)?.items ?? []) : store.externalIndex.items
    for (const a of candidates) {
      if (
        (a.data.customerId ?? undefined) === owner?.id &&
        a.data.accountInfo.accountType === info.accountType &&
        a.meta.identifier === identifier &&
        a.data.currency === currency
      ) {
        // The create operation's 409 lists no code for it: refused as invalid input (docs/real-service.md, "Errors").
        throw refusedAsInvalid('EXTERNAL_ACCOUNT_EXISTS', `This account is already registered as ${a.id}`, {
          externalAccountId: a.id
        })
      }
    }
  }

  function clearDefaultDeposit(customerId: string, t: number): void {
    for (const a of store.externalByCustomer.get(customerId)?.items ?? []) {
      if (a.data.defaultUmaDepositAccount) {
        a.data.defaultUmaDepositAccount = false
        a.data.updatedAt = iso(t)
      }
    }
  }

  return {
    createExternalAccount(req: ExternalAccountCreateRequest): ExternalAccountObj {
      const owner = req.customerId !== undefined ? ownerOfNewAccount(core, req.customerId) : undefined
      const info = req.accountInfo as unknown as AccountInfo
      const wallet = isWalletAccountType(info.accountType)
      checkNewAccount(req, info, owner)
      const identifier = accountInfoIdentifier(info) ?? ''
      requireUnregistered(owner, info, identifier, req.currency)
      const verification = wallet ? undefined : beneficiaryVerification(identifier)
      if (verification === 'INVALID_ACCOUNT') {
        throw new ApiError(400, 'INVALID_BANK_ACCOUNT', 'The bank rejected the account details (invalid account)', {
          identifierSuffix: identifier.slice(-3)
        })
      }
      const t = clock.stamp()
      const id = core.newId('ExternalAccount', t)
      // Platform accounts and wallets need no verification; a customer's bank account is verified first.
      const status: ExternalAccountObj['status'] = wallet || !owner ? 'ACTIVE' : 'PENDING'
      const data: ExternalAccountObj = {
        id,
        status,
        currency: req.currency,
        accountInfo: storedAccountInfo(req, info),
        ...(owner ? { customerId: owner.id } : {}),
        ...(req.platformAccountId !== undefined ? { platformAccountId: req.platformAccountId } : {}),
        defaultUmaDepositAccount: req.defaultUmaDepositAccount === true,
        ...(wallet ? { cryptoNetwork: cryptoNetworkOf(req) } : {}),
        createdAt: iso(t),
        updatedAt: iso(t)
      }
      if (verification) applyVerification(data, verification)
      const rec: ExternalAccountRec = { t, id, data, meta: { identifier } }
      if (data.defaultUmaDepositAccount && owner) clearDefaultDeposit(owner.id, t)
      store.addExternalAccount(rec)
      if (status === 'PENDING') {
        const seconds =
          verification === 'PENDING' ? DURATIONS.beneficiaryVerificationPending : DURATIONS.accountVerification
        scheduler.schedule(JOB.accountVerify, id, clock.delay(seconds))
      }
      core.changed()
      return data
    },

    getExternalAccount(id: string): ExternalAccountObj {
      return core.externalAccount(id).data
    },

    updateExternalAccount(id: string, req: ExternalAccountUpdateRequest): ExternalAccountObj {
      const a = core.externalAccount(id)
      // The same rules as the form's: a wallet has no beneficiary; a beneficiary meets its currency's minimums. The
      // details name each refused field by its request path, so Paydesk shows the refusal at that field.
      const checked = externalAccountUpdateFor({
        currency: a.data.currency,
        accountType: a.data.accountInfo.accountType
      }).safeParse(req)
      if (!checked.success) throw validationError('external account update', checked.error.issues)
      const t = clock.stamp()
      if (req.platformAccountId !== undefined) a.data.platformAccountId = req.platformAccountId
      if (req.beneficiary !== undefined) {
        a.data.accountInfo = { ...a.data.accountInfo, beneficiary: structuredClone(req.beneficiary) }
        const v = beneficiaryVerification(a.meta.identifier)
        if (v !== 'INVALID_ACCOUNT' && a.data.beneficiaryVerificationStatus !== 'PENDING') applyVerification(a.data, v)
        if (a.data.status === 'ACTIVE') {
          a.data.status = 'UNDER_REVIEW'
          scheduler.cancel(id, JOB.accountReview)
          scheduler.schedule(JOB.accountReview, id, clock.delay(DURATIONS.beneficiaryReview))
        }
      }
      a.data.updatedAt = iso(t)
      core.changed()
      return a.data
    },

    deleteExternalAccount(id: string): void {
      const a = core.externalAccount(id)
      const pending = (store.txByReceiver.get(id)?.items ?? []).find((tx) => PENDING_STATUSES.has(tx.data.status))
      if (pending) {
        throw conflict(
          'EXTERNAL_ACCOUNT_IN_USE',
          `External account ${id} is referenced by pending transaction ${pending.id}; try again once it has settled`,
          { externalAccountId: id, transactionId: pending.id, transactionStatus: pending.data.status },
          // The one undeclared status left (DELETE publishes no 4xx but 401/404): docs/real-service.md, "Errors".
          { retryable: true }
        )
      }
      scheduler.cancel(id)
      store.removeExternalAccount(a)
      core.changed()
    },

    listExternalAccounts(q: ExternalAccountListQuery): Page<ExternalAccountRec> {
      const index = q.customerId !== undefined ? store.externalByCustomer.get(q.customerId) : store.externalIndex
      return pageFor(
        index,
        q,
        'desc',
        (r) =>
          r.data.customerId !== undefined &&
          (q.currency === undefined || r.data.currency === q.currency) &&
          (q.accountType === undefined || r.data.accountInfo.accountType === q.accountType)
      )
    },

    /** Platform external accounts, newest first, paged as the published API does. */
    listPlatformExternalAccounts(q: PlatformExternalAccountQuery): Page<ExternalAccountRec> {
      return pageFor(
        store.externalIndex,
        q,
        'desc',
        (r) => r.data.customerId === undefined && (q.currency === undefined || r.data.currency === q.currency)
      )
    }
  }
}

/** A pending account turns ACTIVE once verified; one under review after a beneficiary change, once reviewed. */
export function externalAccountJobs(core: EngineCore): JobHandlers<'account.verify' | 'account.review'> {
  const activate = (ref: string, from: ExternalAccountObj['status']): ExternalAccountRec | undefined => {
    const a = core.store.externalAccounts.get(ref)
    if (!a || a.data.status !== from) return undefined
    a.data.status = 'ACTIVE'
    a.data.updatedAt = iso(core.clock.now())
    return a
  }
  return {
    [JOB.accountVerify]: (job) => {
      const a = activate(job.ref, 'PENDING')
      if (a?.data.beneficiaryVerificationStatus === 'PENDING') applyVerification(a.data, 'MATCHED')
    },
    [JOB.accountReview]: (job) => {
      activate(job.ref, 'UNDER_REVIEW')
    }
  }
}
