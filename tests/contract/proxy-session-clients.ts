import { expect } from 'vitest'
import type { ApiClient } from '../../src/main/infra/api-client'
import { ApiError } from '../../src/main/infra/api-errors'
import {
  Customer,
  dataList,
  ExternalAccount,
  InternalAccount,
  pagedList,
  Quote,
  Transaction
} from '../../src/shared/api'
import { sandboxSparkAddress } from '../../src/sandbox/engine/seed'

/** Which status the service refused with; fails when it did not refuse. */
async function refusal(call: Promise<unknown>): Promise<number | undefined> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error, 'the request is refused').toBeInstanceOf(ApiError)
  return (error as ApiError).httpStatus
}

const usBeneficiary = {
  beneficiaryType: 'INDIVIDUAL',
  fullName: 'Amelia Hughes',
  address: { line1: '1 Test Street', city: 'Austin', postalCode: '73301', country: 'US' }
}

/**
 * The part of the operator session behind `prism proxy` that the official clients (Grid CLI, TypeScript SDK) send and
 * that a 349-call session found refused or answered outside the published document: the published request members
 * the sandbox refused, the filters it refused, and the refusals whose status or code the operation does not publish.
 * Every answer is checked by Prism and by the caller's declared-status check.
 */
export async function clientRequestsAndRefusals(
  client: ApiClient,
  ids: { customerId: string; usdInternal: string; usdAccount: string }
): Promise<void> {
  const { customerId, usdInternal, usdAccount } = ids
  const customerPath = `customers/${encodeURIComponent(customerId)}`

  // Requests the official clients send
  await client.request('PATCH', customerPath, {
    body: { customerType: 'INDIVIDUAL', email: 'amelia@example.org' },
    schema: Customer
  })
  const checking = await client.request('POST', 'customers/external-accounts', {
    // The CLI has no flag for bankAccountType.
    body: {
      customerId,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '5550001234',
        routingNumber: '021000021',
        beneficiary: usBeneficiary
      }
    },
    schema: ExternalAccount
  })
  expect(checking.accountInfo.bankAccountType).toBe('CHECKING')
  const wallet = await client.request('POST', 'customers/external-accounts', {
    // The current API has no cryptoNetwork.
    body: {
      customerId,
      currency: 'BTC',
      accountInfo: { accountType: 'SPARK_WALLET', address: sandboxSparkAddress(77) }
    },
    schema: ExternalAccount
  })
  expect(wallet.cryptoNetwork).toBe('SPARK_MAINNET')
  const quote = await client.request('POST', 'quotes', {
    body: {
      source: { sourceType: 'ACCOUNT', accountId: usdInternal },
      destination: { destinationType: 'ACCOUNT', accountId: usdAccount },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_00,
      // Executed at once: a quote waiting to be executed expires (3 s at the test sandbox's time scale).
      immediatelyExecute: true,
      lookupId: 'Lookup:019542f5-b3e7-1d02-0000-000000000009',
      purposeOfPayment: 'GOODS_OR_SERVICES',
      senderCustomerInfo: { FULL_NAME: 'Amelia Hughes' }
    },
    idempotencyKey: 'session-quote-1',
    schema: Quote
  })
  await client.get('platform/internal-accounts', dataList(InternalAccount), { type: 'INTERNAL_FIAT' })
  await client.get('transactions', pagedList(Transaction), { accountIdentifier: usdAccount, limit: 5 })

  // An executed quote executed again (409 is published there), then sent by the sandbox (no 409 published)
  expect(await refusal(client.request('POST', `quotes/${encodeURIComponent(quote.id)}/execute`))).toBe(409)
  expect(
    await refusal(client.request('POST', 'sandbox/send', { body: { quoteId: quote.id, currencyCode: 'USD' } }))
  ).toBe(400)

  // Taken identifiers: a platformCustomerId, the same bank account twice
  const taken = { customerType: 'INDIVIDUAL', platformCustomerId: 'op-session-1' }
  expect(await refusal(client.request('POST', 'customers', { body: taken }))).toBe(400)
  const again = { customerId, currency: 'USD', accountInfo: { ...checking.accountInfo } }
  delete (again.accountInfo as Record<string, unknown>)['paymentRails']
  expect(await refusal(client.request('POST', 'customers/external-accounts', { body: again }))).toBe(400)

  // Accounts for a customer that does not exist, or no longer does
  const gone = await client.request('POST', 'customers', { body: { customerType: 'INDIVIDUAL' }, schema: Customer })
  await client.request('DELETE', `customers/${encodeURIComponent(gone.id)}`, { schema: Customer })
  for (const owner of [gone.id, 'Customer:019542f5-b3e7-1d02-0000-00000000dead']) {
    const body = { ...again, customerId: owner, accountInfo: { ...again.accountInfo, accountNumber: '5550009999' } }
    expect(await refusal(client.request('POST', 'customers/external-accounts', { body }))).toBe(400)
  }

  // Money that cannot move: to the seeded INACTIVE platform account, by a customer whose KYC is pending, from an
  // unknown source
  const platformAccounts = await client.get('platform/external-accounts', pagedList(ExternalAccount), { limit: 100 })
  const inactive = platformAccounts.data.find((a) => a.status === 'INACTIVE')
  const platformEur = (await client.get('platform/internal-accounts', dataList(InternalAccount), { currency: 'EUR' }))
    .data[0]
  expect(
    inactive && platformEur,
    'the seed has an INACTIVE platform EUR account and a platform EUR balance'
  ).toBeTruthy()
  const toInactive = { source: { accountId: platformEur!.id }, destination: { accountId: inactive!.id }, amount: 1_00 }
  expect(await refusal(client.request('POST', 'transfer-out', { body: toInactive, idempotencyKey: 'p-1' }))).toBe(400)
  const quoteTo = (source: string, destination: string) => ({
    source: { sourceType: 'ACCOUNT', accountId: source },
    destination: { destinationType: 'ACCOUNT', accountId: destination },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 1_00
  })
  expect(await refusal(client.request('POST', 'quotes', { body: quoteTo(platformEur!.id, inactive!.id) }))).toBe(400)
  const unknownSource = quoteTo('InternalAccount:019542f5-b3e7-1d02-0000-00000000dead', usdAccount)
  expect(await refusal(client.request('POST', 'quotes', { body: unknownSource }))).toBe(400)
  const waiting = await client.request('POST', 'customers', {
    body: { customerType: 'INDIVIDUAL', region: 'US', fullName: 'Kyc Waits 001' },
    schema: Customer
  })
  const accounts = await client.get('customers/internal-accounts', pagedList(InternalAccount), {
    customerId: waiting.id
  })
  const notReady = { source: { accountId: accounts.data[0]!.id }, destination: { accountId: usdAccount }, amount: 1_00 }
  expect(await refusal(client.request('POST', 'transfer-out', { body: notReady }))).toBe(400)

  // The same Idempotency-Key with another body
  const first = { source: { accountId: usdInternal }, destination: { accountId: usdAccount }, amount: 1_00 }
  await client.request('POST', 'transfer-out', {
    body: first,
    idempotencyKey: 'session-key-reused',
    schema: Transaction
  })
  const other = { ...first, amount: 2_00 }
  expect(
    await refusal(client.request('POST', 'transfer-out', { body: other, idempotencyKey: 'session-key-reused' }))
  ).toBe(400)
}
