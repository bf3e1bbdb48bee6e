/** Customers: created with one internal account per currency, updated, soft-deleted and listed. */
import type { CustomerCreateRequest, CustomerListQuery, CustomerUpdateRequest } from '../../shared/api/customer'
import { iso } from '../state/clock'
import { currenciesForRegion, isCrypto, isKnownCurrency, kycRegionOf } from '../state/currencies'
import { ApiError, conflict, refusedAsInvalid } from '../state/sandbox-errors'
import type { CustomerObj, CustomerRec } from '../state/model'
import { paginate, type Page } from '../state/paging'
import { kycForFullName } from './rules'
import { customerDeleted, unsupportedCurrency, type EngineCore } from './core'
import type { InternalAccountOperations } from './internal-accounts'

/** Every currency is known, and they share one KYC region (USD and crypto fit any). */
function checkCurrencies(list: string[]): void {
  for (const code of list) if (!isKnownCurrency(code)) throw unsupportedCurrency(code)
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

const ms = (s: string | undefined): number | undefined => (s === undefined ? undefined : Date.parse(s))

export function customerOperations(core: EngineCore, accounts: Pick<InternalAccountOperations, 'openInternalAccount'>) {
  const { store, clock } = core

  function generateUma(base: string): string {
    const slug =
      base
        .toLowerCase()
        .normalize('NFKD')
        .replace(/[^a-z0-9]+/g, '.')
        .replace(/^\.+|\.+$/g, '')
        .slice(0, 32) || 'customer'
    let uma = `$${slug}@${store.platform.umaDomain}`
    for (let i = 2; store.customerByUma.has(uma); i++) uma = `$${slug}.${i}@${store.platform.umaDomain}`
    return uma
  }

  /**
   * A UMA address names one customer. POST /customers publishes 409 UMA_ADDRESS_EXISTS for a taken one; PATCH
   * publishes no 409, so an update is refused as invalid input (docs/real-service.md, "Errors").
   */
  function requireFreeUma(umaAddress: string, op: 'create' | 'update'): void {
    if (!store.customerByUma.has(umaAddress)) return
    const message = `UMA address ${umaAddress} is already used by another customer`
    if (op === 'create') throw conflict('UMA_ADDRESS_EXISTS', message, { umaAddress })
    throw refusedAsInvalid('UMA_ADDRESS_EXISTS', message, { field: 'umaAddress', umaAddress })
  }

  /**
   * A platformCustomerId names one live customer; `self` may keep its own. Neither operation publishes a code for it:
   * refused as invalid input, the reason in details (docs/real-service.md, "Errors").
   */
  function requireFreePlatformCustomerId(platformCustomerId: string, self?: string): void {
    for (const c of store.customers.values()) {
      if (c.id !== self && c.data.platformCustomerId === platformCustomerId && !c.data.isDeleted) {
        throw refusedAsInvalid(
          'PLATFORM_CUSTOMER_ID_EXISTS',
          `platformCustomerId ${platformCustomerId} is already used by ${c.id}`,
          { field: 'platformCustomerId', platformCustomerId, customerId: c.id }
        )
      }
    }
  }

  return {
    getCustomer(id: string): CustomerObj {
      return core.customer(id).data
    },

    createCustomer(req: CustomerCreateRequest): CustomerObj {
      const t = clock.stamp()
      if (req.umaAddress !== undefined) requireFreeUma(req.umaAddress, 'create')
      if (req.platformCustomerId !== undefined) requireFreePlatformCustomerId(req.platformCustomerId)
      const currencies = req.currencies ?? currenciesForRegion(req.region)
      checkCurrencies(currencies)
      const id = core.newId('Customer', t)
      const platformCustomerId = req.platformCustomerId ?? `pc_${id.slice(-12)}`
      const data: CustomerObj = {
        id,
        platformCustomerId,
        customerType: req.customerType,
        ...(req.region !== undefined ? { region: req.region } : {}),
        currencies,
        umaAddress: req.umaAddress ?? generateUma(req.fullName ?? platformCustomerId),
        kycStatus: kycForFullName(req.fullName),
        ...(req.fullName !== undefined ? { fullName: req.fullName } : {}),
        ...(req.email !== undefined ? { email: req.email } : {}),
        ...(req.birthDate !== undefined ? { birthDate: req.birthDate } : {}),
        ...(req.nationality !== undefined ? { nationality: req.nationality } : {}),
        ...(req.address !== undefined ? { address: { ...req.address } } : {}),
        createdAt: iso(t),
        updatedAt: iso(t),
        isDeleted: false
      }
      const rec: CustomerRec = { t, id, data, meta: { internalAccounts: {} } }
      store.addCustomer(rec)
      for (const cur of currencies) accounts.openInternalAccount(rec, cur, t)
      core.changed()
      return data
    },

    updateCustomer(id: string, req: CustomerUpdateRequest): CustomerObj {
      const c = core.customer(id)
      // PATCH publishes no 410: a deleted customer is refused as invalid input.
      if (c.data.isDeleted)
        throw refusedAsInvalid('CUSTOMER_DELETED', `Customer ${id} has been deleted`, { customerId: id })
      if (req.umaAddress !== undefined && req.umaAddress !== c.data.umaAddress) requireFreeUma(req.umaAddress, 'update')
      if (req.platformCustomerId !== undefined && req.platformCustomerId !== c.data.platformCustomerId) {
        requireFreePlatformCustomerId(req.platformCustomerId, id)
      }
      if (req.currencies !== undefined) checkCurrencies(req.currencies)
      const t = clock.stamp()
      if (req.umaAddress !== undefined) store.setCustomerUma(c, req.umaAddress)
      if (req.platformCustomerId !== undefined) c.data.platformCustomerId = req.platformCustomerId
      if (req.fullName !== undefined) {
        c.data.fullName = req.fullName
        c.data.kycStatus = kycForFullName(req.fullName)
      }
      if (req.email !== undefined) c.data.email = req.email
      if (req.birthDate !== undefined) c.data.birthDate = req.birthDate
      if (req.nationality !== undefined) c.data.nationality = req.nationality
      if (req.address !== undefined) c.data.address = { ...req.address }
      if (req.currencies !== undefined) {
        c.data.currencies = req.currencies
        for (const cur of req.currencies) if (!c.meta.internalAccounts[cur]) accounts.openInternalAccount(c, cur, t)
      }
      c.data.updatedAt = iso(t)
      core.changed()
      return c.data
    },

    deleteCustomer(id: string): CustomerObj {
      const c = core.customer(id)
      if (c.data.isDeleted) throw customerDeleted(id, true)
      c.data.isDeleted = true
      c.data.updatedAt = iso(clock.stamp())
      core.changed()
      return c.data
    },

    listCustomers(q: CustomerListQuery): Page<CustomerRec> {
      const updatedAfter = ms(q.updatedAfter)
      const updatedBefore = ms(q.updatedBefore)
      return paginate(store.customerIndex, {
        limit: q.limit,
        cursor: q.cursor,
        order: 'desc',
        from: ms(q.createdAfter),
        to: ms(q.createdBefore),
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
  }
}
