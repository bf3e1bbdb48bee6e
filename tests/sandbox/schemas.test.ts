/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies under test are untyped JSON, checked by assertions and the shared schemas */
/**
 * Every response of the sandbox parses with the shared response schemas (src/shared/api), which is what Paydesk
 * reads with: if the sandbox and the schemas drift apart, this fails.
 */
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { Customer } from '../../src/shared/api/customer'
import { DiscoveryEntry } from '../../src/shared/api/discovery'
import { ApiErrorBody } from '../../src/shared/api/error'
import { ExternalAccount } from '../../src/shared/api/external-account'
import { InternalAccount } from '../../src/shared/api/internal-account'
import { dataList, pagedList } from '../../src/shared/api/list'
import { Quote } from '../../src/shared/api/quote'
import { IncomingTransaction, KnownTransaction, OutgoingTransaction } from '../../src/shared/api/transaction'
import {
  activeAccount,
  createUsAccount,
  DEFER,
  fakeClock,
  internalAccountOf,
  platformFor,
  sandboxForSuite,
  receiveUsd,
  transferOut
} from './util'

// A stepped clock: a payment deferred (202) waits for approve/reject however slow the machine.
const c = sandboxForSuite({ seed: true, timeScale: 1, now: fakeClock().now }, { ledger: false })

function parses(schema: z.ZodType, body: unknown, what: string): void {
  const r = schema.safeParse(body)
  expect(r.success, `${what}: ${r.success ? '' : JSON.stringify(r.error.issues.slice(0, 3))}`).toBe(true)
}

describe('responses parse with the shared schemas', () => {
  it('list endpoints (seeded data: every status and type)', async () => {
    const cases: Array<[string, z.ZodType]> = [
      ['/discoveries', dataList(DiscoveryEntry)],
      ['/customers?limit=100&isIncludingDeleted=true', pagedList(Customer)],
      ['/customers/external-accounts?limit=100', pagedList(ExternalAccount)],
      ['/platform/external-accounts', dataList(ExternalAccount)],
      ['/platform/internal-accounts', dataList(InternalAccount)],
      ['/customers/internal-accounts?limit=100', pagedList(InternalAccount)],
      ['/transactions?limit=100', pagedList(KnownTransaction)]
    ]
    for (const [path, schema] of cases) {
      const r = await c.get(path)
      expect(r.status, path).toBe(200)
      parses(schema, r.body, path)
      expect(r.body.data.length, path).toBeGreaterThan(0)
    }
  })

  it('single resources and every write', async () => {
    const cust = await c.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Schema Check', region: 'US' })
    parses(Customer, cust.body, 'POST /customers')
    parses(Customer, (await c.get(`/customers/${cust.body.id}`)).body, 'GET /customers/{id}')
    parses(
      Customer,
      (await c.patch(`/customers/${cust.body.id}`, { birthDate: '1991-02-03' })).body,
      'PATCH /customers/{id}'
    )

    const acct = await createUsAccount(c, cust.body.id, '31313131')
    parses(ExternalAccount, acct, 'POST /customers/external-accounts')
    parses(ExternalAccount, (await c.get(`/customers/external-accounts/${acct.id}`)).body, 'GET external account')
    parses(
      ExternalAccount,
      (await c.patch(`/customers/external-accounts/${acct.id}`, { platformAccountId: 'x' })).body,
      'PATCH external account'
    )

    const internal = await internalAccountOf(c, cust.body.id)
    parses(
      InternalAccount,
      (await c.post(`/sandbox/internal-accounts/${internal}/fund`, { amount: 100_000 })).body,
      'fund'
    )

    const receipt = await receiveUsd(c, cust.body.id, { receivingCurrencyAmount: 1_000 })
    parses(IncomingTransaction, receipt.body, 'sandbox receive')
    // approve and reject take payments whose approval webhook was answered 202.
    const platform = await platformFor(c)
    try {
      const incoming = await platform.receive(cust.body.id, DEFER, { receivingCurrencyAmount: 1_000 })
      parses(IncomingTransaction, (await c.post(`/transactions/${incoming.id}/approve`, {})).body, 'approve')
      const other = await platform.receive(cust.body.id, DEFER, { receivingCurrencyAmount: 1_000 })
      parses(IncomingTransaction, (await c.post(`/transactions/${other.id}/reject`, { reason: 'NO' })).body, 'reject')
      parses(KnownTransaction, (await c.get(`/transactions/${other.id}`)).body, 'GET transaction')
    } finally {
      await platform.close()
    }

    // timeScale 1: the account verifies after 5 s; make it ACTIVE now by running the due job early
    c.sb.server.state.store.externalAccounts.get(acct.id)!.data.status = 'ACTIVE'
    await activeAccount(c, acct.id)
    const out = await transferOut(c, internal, acct.id, 500)
    expect(out.status, out.text).toBe(201)
    parses(OutgoingTransaction, out.body, 'transfer-out')

    const platformUsd = (await c.get('/platform/internal-accounts?currency=USD')).body.data[0].id
    const mxn = (await c.get('/customers/external-accounts?currency=MXN&limit=100')).body.data.find(
      (a: any) => a.status === 'ACTIVE'
    )
    const q = await c.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: platformUsd },
      destination: { destinationType: 'ACCOUNT', accountId: mxn.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 5_000
    })
    expect(q.status, q.text).toBe(201)
    parses(Quote, q.body, 'POST /quotes')
    parses(Quote, (await c.get(`/quotes/${q.body.id}`)).body, 'GET /quotes/{id}')
    parses(
      OutgoingTransaction,
      (await c.post('/sandbox/send', { quoteId: q.body.id, currencyCode: 'USD' })).body,
      'sandbox send'
    )
    parses(Customer, (await c.del(`/customers/${cust.body.id}`)).body, 'DELETE /customers/{id}')
  })

  it('error bodies', async () => {
    for (const r of [
      await c.get('/customers/Customer:nope'),
      await c.post('/customers', {}),
      await c.get('/nowhere'),
      await c.post('/transactions/Transaction:nope/approve', {}),
      await c.req('GET', '/customers', undefined, { authorization: 'Basic eDp5' })
    ]) {
      parses(ApiErrorBody, r.body, `${r.status}`)
      expect(r.body.status).toBe(r.status)
    }
  })
})
