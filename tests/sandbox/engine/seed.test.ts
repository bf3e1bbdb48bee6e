/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies under test are untyped JSON, checked by assertions and the shared schemas */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ExternalAccountCreateRequest } from '../../../src/shared/api/external-account'
import { INCOMING_TRANSACTION_STATUSES, OUTGOING_TRANSACTION_STATUSES } from '../../../src/shared/api/transaction'
import { createSandboxServer } from '../../../src/sandbox/server'
import { client, expectLedgerConsistent, type Client } from '../util'

let c: Client
beforeAll(async () => {
  const server = await createSandboxServer({
    memory: true,
    tokenId: 't',
    clientSecret: 's',
    log: () => undefined
  })
  c = client({
    baseUrl: server.baseUrl,
    tokenId: 't',
    clientSecret: 's',
    authorization: `Basic ${Buffer.from('t:s').toString('base64')}`,
    server,
    close: () => server.close()
  })
})
afterAll(async () => {
  await c.sb.close()
})

describe('seed data on first start (default)', () => {
  it('has customers in every KYC status', async () => {
    const r = await c.get('/customers?limit=100')
    const statuses = new Set(r.body.data.map((x: any) => x.kycStatus))
    expect([...statuses].sort()).toEqual(['APPROVED', 'PENDING', 'REJECTED', 'UNVERIFIED'])
  })

  it('has external accounts of each kind and in every status', async () => {
    const customer = (await c.get('/customers/external-accounts?limit=100')).body.data
    const platform = (await c.get('/platform/external-accounts')).body.data
    const all = [...customer, ...platform]
    const types = new Set(all.map((a: any) => a.accountInfo.accountType))
    // The published API's types only: no spec-only US_ACCOUNT (tests/contract/seed-published-shapes.test.ts).
    for (const t of ['USD_ACCOUNT', 'SPARK_WALLET', 'MXN_ACCOUNT', 'GBP_ACCOUNT', 'NGN_ACCOUNT', 'EUR_ACCOUNT']) {
      expect(types.has(t), t).toBe(true)
    }
    expect(new Set(all.map((a: any) => a.status))).toEqual(new Set(['PENDING', 'ACTIVE', 'UNDER_REVIEW', 'INACTIVE']))
    expect(customer.filter((a: any) => a.defaultUmaDepositAccount).length).toBeGreaterThan(0)
  })

  it('every seeded account would be accepted by the create schema', () => {
    for (const a of c.sb.server.state.store.externalAccounts.values()) {
      const {
        id: _id,
        status: _s,
        createdAt: _c,
        updatedAt: _u,
        beneficiaryVerificationStatus: _b,
        beneficiaryVerifiedData: _d,
        ...req
      } = a.data
      const r = ExternalAccountCreateRequest.safeParse(req)
      expect(r.success, `${a.id}: ${r.success ? '' : JSON.stringify(r.error.issues)}`).toBe(true)
    }
  })

  it('has funded platform internal accounts in USD and other currencies', async () => {
    const data = (await c.get('/platform/internal-accounts')).body.data
    const funded = data.filter((a: any) => a.balance.amount > 0).map((a: any) => a.balance.currency.code)
    expect(funded).toContain('USD')
    expect(funded.filter((x: string) => x !== 'USD').length).toBeGreaterThan(0)
  })

  it('has transactions in every status of spec 3.2, incoming and outgoing', async () => {
    const data = (await c.get('/transactions?limit=100')).body.data
    const incoming = new Set(data.filter((t: any) => t.type === 'INCOMING').map((t: any) => t.status))
    const outgoing = new Set(data.filter((t: any) => t.type === 'OUTGOING').map((t: any) => t.status))
    expect([...incoming].sort()).toEqual([...INCOMING_TRANSACTION_STATUSES].sort())
    expect([...outgoing].sort()).toEqual([...OUTGOING_TRANSACTION_STATUSES].sort())
    for (const t of data) if (t.status === 'FAILED') expect(t.failureReason, t.id).toBeTruthy()
    for (const t of data)
      if (t.type === 'INCOMING' && t.status !== 'CREATED') expect(t.reconciliationInstructions?.reference).toBeTruthy()
  })

  it('history is spread over the past weeks and the ledger adds up', async () => {
    const data = (await c.get('/transactions?limit=100&sortOrder=asc')).body.data
    const first = Date.parse(data[0].createdAt)
    expect(Date.now() - first).toBeGreaterThan(20 * 24 * 3600 * 1000)
    expectLedgerConsistent(c)
  })

  it('its PENDING incoming payment is not waiting for the platform: approve is refused, as at the service', async () => {
    const pending = (await c.get('/transactions?status=PENDING&type=INCOMING')).body.data[0]
    const r = await c.post(`/transactions/${pending.id}/approve`, {})
    expect(r.status, r.text).toBe(409)
    expect(r.body.code).toBe('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL')
  })

  it('its history was decided by answers to approval webhooks: approved, rejected, timed out after a 202', async () => {
    const data = (await c.get('/transactions?type=INCOMING&limit=100')).body.data
    expect(data.filter((t: any) => t.status === 'REJECTED')).toHaveLength(1)
    expect(data.filter((t: any) => t.failureReason === 'PAYMENT_APPROVAL_TIMED_OUT')).toHaveLength(1)
    expect(data.filter((t: any) => t.status === 'COMPLETED').length).toBeGreaterThanOrEqual(6)
  })
})
