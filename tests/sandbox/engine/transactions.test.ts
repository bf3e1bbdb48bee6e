/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies under test are untyped JSON, checked by assertions and the shared schemas */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pagedList } from '../../../src/shared/api/list'
import { Transaction } from '../../../src/shared/api/transaction'
import { DURATIONS } from '../../../src/sandbox/state/timing'
import {
  type Client,
  createCustomer,
  DEFER,
  expectError,
  fakeClock,
  internalAccountOf,
  KNOWN_RECEIVER,
  platformFor,
  start,
  startStepped,
  type Platform,
  usAccountBody,
  transferOut
} from '../util'

const SENDER = '$success.usd@sandbox.uma.money'
const receive = (c: Client, customerId: string, amount = 1_000) =>
  c.post('/sandbox/uma/receive', {
    senderUmaAddress: SENDER,
    customerId,
    receivingCurrencyCode: 'USD',
    receivingCurrencyAmount: amount
  })

async function pageAll(c: Client, query: string, limit: number, between?: () => Promise<void>): Promise<string[]> {
  const ids: string[] = []
  let cursor: string | undefined
  for (let guard = 0; guard < 1000; guard++) {
    const r = await c.get(
      `/transactions?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
    )
    expect(r.status, r.text).toBe(200)
    pagedList(Transaction).parse(r.body)
    expect(r.body.data.length).toBeLessThanOrEqual(limit)
    if (r.body.hasMore) {
      expect(typeof r.body.nextCursor).toBe('string')
      expect(r.body.data.length).toBe(limit)
    } else {
      expect('nextCursor' in r.body).toBe(false)
    }
    ids.push(...r.body.data.map((t: { id: string }) => t.id))
    cursor = r.body.nextCursor
    if (!cursor) return ids
    if (between) await between()
  }
  throw new Error('too many pages')
}

describe('cursor paging', () => {
  let c: Client
  let cust: { id: string }
  const created: string[] = []
  beforeAll(async () => {
    c = await start()
    cust = await createCustomer(c)
    for (let i = 0; i < 45; i++) created.push((await receive(c, cust.id, 1_000 + i)).body.id)
  })
  afterAll(async () => {
    await c.sb.close()
  })

  it('default order is desc (newest first); asc on request; totalCount ignores paging', async () => {
    const r = await c.get(`/transactions?customerId=${cust.id}&limit=5`)
    expect(r.body.totalCount).toBe(45)
    expect(r.body.data.map((t: any) => t.id)).toEqual(created.slice(-5).reverse())
    const asc = await c.get(`/transactions?customerId=${cust.id}&limit=5&sortOrder=asc`)
    expect(asc.body.data.map((t: any) => t.id)).toEqual(created.slice(0, 5))
    expect((await c.get(`/transactions?customerId=${cust.id}`)).body.data).toHaveLength(20)
  })

  it('asc: never skips or repeats while items are created between pages (new ones come at the end)', async () => {
    const extra: string[] = []
    const ids = await pageAll(c, `customerId=${cust.id}&sortOrder=asc`, 7, async () => {
      extra.push((await receive(c, cust.id)).body.id)
      extra.push((await receive(c, cust.id)).body.id)
    })
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.slice(0, 45)).toEqual(created)
    expect(ids.slice(45)).toEqual(extra)
    created.push(...extra)
  })

  it('desc: never skips or repeats existing items while items are created between pages', async () => {
    const before = [...created]
    const ids = await pageAll(c, `customerId=${cust.id}`, 6, async () => {
      created.push((await receive(c, cust.id)).body.id)
    })
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toEqual([...before].reverse())
  })

  it('rejects a malformed cursor with 400', async () => {
    expectError(await c.get('/transactions?cursor=%%%'), 400, 'INVALID_INPUT')
    expectError(
      await c.get(`/transactions?cursor=${Buffer.from('{"v":2}').toString('base64url')}`),
      400,
      'INVALID_INPUT'
    )
  })
})

describe('list answers follow status changes', () => {
  // A stepped clock: at a 0.01 time scale the payment settled 30 ms after approval, so a loaded machine could read
  // COMPLETED where PROCESSING is asserted.
  it('a list never shows a stale status (item JSON is cached between changes)', async () => {
    const { c, elapse } = await startStepped()
    const platform = await platformFor(c)
    try {
      const cust = await createCustomer(c, KNOWN_RECEIVER)
      const tx = await platform.receive(cust.id, DEFER)
      const first = await c.get(`/transactions?customerId=${cust.id}&limit=1`)
      expect(first.body.data[0]).toMatchObject({ id: tx.id, status: 'PENDING' })
      expect((await c.post(`/transactions/${tx.id}/approve`, {})).status).toBe(200)
      const second = await c.get(`/transactions?customerId=${cust.id}&limit=1`)
      expect(second.body.data[0]).toMatchObject({ id: tx.id, status: 'PROCESSING' })
      elapse(DURATIONS.incomingProcessing)
      const third = await c.get(`/transactions?customerId=${cust.id}&limit=1&status=COMPLETED`)
      expect(third.body.data[0]).toMatchObject({ id: tx.id, status: 'COMPLETED' })
      expect((await c.get(`/transactions?customerId=${cust.id}&limit=1`)).body.data[0].status).toBe('COMPLETED')
    } finally {
      await platform.close()
      await c.sb.close()
    }
  })
})

describe('paging with a frozen clock (every item in the same millisecond)', () => {
  it('orders ties by id and still never skips or repeats', async () => {
    const clock = fakeClock()
    const c = await start({ now: clock.now })
    try {
      const cust = await createCustomer(c)
      const created: string[] = []
      for (let i = 0; i < 12; i++) created.push((await receive(c, cust.id)).body.id)
      const all = await c.get(`/transactions?customerId=${cust.id}&limit=100&sortOrder=asc`)
      expect(new Set(all.body.data.map((t: any) => t.createdAt)).size).toBe(1)
      expect(all.body.data.map((t: any) => t.id)).toEqual(created)
      const extra: string[] = []
      const ids = await pageAll(c, `customerId=${cust.id}&sortOrder=asc`, 5, async () => {
        extra.push((await receive(c, cust.id)).body.id)
      })
      expect(ids).toEqual([...created, ...extra])
    } finally {
      await c.sb.close()
    }
  })
})

describe('filters of spec 4.9', () => {
  let c: Client
  const clock = fakeClock(Date.parse('2025-10-01T00:00:00Z'))
  let a: any
  let b: any
  let platform: Platform
  const tx: Record<string, any> = {}
  beforeAll(async () => {
    c = await start({ now: clock.now, timeScale: 1 })
    // Each payment's approval webhook is deferred (202): approve/reject decide it, or nothing and it times out.
    platform = await platformFor(c)
    const deferred = (customerId: string) => platform.receive(customerId, DEFER, { receivingCurrencyAmount: 1_000 })
    a = await createCustomer(c, { platformCustomerId: 'pa', ...KNOWN_RECEIVER })
    b = await createCustomer(c, { platformCustomerId: 'pb', ...KNOWN_RECEIVER })
    tx.a1 = await deferred(a.id) // 2025-10-01T00:00:00Z
    clock.set(Date.parse('2025-10-02T23:59:59.999Z'))
    tx.a2 = await deferred(a.id)
    await c.post(`/transactions/${tx.a2.id}/approve`, {})
    clock.set(Date.parse('2025-10-03T00:00:00.000Z'))
    tx.b1 = await deferred(b.id)
    await c.post(`/transactions/${tx.b1.id}/reject`, {})
    clock.set(Date.parse('2025-10-05T12:00:00Z'))
    const internal = await internalAccountOf(c, a.id)
    await c.post(`/sandbox/internal-accounts/${internal}/fund`, { amount: 10_000 })
    const acct = await c.post('/customers/external-accounts', usAccountBody(a.id, '99990000'))
    clock.advance(10_000)
    tx.out = (await transferOut(c, internal, acct.body.id, 100)).body
    tx.internal = internal
    tx.external = acct.body.id
  })
  afterAll(async () => {
    await platform.close()
    await c.sb.close()
  })

  const ids = async (q: string) => {
    const r = await c.get(`/transactions?${q}`)
    expect(r.status, r.text).toBe(200)
    return r.body.data.map((t: any) => t.id).sort()
  }

  it('customerId and platformCustomerId', async () => {
    expect(await ids(`customerId=${a.id}`)).toEqual([tx.a1.id, tx.a2.id, tx.out.id].sort())
    expect(await ids('platformCustomerId=pb')).toEqual([tx.b1.id])
    expect(await ids('customerId=Customer:nobody')).toEqual([])
  })

  it('status and type', async () => {
    expect(await ids('status=REJECTED')).toEqual([tx.b1.id])
    // days have passed on the stepped clock: a1 timed out, a2 settled, the transfer-out is still PENDING
    expect(await ids('status=FAILED&type=INCOMING')).toEqual([tx.a1.id])
    expect(await ids('status=COMPLETED')).toEqual([tx.a2.id])
    expect(await ids('type=OUTGOING')).toEqual([tx.out.id])
    expect(await ids('status=PENDING')).toEqual([tx.out.id])
    expect(await ids('status=PENDING&type=INCOMING')).toEqual([])
    expectError(await c.get('/transactions?status=DONE'), 400, 'INVALID_INPUT')
    expectError(await c.get('/transactions?type=SIDEWAYS'), 400, 'INVALID_INPUT')
    expectError(await c.get('/transactions?sortOrder=up'), 400, 'INVALID_INPUT')
  })

  it('sender and receiver account identifiers, reference', async () => {
    expect(await ids(`senderAccountIdentifier=${encodeURIComponent(tx.internal)}`)).toEqual([tx.out.id])
    expect(await ids(`receiverAccountIdentifier=${encodeURIComponent(tx.external)}`)).toEqual([tx.out.id])
    expect(await ids(`senderAccountIdentifier=${encodeURIComponent(SENDER)}&customerId=${b.id}`)).toEqual([tx.b1.id])
    expect(await ids(`reference=${encodeURIComponent(tx.a2.reconciliationInstructions.reference)}`)).toEqual([tx.a2.id])
    expect(await ids('reference=nothing')).toEqual([])
  })

  it('the published accountIdentifier: the account as sender or as receiver', async () => {
    const internal = encodeURIComponent(tx.internal)
    const either = await ids(`accountIdentifier=${internal}`)
    const sent = await ids(`senderAccountIdentifier=${internal}`)
    const received = await ids(`receiverAccountIdentifier=${internal}`)
    expect(received.length).toBeGreaterThan(0)
    expect(either).toEqual([...new Set([...sent, ...received])].sort())
    expect(await ids(`accountIdentifier=${encodeURIComponent(tx.external)}`)).toEqual([tx.out.id])
    expect(await ids(`accountIdentifier=${internal}&type=OUTGOING`)).toEqual([tx.out.id])
    expect(await ids('accountIdentifier=ExternalAccount:nobody')).toEqual([])
  })

  it('startDate and endDate are inclusive (date-times and whole days)', async () => {
    expect(await ids('startDate=2025-10-01T00:00:00Z&endDate=2025-10-01T00:00:00Z')).toEqual([tx.a1.id])
    expect(await ids('startDate=2025-10-02T00:00:00Z&endDate=2025-10-02')).toEqual([tx.a2.id])
    expect(await ids('endDate=2025-10-02T23:59:59.999Z')).toEqual([tx.a1.id, tx.a2.id].sort())
    expect(await ids('startDate=2025-10-03T00:00:00Z&type=INCOMING')).toEqual([tx.b1.id])
    expect(await ids('startDate=2025-10-01T00:00:00.001Z&endDate=2025-10-02T23:59:59.998Z')).toEqual([])
    const r = await c.get('/transactions?startDate=2025-10-01T00:00:00Z&endDate=2025-10-03&limit=1&sortOrder=asc')
    expect(r.body.totalCount).toBe(3)
    expect(r.body.data[0].id).toBe(tx.a1.id)
    expectError(await c.get('/transactions?startDate=2025-10-05T00:00:00Z&endDate=2025-10-01'), 400, 'INVALID_INPUT')
    // A date-only startDate is refused, as the published API (format: date-time) refuses it.
    expectError(await c.get('/transactions?startDate=2025-10-01'), 400, 'INVALID_INPUT')
    expectError(await c.get('/transactions?startDate=last-week'), 400, 'INVALID_INPUT')
  })

  it('totalCount counts every match when filters combine with paging', async () => {
    const r = await c.get(`/transactions?customerId=${a.id}&limit=1`)
    expect(r.body).toMatchObject({ totalCount: 3, hasMore: true })
    const two = await c.get(
      `/transactions?customerId=${a.id}&type=INCOMING&limit=1&cursor=${encodeURIComponent(r.body.nextCursor)}`
    )
    expect(two.body.totalCount).toBe(2)
  })
})
