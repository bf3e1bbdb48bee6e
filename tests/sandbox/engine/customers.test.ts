/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies under test are untyped JSON, checked by assertions and the shared schemas */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Customer } from '../../../src/shared/api/customer'
import { type Client, createCustomer, expectError, expectRefusal, sandboxForSuite, start } from '../util'

const c = sandboxForSuite({}, { ledger: false })

describe('POST /customers', () => {
  it('creates with only customerType: 201, Customer: id, generated platformCustomerId and umaAddress', async () => {
    const r = await c.post('/customers', { customerType: 'INDIVIDUAL' })
    expect(r.status).toBe(201)
    const cust = Customer.parse(r.body)
    expect(cust.id).toMatch(/^Customer:[0-9a-f-]{36}$/)
    expect(cust.platformCustomerId.length).toBeGreaterThan(0)
    expect(cust.umaAddress).toMatch(/^\$[^@]+@[^@]+\.[^@]+$/)
    expect(cust.customerType).toBe('INDIVIDUAL')
    expect(cust.isDeleted).toBe(false)
    expect(cust.createdAt).toBe(cust.updatedAt)
    expect(Number.isNaN(Date.parse(cust.createdAt as string))).toBe(false)
    expect(cust.currencies).toEqual(['USD'])
  })

  it('keeps the given fields and infers currencies from the region', async () => {
    const cust = await createCustomer(c, {
      platformCustomerId: 'given-1',
      region: 'MX',
      fullName: 'Carlos Garcia',
      birthDate: '1988-05-22',
      nationality: 'MX',
      umaAddress: '$carlos@uma.example.com',
      address: { line1: 'Av. Reforma 1', postalCode: '06600', country: 'MX' }
    })
    expect(cust).toMatchObject({
      platformCustomerId: 'given-1',
      region: 'MX',
      currencies: ['MXN'],
      fullName: 'Carlos Garcia',
      birthDate: '1988-05-22',
      nationality: 'MX',
      umaAddress: '$carlos@uma.example.com',
      kycStatus: 'APPROVED'
    })
  })

  it.each([
    ['Ann Lee 001', 'PENDING'],
    ['Ann Lee 002', 'REJECTED'],
    ['Ann Lee 003', 'UNVERIFIED'],
    ['Ann Lee 004', 'APPROVED'],
    ['Ann Lee', 'APPROVED']
  ])('KYC by fullName suffix: %s → %s', async (fullName, kyc) => {
    const cust = await createCustomer(c, { fullName })
    expect(cust.kycStatus).toBe(kyc)
    expect((await c.get(`/customers/${cust.id}`)).body.kycStatus).toBe(kyc)
  })

  it('answers 409 UMA_ADDRESS_EXISTS for a taken umaAddress and creates nothing', async () => {
    await createCustomer(c, { umaAddress: '$taken@uma.example.com' })
    const before = c.sb.server.state.store.customers.size
    expectError(
      await c.post('/customers', { customerType: 'INDIVIDUAL', umaAddress: '$taken@uma.example.com' }),
      409,
      'UMA_ADDRESS_EXISTS'
    )
    expect(c.sb.server.state.store.customers.size).toBe(before)
  })

  it('a taken umaAddress is final: the 409 tells clients that retry 409s not to', async () => {
    await createCustomer(c, { umaAddress: '$final@uma.example.com' })
    const r = await c.post('/customers', { customerType: 'INDIVIDUAL', umaAddress: '$final@uma.example.com' })
    expectError(r, 409, 'UMA_ADDRESS_EXISTS')
    expect(r.headers.get('x-should-retry')).toBe('false')
  })

  it('refuses a taken platformCustomerId as 400 (no published code names it), creating nothing', async () => {
    await createCustomer(c, { platformCustomerId: 'dup-1' })
    const before = c.sb.server.state.store.customers.size
    const r = await c.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'dup-1' })
    expectRefusal(r, 'PLATFORM_CUSTOMER_ID_EXISTS')
    expect(r.body.details.field).toBe('platformCustomerId')
    expect(c.sb.server.state.store.customers.size).toBe(before)
  })

  it('keeps the published email, and changes it by PATCH', async () => {
    const cust = await createCustomer(c, { email: 'ann.lee@example.com' })
    expect(cust.email).toBe('ann.lee@example.com')
    const r = await c.patch(`/customers/${cust.id}`, { customerType: 'INDIVIDUAL', email: 'ann@example.org' })
    expect(r.status, r.text).toBe(200)
    expect((await c.get(`/customers/${cust.id}`)).body.email).toBe('ann@example.org')
    expectError(await c.post('/customers', { customerType: 'INDIVIDUAL', email: 'ann' }), 400, 'INVALID_INPUT')
  })

  it('rejects a currency combination that needs separate customers, with details', async () => {
    const r = await c.post('/customers', { customerType: 'INDIVIDUAL', currencies: ['EUR', 'MXN'] })
    expectError(r, 400, 'INVALID_INPUT')
    expect(r.body.details).toMatchObject({ reason: 'SEPARATE_CUSTOMERS_REQUIRED', currencies: ['EUR', 'MXN'] })
    // USD and crypto combine with anything
    expect((await c.post('/customers', { customerType: 'INDIVIDUAL', currencies: ['USD', 'EUR', 'BTC'] })).status).toBe(
      201
    )
  })

  it.each([
    [{ customerType: 'BUSINESS' }, 'customerType'],
    [{}, 'customerType'],
    [{ customerType: 'INDIVIDUAL', birthDate: '1990-13-01' }, 'birthDate'],
    [{ customerType: 'INDIVIDUAL', nationality: 'usa' }, 'nationality'],
    [{ customerType: 'INDIVIDUAL', region: 'U' }, 'region'],
    [{ customerType: 'INDIVIDUAL', currencies: ['usd'] }, 'currencies.0'],
    [{ customerType: 'INDIVIDUAL', umaAddress: 'not-an-address' }, 'umaAddress'],
    [{ customerType: 'INDIVIDUAL', id: 'Customer:mine' }, '']
  ])('400 for invalid input %j', async (body, path) => {
    const r = await c.post('/customers', body)
    expectError(r, 400, 'INVALID_INPUT')
    expect(r.body.details.issues.map((i: { path: string }) => i.path)).toContain(path)
  })

  it('rejects an unknown currency code', async () => {
    expectError(
      await c.post('/customers', { customerType: 'INDIVIDUAL', currencies: ['XYZ'] }),
      400,
      'INVALID_CURRENCY'
    )
  })

  it('opens one internal account per currency', async () => {
    const cust = await createCustomer(c, { currencies: ['USD', 'BTC'] })
    const r = await c.get(`/customers/internal-accounts?customerId=${cust.id}`)
    expect(r.body.data.map((a: any) => a.balance.currency.code).sort()).toEqual(['BTC', 'USD'])
    expect(r.body.data.every((a: any) => a.customerId === cust.id && a.balance.amount === 0)).toBe(true)
  })
})

describe('GET /customers/{id}, PATCH, DELETE', () => {
  it('gets a customer by id; 404 USER_NOT_FOUND otherwise', async () => {
    const cust = await createCustomer(c)
    expect((await c.get(`/customers/${cust.id}`)).body).toEqual(cust)
    expectError(await c.get('/customers/Customer:00000000-0000-0000-0000-000000000000'), 404, 'USER_NOT_FOUND')
  })

  it('updates fields, re-derives KYC from the new name, refuses region changes', async () => {
    const cust = await createCustomer(c, { fullName: 'Bob Stone' })
    const r = await c.patch(`/customers/${cust.id}`, {
      fullName: 'Bob Stone 002',
      umaAddress: '$bob.new@uma.example.com'
    })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({
      fullName: 'Bob Stone 002',
      kycStatus: 'REJECTED',
      umaAddress: '$bob.new@uma.example.com'
    })
    expect(Date.parse(r.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(cust.updatedAt))
    expectError(await c.patch(`/customers/${cust.id}`, { region: 'GB' }), 400, 'INVALID_INPUT')
    expectError(await c.patch(`/customers/${cust.id}`, {}), 400, 'INVALID_INPUT')
    expect((await c.get(`/customers/${cust.id}`)).body.region).toBe('US')
  })

  it('deletes (marks isDeleted) and answers 410 the second time', async () => {
    const cust = await createCustomer(c)
    const r = await c.del(`/customers/${cust.id}`)
    expect(r.status).toBe(200)
    expect(r.body.isDeleted).toBe(true)
    expectError(await c.del(`/customers/${cust.id}`), 410, 'CUSTOMER_DELETED')
    expect((await c.get(`/customers/${cust.id}`)).body.isDeleted).toBe(true)
  })

  it('PATCH publishes no 409 or 410: a taken UMA address or a deleted customer is 400, nothing changed', async () => {
    await createCustomer(c, { umaAddress: '$kept@uma.example.com' })
    const cust = await createCustomer(c, { umaAddress: '$mine@uma.example.com' })
    const taken = await c.patch(`/customers/${cust.id}`, { umaAddress: '$kept@uma.example.com' })
    expectRefusal(taken, 'UMA_ADDRESS_EXISTS')
    expect((await c.get(`/customers/${cust.id}`)).body.umaAddress).toBe('$mine@uma.example.com')
    expect((await c.del(`/customers/${cust.id}`)).status).toBe(200)
    expectRefusal(await c.patch(`/customers/${cust.id}`, { fullName: 'Too Late' }), 'CUSTOMER_DELETED')
    expect((await c.get(`/customers/${cust.id}`)).body.fullName).toBe('Test Person')
  })
})

describe('GET /customers (paged, filters)', () => {
  let fresh: Client
  const ids: string[] = []
  beforeAll(async () => {
    fresh = await start()
    for (let i = 0; i < 7; i++) {
      ids.push(
        (
          await createCustomer(fresh, {
            platformCustomerId: `p-${i}`,
            region: i % 2 ? 'MX' : 'US',
            fullName: `Person ${i}`
          })
        ).id
      )
    }
    await fresh.del(`/customers/${ids[6]}`)
  })
  afterAll(async () => {
    await fresh.sb.close()
  })

  it('pages newest first without repeats, with totalCount and nextCursor only when hasMore', async () => {
    const seen: string[] = []
    let cursor: string | undefined
    let pages = 0
    do {
      const r = await fresh.get(`/customers?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      expect(r.status).toBe(200)
      expect(r.body.totalCount).toBe(6)
      if (r.body.hasMore) expect(typeof r.body.nextCursor).toBe('string')
      else expect('nextCursor' in r.body).toBe(false)
      seen.push(...r.body.data.map((x: any) => x.id))
      cursor = r.body.nextCursor
      pages++
    } while (cursor)
    expect(pages).toBe(3)
    expect(seen).toEqual(ids.slice(0, 6).reverse())
  })

  it('filters by region, currency, platformCustomerId, umaAddress, dates and deleted', async () => {
    expect((await fresh.get('/customers?region=MX')).body.data).toHaveLength(3)
    expect((await fresh.get('/customers?currency=MXN')).body.data).toHaveLength(3)
    expect((await fresh.get('/customers?platformCustomerId=p-2')).body.data.map((x: any) => x.id)).toEqual([ids[2]])
    const two = (await fresh.get(`/customers/${ids[2]}`)).body
    expect((await fresh.get(`/customers?umaAddress=${encodeURIComponent(two.umaAddress)}`)).body.data).toHaveLength(1)
    expect((await fresh.get('/customers?isIncludingDeleted=true')).body.totalCount).toBe(7)
    // Both bounds are inclusive: exactly the customers created in that millisecond (on a loaded machine the sandbox's
    // scaled clock can put a neighbour in the same one).
    const sameMoment = (
      await fresh.get(
        `/customers?createdAfter=${encodeURIComponent(two.createdAt)}&createdBefore=${encodeURIComponent(two.createdAt)}`
      )
    ).body.data
    expect(sameMoment.map((x: any) => x.id)).toContain(ids[2])
    expect(sameMoment.every((x: any) => x.createdAt === two.createdAt)).toBe(true)
    expect((await fresh.get('/customers?createdAfter=2999-01-01T00:00:00Z')).body).toEqual({
      data: [],
      hasMore: false,
      totalCount: 0
    })
    expectError(await fresh.get('/customers?createdAfter=yesterday'), 400, 'INVALID_INPUT')
    expectError(await fresh.get('/customers?customerType=ROBOT'), 400, 'INVALID_INPUT')
    expectError(await fresh.get('/customers?cursor=not-a-cursor!'), 400, 'INVALID_INPUT')
  })
})
