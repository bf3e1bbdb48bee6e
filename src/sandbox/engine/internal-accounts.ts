/** Internal accounts: opened with their customer (or the platform), listed, and funded by the sandbox. */
import type { InternalAccountQuery, PlatformInternalAccountQuery } from '../../shared/api/internal-account'
import { iso } from '../state/clock'
import { amountOf, isCrypto } from '../state/currencies'
import { fiatFundingAccount } from './funding'
import type { CustomerRec, InternalAccountRec, PaymentInstruction } from '../state/model'
import { pageFor, type Page } from '../state/paging'
import type { EngineCore } from './core'

/** Currencies the sandbox platform is configured for (one platform internal account each). */
const PLATFORM_CURRENCIES = ['USD', 'EUR', 'GBP', 'MXN', 'BTC', 'USDC'] as const

/** How a deposit reaches this account: a Spark wallet address for crypto, bank details with a memo for fiat. */
function fundingInstruction(core: EngineCore, id: string, cur: string, isPlatformAccount: boolean): PaymentInstruction {
  const reference = `FUND-${id.slice(-10).toUpperCase()}`
  if (isCrypto(cur)) {
    return {
      accountOrWalletInfo: {
        accountType: 'SPARK_WALLET',
        assetType: cur === 'BTC' ? 'BTC' : 'USDB',
        address: `sandbox-deposit-${id.slice(-12)}`,
        reference
      },
      instructionsNotes: 'Sandbox: use POST /sandbox/internal-accounts/{id}/fund to add funds.',
      isPlatformAccount
    }
  }
  return {
    accountOrWalletInfo: {
      ...fiatFundingAccount(cur, core.store.ids.sequence),
      bankName: 'Paydesk Sandbox Bank',
      reference
    },
    instructionsNotes: `Include reference ${reference} in the transfer memo. Sandbox: use POST /sandbox/internal-accounts/{id}/fund instead.`,
    isPlatformAccount
  }
}

export function internalAccountOperations(core: EngineCore) {
  const { store, clock } = core

  /** A customer's internal account in `cur`, opened when the customer is created (reference: automatic). */
  function openInternalAccount(owner: CustomerRec | undefined, cur: string, t: number): InternalAccountRec {
    const id = core.newId('InternalAccount', t)
    // The instruction is built after the id is taken: fiat details derive from the id sequence.
    const instruction = fundingInstruction(core, id, cur, !owner)
    const rec: InternalAccountRec = {
      t,
      id,
      data: {
        id,
        type: isCrypto(cur) ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT',
        ...(owner ? { customerId: owner.id } : {}),
        balance: amountOf(0, cur),
        fundingPaymentInstructions: [instruction],
        createdAt: iso(t),
        updatedAt: iso(t)
      },
      meta: { platform: !owner }
    }
    store.addInternalAccount(rec)
    if (owner) owner.meta.internalAccounts[cur] = id
    return rec
  }

  function listPlatformInternalAccounts(q: PlatformInternalAccountQuery = {}): InternalAccountRec['data'][] {
    return store.internalIndex.items
      .filter(
        (r) =>
          r.meta.platform &&
          (q.currency === undefined || r.data.balance.currency.code === q.currency) &&
          (q.type === undefined || r.data.type === q.type)
      )
      .map((r) => r.data)
  }

  return {
    openInternalAccount,
    listPlatformInternalAccounts,

    /** The platform's internal accounts, one per configured currency (reference: created with the platform). */
    openPlatformAccounts(): void {
      const t = clock.stamp()
      const have = new Set(listPlatformInternalAccounts().map((a) => a.balance.currency.code))
      for (const cur of PLATFORM_CURRENCIES) if (!have.has(cur)) openInternalAccount(undefined, cur, t)
      core.changed()
    },

    listCustomerInternalAccounts(q: InternalAccountQuery): Page<InternalAccountRec> {
      return pageFor(
        store.internalIndex,
        q,
        'asc',
        (r) =>
          !r.meta.platform &&
          (q.customerId === undefined || r.data.customerId === q.customerId) &&
          (q.currency === undefined || r.data.balance.currency.code === q.currency) &&
          (q.type === undefined || r.data.type === q.type)
      )
    },

    fund(accountId: string, amount: number): InternalAccountRec['data'] {
      const a = core.internalAccount(accountId)
      const t = clock.stamp()
      core.post(a, amount, 'FUNDING', `fund:${t}`, t)
      core.changed()
      return a.data
    }
  }
}

export type InternalAccountOperations = ReturnType<typeof internalAccountOperations>
