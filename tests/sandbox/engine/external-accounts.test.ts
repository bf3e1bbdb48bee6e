/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies under test are untyped JSON, checked by assertions and the shared schemas */
import { describe, expect, it } from 'vitest'
import { ExternalAccount } from '../../../src/shared/api/external-account'
import { DURATIONS } from '../../../src/sandbox/state/timing'
import {
  activeAccount,
  createCustomer,
  createUsAccount,
  expectError,
  expectRefusal,
  externalAccountSuite,
  internalAccountOf,
  sparkAddress,
  start,
  startStepped,
  txStatus,
  usAccountBody,
  usBeneficiary,
  transferOut
} from '../util'

const { c, customer, nextNumber } = externalAccountSuite(1000)
const EA = '/customers/external-accounts'
const sparkWalletBody = (n: number) => ({
  customerId: customer.id,
  currency: 'BTC',
  cryptoNetwork: 'SPARK_MAINNET',
  accountInfo: { accountType: 'SPARK_WALLET', address: sparkAddress(n) }
})

describe('creation by type', () => {
  it('a customer bank account starts PENDING and becomes ACTIVE after the simulated verification', async () => {
    const r = await c.post(EA, usAccountBody(customer.id, nextNumber('11')))
    expect(r.status).toBe(201)
    const a = ExternalAccount.parse(r.body)
    expect(a.id).toMatch(/^ExternalAccount:/)
    expect(a.status).toBe('PENDING')
    expect(a.customerId).toBe(customer.id)
    expect(a.defaultUmaDepositAccount).toBe(false)
    expect(a.beneficiaryVerificationStatus).toBe('MATCHED')
    expect(a.beneficiaryVerifiedData?.fullName).toBe('Test Person')
    expect(a.accountInfo).toMatchObject({
      accountType: 'US_ACCOUNT',
      accountCategory: 'CHECKING',
      routingNumber: '021000021'
    })
    const active = await activeAccount(c, a.id)
    expect(active.status).toBe('ACTIVE')
  })

  it('a Spark wallet is ACTIVE at once, with its cryptoNetwork and no beneficiary verification', async () => {
    const r = await c.post(EA, sparkWalletBody(7))
    expect(r.status, r.text).toBe(201)
    expect(r.body).toMatchObject({ status: 'ACTIVE', cryptoNetwork: 'SPARK_MAINNET', currency: 'BTC' })
    expect(r.body.beneficiaryVerificationStatus).toBeUndefined()
    expect(typeof r.body.createdAt).toBe('string')
  })

  it('a Spark wallet without cryptoNetwork (the current API dropped it) takes the network its spark1 address names', async () => {
    const { cryptoNetwork: _dropped, ...body } = sparkWalletBody(8)
    const r = await c.post(EA, body)
    expect(r.status, r.text).toBe(201)
    expect(r.body).toMatchObject({ status: 'ACTIVE', cryptoNetwork: 'SPARK_MAINNET' })
  })

  it('a USD_ACCOUNT without bankAccountType (the CLI has no flag for it) is a checking account', async () => {
    const usd = (accountNumber: string, extra: Record<string, unknown> = {}) => ({
      customerId: customer.id,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber,
        routingNumber: '021000021',
        beneficiary: usBeneficiary,
        ...extra
      }
    })
    const r = await c.post(EA, usd(nextNumber()))
    expect(r.status, r.text).toBe(201)
    expect(r.body.accountInfo).toMatchObject({ accountType: 'USD_ACCOUNT', bankAccountType: 'CHECKING' })
    const savings = await c.post(EA, usd(nextNumber(), { bankAccountType: 'SAVINGS' }))
    expect(savings.body.accountInfo.bankAccountType).toBe('SAVINGS')
  })

  it('a platform account (no customerId) is ACTIVE and listed only under /platform', async () => {
    const r = await c.post(EA, usAccountBody(undefined, nextNumber('21')))
    expect(r.status).toBe(201)
    expect(r.body.status).toBe('ACTIVE')
    expect(r.body.customerId).toBeUndefined()
    const platform = await c.get('/platform/external-accounts')
    expect(platform.body.data.map((a: any) => a.id)).toContain(r.body.id)
    expect(platform.body).toMatchObject({ hasMore: false, totalCount: platform.body.data.length })
    expect((await c.get('/platform/external-accounts?currency=EUR')).body.data).toEqual([])
    const customers = await c.get(`${EA}?limit=100`)
    expect(customers.body.data.map((a: any) => a.id)).not.toContain(r.body.id)
    expect((await c.get(`/platform/external-accounts/${r.body.id}`)).status).toBe(200)
  })

  it('pages platform external accounts with limit (default 20) and cursor, as the published API does', async () => {
    for (let i = 0; i < 3; i++) expect((await c.post(EA, usAccountBody(undefined, nextNumber('31')))).status).toBe(201)
    const all = (await c.get('/platform/external-accounts?limit=100')).body.data.map((a: any) => a.id)
    expect(all.length).toBeGreaterThanOrEqual(3)
    const seen: string[] = []
    let cursor: string | undefined
    for (let page = 0; page < all.length; page++) {
      const r = await c.get(`/platform/external-accounts?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      expect(r.status, r.text).toBe(200)
      expect(r.body.data.length).toBeLessThanOrEqual(2)
      seen.push(...r.body.data.map((a: any) => a.id))
      if (!r.body.hasMore) break
      cursor = encodeURIComponent(r.body.nextCursor)
    }
    expect(seen).toEqual(all)
    expect((await c.get('/platform/external-accounts?limit=0')).status).toBe(400)
  })

  it.each([
    [
      'GBP',
      { accountType: 'GBP_ACCOUNT', sortCode: '200000', accountNumber: '55779111' },
      { address: { line1: '1 High St', city: 'London', postalCode: 'E1 6AN', country: 'GB' } }
    ],
    ['MXN', { accountType: 'MXN_ACCOUNT', clabeNumber: '012180015000000111' }, {}],
    [
      'EUR',
      { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013111' },
      { address: { line1: 'Str 1', city: 'Berlin', postalCode: '10117', country: 'DE' } }
    ],
    ['PHP', { accountType: 'PHP_ACCOUNT', accountNumber: '123456789111', bankName: 'BDO Unibank' }, {}],
    ['NGN', { accountType: 'NGN_ACCOUNT', accountNumber: '0123456111', bankName: 'GTBank' }, {}],
    ['KES', { accountType: 'KES_ACCOUNT', phoneNumber: '+254712345111', provider: 'M-Pesa' }, {}]
  ])('creates a %s bank account', async (currency, info, extra) => {
    const r = await c.post(EA, {
      customerId: customer.id,
      currency,
      accountInfo: { ...info, beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Test Person', ...extra } }
    })
    expect(r.status, r.text).toBe(201)
    expect(r.body.currency).toBe(currency)
  })
})

describe('validation the engine makes (spec 2.6 and 4.2)', () => {
  it('requires a bankName from the discovery endpoint for PHP, NGN and ZAR', async () => {
    const disc = await c.get('/discoveries?country=PH&currency=PHP')
    expect(disc.status).toBe(200)
    expect(disc.body.data.length).toBeGreaterThan(0)
    expect(disc.body.data.every((d: any) => d.country === 'PH' && d.currency === 'PHP')).toBe(true)
    const body = (bankName?: string) => ({
      customerId: customer.id,
      currency: 'PHP',
      accountInfo: {
        accountType: 'PHP_ACCOUNT',
        accountNumber: '123456789333',
        ...(bankName ? { bankName } : {}),
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'A B' }
      }
    })
    expectError(await c.post(EA, body()), 400, 'INVALID_INPUT')
    const r = await c.post(EA, body('Bank Nobody Heard Of'))
    expectError(r, 400, 'INVALID_INPUT')
    expect(r.body.message).toMatch(/not a bank the service lists for PHP: choose one from its bank list/)
    expect((await c.post(EA, body(disc.body.data[0].bankName))).status).toBe(201)
  })

  it('refuses an unknown or deleted customer and the same account twice in published codes (400), nothing added', async () => {
    const before = c.sb.server.state.store.externalAccounts.size
    expectRefusal(await c.post(EA, usAccountBody('Customer:nope', nextNumber())), 'USER_NOT_FOUND')
    const gone = await createCustomer(c)
    expect((await c.del(`/customers/${gone.id}`)).status).toBe(200)
    expectRefusal(await c.post(EA, usAccountBody(gone.id, nextNumber())), 'CUSTOMER_DELETED')
    expect(c.sb.server.state.store.externalAccounts.size).toBe(before)
    const n = nextNumber()
    await createUsAccount(c, customer.id, n)
    expectRefusal(await c.post(EA, usAccountBody(customer.id, n)), 'EXTERNAL_ACCOUNT_EXISTS')
    expect(c.sb.server.state.store.externalAccounts.size).toBe(before + 1)
  })
})

describe('beneficiary verification by suffix (reference)', () => {
  it.each([
    ['102', 'NOT_MATCHED'],
    ['103', 'PARTIAL_MATCH'],
    ['104', 'PENDING'],
    ['106', 'UNSUPPORTED'],
    ['107', 'CHECKED_BY_RECEIVING_FI'],
    ['108', 'MATCHED']
  ])('account number ending %s → %s', async (suffix, status) => {
    const a = await createUsAccount(c, customer.id, nextNumber(suffix))
    expect(a.beneficiaryVerificationStatus).toBe(status)
    if (status === 'NOT_MATCHED') expect(a.beneficiaryVerifiedData.fullName).not.toBe('Test Person')
    if (status === 'PARTIAL_MATCH') expect(a.beneficiaryVerifiedData.fullName).not.toBe('Test Person')
  })

  it('suffix 105 answers 400 INVALID_BANK_ACCOUNT and creates nothing', async () => {
    const before = c.sb.server.state.store.externalAccounts.size
    expectError(await c.post(EA, usAccountBody(customer.id, nextNumber('105'))), 400, 'INVALID_BANK_ACCOUNT')
    expect(c.sb.server.state.store.externalAccounts.size).toBe(before)
  })

  // A stepped clock: at the shared 0.01 scale the slow account's 600 ms was the only margin between the two reads.
  it('a 104 account stays PENDING longer than a normal one, then ends ACTIVE and MATCHED', async () => {
    const { c: fc, elapse } = await startStepped()
    try {
      const owner = (await createCustomer(fc)).id
      const slow = await createUsAccount(fc, owner, nextNumber('104'))
      const normal = await createUsAccount(fc, owner, nextNumber('55'))
      elapse(DURATIONS.accountVerification)
      expect((await fc.get(`${EA}/${normal.id}`)).body.status).toBe('ACTIVE')
      expect((await fc.get(`${EA}/${slow.id}`)).body.status).toBe('PENDING')
      elapse(DURATIONS.beneficiaryVerificationPending - DURATIONS.accountVerification)
      const done = (await fc.get(`${EA}/${slow.id}`)).body
      expect(done).toMatchObject({ status: 'ACTIVE', beneficiaryVerificationStatus: 'MATCHED' })
    } finally {
      await fc.sb.close()
    }
  })
})

describe('default deposit account', () => {
  it('at most one per customer: setting one clears the previous', async () => {
    const cust = await createCustomer(c)
    const a = await createUsAccount(c, cust.id, nextNumber(), { defaultUmaDepositAccount: true })
    const b = await createUsAccount(c, cust.id, nextNumber(), { defaultUmaDepositAccount: true })
    expect(b.defaultUmaDepositAccount).toBe(true)
    expect((await c.get(`${EA}/${a.id}`)).body.defaultUmaDepositAccount).toBe(false)
    const list = await c.get(`${EA}?customerId=${cust.id}`)
    expect(list.body.data.filter((x: any) => x.defaultUmaDepositAccount)).toHaveLength(1)
  })

  it('is refused for a platform account', async () => {
    expectError(
      await c.post(EA, usAccountBody(undefined, nextNumber(), { defaultUmaDepositAccount: true })),
      400,
      'INVALID_INPUT'
    )
  })
})

describe('PATCH', () => {
  it('accepts only platformAccountId and beneficiary; anything else is 400 and changes nothing', async () => {
    const a = await createUsAccount(c, customer.id, nextNumber())
    for (const body of [
      { currency: 'EUR' },
      { status: 'ACTIVE' },
      { accountInfo: {} },
      { defaultUmaDepositAccount: true },
      {}
    ]) {
      expectError(await c.patch(`${EA}/${a.id}`, body), 400, 'INVALID_INPUT')
    }
    const r = await c.patch(`${EA}/${a.id}`, { platformAccountId: 'renamed' })
    expect(r.status).toBe(200)
    expect(r.body.platformAccountId).toBe('renamed')
    expect(r.body.currency).toBe('USD')
    expectError(await c.patch(`${EA}/ExternalAccount:nope`, { platformAccountId: 'x' }), 404)
  })

  it('a beneficiary update on an ACTIVE account → UNDER_REVIEW, then ACTIVE after the simulated review', async () => {
    const a = await createUsAccount(c, customer.id, nextNumber())
    await activeAccount(c, a.id)
    const r = await c.patch(`${EA}/${a.id}`, { beneficiary: { ...usBeneficiary, fullName: 'New Name' } })
    expect(r.status, r.text).toBe(200)
    expect(r.body.status).toBe('UNDER_REVIEW')
    expect(r.body.accountInfo.beneficiary.fullName).toBe('New Name')
    await activeAccount(c, a.id)
  })

  it('checks the beneficiary against the minimums of the account currency', async () => {
    const a = await createUsAccount(c, customer.id, nextNumber())
    const r = await c.patch(`${EA}/${a.id}`, { beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'No Address' } })
    expectError(r, 400, 'INVALID_INPUT')
    // The details name the refused field by its request path, so Paydesk can show the refusal at that field.
    expect(r.body.details.issues).toContainEqual({
      path: 'beneficiary.address',
      message: expect.stringContaining('(required for a USD account)')
    })
    const after = (await c.get(`${EA}/${a.id}`)).body
    expect(after.accountInfo.beneficiary.fullName).toBe('Test Person')
    expect(after.status).not.toBe('UNDER_REVIEW')
  })

  it('a refused field names its path and changes nothing, not even a platformAccountId sent with it', async () => {
    const a = await createUsAccount(c, customer.id, nextNumber())
    const r = await c.patch(`${EA}/${a.id}`, {
      platformAccountId: 'should-not-stick',
      beneficiary: { ...usBeneficiary, email: 'not-an-email' }
    })
    expectError(r, 400, 'INVALID_INPUT')
    expect(r.body.details.issues.map((i: { path: string }) => i.path)).toEqual(['beneficiary.email'])
    const after = (await c.get(`${EA}/${a.id}`)).body
    expect(after.platformAccountId).toBe(a.platformAccountId)
    expect(after.accountInfo.beneficiary).toEqual(a.accountInfo.beneficiary)
  })

  it('a platformAccountId change alone never starts a re-review', async () => {
    const a = await createUsAccount(c, customer.id, nextNumber())
    await activeAccount(c, a.id)
    const r = await c.patch(`${EA}/${a.id}`, { platformAccountId: 'ledger-77' })
    expect(r.body.status).toBe('ACTIVE')
    expect(r.body.platformAccountId).toBe('ledger-77')
  })

  it('refuses a beneficiary on a wallet', async () => {
    const w = await c.post(EA, sparkWalletBody(55))
    const r = await c.patch(`${EA}/${w.body.id}`, { beneficiary: usBeneficiary })
    expectError(r, 400, 'INVALID_INPUT')
    expect(r.body.details.issues[0].path).toBe('beneficiary')
  })
})

describe('DELETE', () => {
  it('204 with no body, then 404', async () => {
    const a = await createUsAccount(c, customer.id, nextNumber())
    const r = await c.del(`${EA}/${a.id}`)
    expect(r.status).toBe(204)
    expect(r.text).toBe('')
    expectError(await c.get(`${EA}/${a.id}`), 404)
    expectError(await c.del(`${EA}/${a.id}`), 404)
  })

  it('409 while a pending transaction references the account, allowed once it settled', async () => {
    const cust = await createCustomer(c)
    const internal = await internalAccountOf(c, cust.id)
    await c.post(`/sandbox/internal-accounts/${internal}/fund`, { amount: 100_000 })
    const a = await createUsAccount(c, cust.id, nextNumber())
    await activeAccount(c, a.id)
    const tx = await transferOut(c, internal, a.id, 1000)
    expect(tx.status, tx.text).toBe(201)
    const r = await c.del(`${EA}/${a.id}`)
    expectError(r, 409, 'EXTERNAL_ACCOUNT_IN_USE')
    expect(r.body.details.transactionId).toBe(tx.body.id)
    expect((await c.get(`${EA}/${a.id}`)).status).toBe(200)
    await txStatus(c, tx.body.id, 'COMPLETED')
    expect((await c.del(`${EA}/${a.id}`)).status).toBe(204)
  })
})

describe('GET /customers/external-accounts (paged, filters)', () => {
  it('filters by customerId, currency and accountType and pages without repeats', async () => {
    const fresh = await start()
    try {
      const cust = await createCustomer(fresh)
      const other = await createCustomer(fresh)
      const made: string[] = []
      for (let i = 0; i < 5; i++) made.push((await createUsAccount(fresh, cust.id, `5550000${i}`)).id)
      await createUsAccount(fresh, other.id, '55500009')
      const w = await fresh.post(EA, {
        customerId: cust.id,
        currency: 'BTC',
        cryptoNetwork: 'SPARK_MAINNET',
        accountInfo: { accountType: 'SPARK_WALLET', address: sparkAddress(1) }
      })
      expect((await fresh.get(`${EA}?customerId=${cust.id}`)).body.totalCount).toBe(6)
      expect((await fresh.get(`${EA}?customerId=${cust.id}&currency=BTC`)).body.data.map((x: any) => x.id)).toEqual([
        w.body.id
      ])
      expect((await fresh.get(`${EA}?accountType=SPARK_WALLET`)).body.totalCount).toBe(1)
      expect((await fresh.get(`${EA}`)).body.totalCount).toBe(7)
      const seen: string[] = []
      let cursor: string | undefined
      do {
        const r = await fresh.get(
          `${EA}?customerId=${cust.id}&currency=USD&limit=2${cursor ? `&cursor=${cursor}` : ''}`
        )
        seen.push(...r.body.data.map((x: any) => x.id))
        cursor = r.body.nextCursor
      } while (cursor)
      expect([...seen].sort()).toEqual([...made].sort())
      expect(new Set(seen).size).toBe(5)
      expectError(await fresh.get(`${EA}?limit=0`), 400)
      expectError(await fresh.get(`${EA}?customerId=nope`), 400)
    } finally {
      await fresh.sb.close()
    }
  })
})

describe('status changes are observable promptly', () => {
  // "Promptly" is the first request at the due time, on a stepped clock: a wall-clock bound was a race on a loaded machine.
  it('verification is seen by the first request once it is due, not only when a timer fires', async () => {
    const { c: fc, clock } = await startStepped()
    try {
      const a = await createUsAccount(fc, (await createCustomer(fc)).id, nextNumber())
      clock.advance(DURATIONS.accountVerification * 1000 - 1)
      expect((await fc.get(`${EA}/${a.id}`)).body.status).toBe('PENDING')
      clock.advance(1)
      expect((await fc.get(`${EA}/${a.id}`)).body.status).toBe('ACTIVE')
    } finally {
      await fc.sb.close()
    }
  })
})
