import { describe, expect, it } from 'vitest'
import { requireRealKeyring } from '../../support/keyring'
import { backendAgainstSandbox, dataChangedFor, platformUsdAccount, sandboxApi, waitFor } from '../sandbox-env'

requireRealKeyring()

// Incoming payments stay PENDING for the whole test (the window is scaled by the sandbox's test time scale).
const env = backendAgainstSandbox('profile-writes', { profile: true })

const dataChanged = (collection: string) => dataChangedFor(env.h, collection)

describe('writes go straight to the service and land in the cache', () => {
  it('creates customers and external accounts, deletes accounts, funds and simulates payments in sandbox profiles', async () => {
    const customer = await env.h.call('customers.create', {
      customerType: 'INDIVIDUAL',
      region: 'US',
      currencies: ['USD'],
      fullName: 'Dana Write'
    })
    expect(customer.id).toMatch(/^Customer:/)
    expect((await env.h.call('customers.get', { id: customer.id })).customer?.fullName).toBe('Dana Write')
    const account = await env.h.call('externalAccounts.create', platformUsdAccount('payout-1'))
    expect((await env.h.call('externalAccounts.query', { scope: 'platform' })).rows.map((a) => a.id)).toContain(
      account.id
    )
    expect(await env.h.call('externalAccounts.remove', { id: account.id })).toBeNull()
    expect((await env.h.call('externalAccounts.query', { scope: 'platform' })).rows.map((a) => a.id)).not.toContain(
      account.id
    )

    await env.h.call('internalAccounts.list', {})
    await waitFor(() => dataChanged('internalAccounts').length > 0)
    const usd = (await env.h.call('internalAccounts.list', { scope: 'platform', currency: 'USD' })).rows[0]!
    const funded = await env.h.call('sandbox.fund', { accountId: usd.id, amount: 12_345 })
    expect(funded.balance.amount).toBe(usd.balance.amount + 12_345)
    expect(
      (await env.h.call('internalAccounts.list', { currency: 'USD', scope: 'platform' })).rows[0]!.balance.amount
    ).toBe(funded.balance.amount)
    const received = await env.h.call('sandbox.receive', {
      senderUmaAddress: '$success.usd@sandbox.uma.money',
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 7_00,
      customerId: customer.id
    })
    await env.h.call('sync.now', null)
    await waitFor(async () =>
      (await env.h.call('transactions.query', { filter: { type: 'INCOMING' } })).rows.some((t) => t.id === received.id)
    )

    // Invalid input is refused before anything is sent; the service's own refusals come back with its code.
    const before = (await sandboxApi(env.server)<{ data: unknown[] }>('GET', 'customers?limit=100')).data.length
    expect(await env.h.raw('customers.create', { customerType: 'BUSINESS' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' }
    })
    expect(await env.h.raw('sandbox.fund', { accountId: usd.id, amount: 100_000_000_001 })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' }
    })
    expect((await sandboxApi(env.server)<{ data: unknown[] }>('GET', 'customers?limit=100')).data.length).toBe(before)
    const unknown = await env.h.raw('externalAccounts.remove', { id: 'ExternalAccount:nope' })
    expect(unknown).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', httpStatus: 404 } })
  })
})
