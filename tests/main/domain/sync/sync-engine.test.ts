import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApiClient } from '../../../../src/main/infra/api-client'
import { TEXT_DEFERRED_KEY } from '../../../../src/main/infra/cache/schema'
import { CacheStore } from '../../../../src/main/infra/cache/store'
import { TEXT_REBUILDING } from '../../../../src/main/infra/cache/text-policy'
import { SyncEngine } from '../../../../src/main/domain/sync/sync-engine'
import type { SchedulerState } from '../../../../src/main/domain/sync/poll-scheduler'
import type { Transaction } from '../../../../src/shared/api'
import { json, stubServer, tempDir } from '../../helpers'
import { makeTransactions } from '../../infra/cache/fixtures'
import { FakeClock } from './fake-clock'

/** A service with 20 old transactions stuck in PROCESSING and nothing new: what does sync cost over time? */
let cleanup: () => Promise<void>
let cache: CacheStore
let stub: Awaited<ReturnType<typeof stubServer>>
let client: ApiClient
const stuck: Transaction[] = Array.from({ length: 20 }, (_, i) => ({
  id: `Transaction:stuck-${i}`,
  type: 'OUTGOING',
  status: 'PROCESSING',
  customerId: 'Customer:1',
  platformCustomerId: 'p1',
  source: { accountId: 'InternalAccount:1' },
  destination: { accountId: 'ExternalAccount:1' },
  sentAmount: { amount: 100, currency: { code: 'USD', decimals: 2 } },
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z'
})) as Transaction[]

beforeEach(async () => {
  const t = await tempDir('engine')
  cleanup = t.cleanup
  cache = (await CacheStore.open(path.join(t.dir, 'c'), randomBytes(32))).store
  await cache.put('transactions', stuck, { meta: { 'tx.watermark': '2025-01-01T00:00:00.000Z' } })
  stub = await stubServer((req, res) => {
    const url = new URL(req.url!, 'http://x')
    const m = /\/transactions\/(.+)$/.exec(url.pathname)
    if (m)
      return json(
        res,
        200,
        stuck.find((s) => s.id === decodeURIComponent(m[1]!))
      )
    json(res, 200, { data: [], hasMore: false, totalCount: 0 })
  })
  client = new ApiClient({ baseUrl: stub.baseUrl, tokenId: 't', clientSecret: 's' })
})
afterEach(async () => {
  await client.close()
  await cache.close()
  await stub.close()
  await cleanup()
})

/** An engine over `client` and `store` with nothing in flight and nobody listening; `extra` overrides. */
function quietEngine(
  client: ApiClient,
  store: CacheStore,
  extra: Partial<ConstructorParameters<typeof SyncEngine>[0]> = {}
) {
  return new SyncEngine({
    profileId: 'p',
    client,
    cache: store,
    clock: new FakeClock(),
    log: () => {},
    operatorInFlight: () => [],
    onChanges: async () => {},
    onStatus: () => {},
    ...extra
  })
}

/**
 * A service whose listing pages through `history` as the real one does (created since `startDate`, offset cursors,
 * `limit` per page, totalCount of what the filter matched), with a fresh cache and a client beside it. `onRequest`
 * sees each request first; `close` disposes of all four.
 */
async function historyService(history: Transaction[], name: string, onRequest: () => void = () => {}) {
  const stub = await stubServer((req, res) => {
    onRequest()
    const url = new URL(req.url!, 'http://x')
    if (!url.pathname.endsWith('/transactions')) return json(res, 404, { code: 'NOT_FOUND', message: 'no' })
    const startDate = Date.parse(url.searchParams.get('startDate') ?? '1970-01-01T00:00:00Z')
    const listed = history.filter((h) => Date.parse(String(h.createdAt)) >= startDate)
    const from = Number(url.searchParams.get('cursor') ?? 0)
    const limit = Number(url.searchParams.get('limit') ?? 100)
    const data = listed.slice(from, from + limit)
    const more = from + limit < listed.length
    json(res, 200, {
      data,
      hasMore: more,
      ...(more && { nextCursor: String(from + limit) }),
      totalCount: listed.length
    })
  })
  const t = await tempDir(name)
  const cache = (await CacheStore.open(path.join(t.dir, 'c'), randomBytes(32))).store
  const client = new ApiClient({ baseUrl: stub.baseUrl, tokenId: 't', clientSecret: 's' })
  const close = async () => {
    await client.close()
    await stub.close()
    await cache.close()
    await t.cleanup()
  }
  return { cache, client, close }
}

/** `total` settled transactions, a second apart from 2025-03-01, their ids `Transaction:<prefix>-0000` on. */
const settledHistory = (total: number, prefix: string): Transaction[] =>
  Array.from({ length: total }, (_, i) => ({
    ...stuck[0]!,
    id: `Transaction:${prefix}-${String(i).padStart(4, '0')}`,
    status: 'COMPLETED',
    createdAt: new Date(Date.parse('2025-03-01T00:00:00Z') + i * 1000).toISOString()
  }))

async function run(initial: Partial<SchedulerState>, minutes: number, operatorInFlight: string[] = []) {
  const clock = new FakeClock()
  const engine = new SyncEngine({
    profileId: 'p',
    client,
    cache,
    clock,
    log: () => {},
    operatorInFlight: () => operatorInFlight,
    onChanges: async () => {},
    onStatus: () => {},
    initial
  })
  engine.start()
  for (let t = 0; t < minutes * 60; t++) {
    await clock.advance(1_000)
    await engine.scheduler.idle()
  }
  engine.stop()
  await engine.scheduler.idle()
  return {
    engine,
    requests: stub.requests.length,
    lists: stub.requests.filter((r) => /\/transactions\?/.test(r.url)).length
  }
}

describe('SyncEngine request budget', () => {
  it('stays within 2 requests a minute in the background when nothing is in flight', async () => {
    const { requests, lists } = await run({ foreground: false }, 30)
    // 40 s polls → 46 list requests in 30 minutes, plus 2 re-check rounds of 5 stale transactions (every 15 min).
    expect(lists).toBeLessThanOrEqual(46)
    expect(requests).toBeLessThanOrEqual(2 * 30)
  })

  it('polls about every second in front while a transfer the operator started is in flight', async () => {
    const { lists, requests } = await run({ foreground: true }, 1, ['Transaction:stuck-0'])
    expect(lists).toBeGreaterThanOrEqual(55)
    expect(lists).toBeLessThanOrEqual(61)
    // Each poll: one list + the operator's transfer; once a minute a few stale ones.
    expect(requests).toBeLessThanOrEqual(lists * 2 + 5)
  })

  it('in front with nothing in flight: every 5 s, and stale non-final transactions re-checked once a minute', async () => {
    const { lists, requests } = await run({ foreground: true }, 3)
    expect(lists).toBeGreaterThanOrEqual(35)
    expect(lists).toBeLessThanOrEqual(37)
    expect(requests - lists).toBeLessThanOrEqual(3 * 5 + 5)
  })
})

describe('SyncEngine with an unreadable transaction in a page', () => {
  it('sets it aside, keeps the good ones, moves the watermark and says so once', async () => {
    const incoming = (id: string, createdAt: string) => ({
      id,
      type: 'INCOMING',
      status: 'PENDING',
      customerId: 'Customer:1',
      platformCustomerId: 'p1',
      destination: { accountId: 'InternalAccount:1' },
      receivedAmount: { amount: 100, currency: { code: 'USD', decimals: 2 } },
      createdAt,
      updatedAt: createdAt,
      someNewField: { kept: true }
    })
    const good1 = incoming('Transaction:good-1', '2025-02-01T00:00:00.000Z')
    // Unknown enum values stay readable; a missing required amount does not.
    const good2 = { ...incoming('Transaction:good-2', '2025-02-01T00:00:02.000Z'), status: 'SOMETHING_NEW' }
    const bad = { ...incoming('Transaction:bad-1', '2025-02-01T00:00:03.000Z'), receivedAmount: 'secret-payload-xyz' }
    const pageStub = await stubServer((req, res) => {
      const one = /\/transactions\/(.+)$/.exec(new URL(req.url!, 'http://x').pathname)
      if (one) {
        const id = decodeURIComponent(one[1]!)
        return json(
          res,
          200,
          [good1, good2, ...stuck].find((t) => t.id === id)
        )
      }
      json(res, 200, { data: [good1, bad, good2], hasMore: false, totalCount: 3 })
    })
    const pageClient = new ApiClient({ baseUrl: pageStub.baseUrl, tokenId: 't', clientSecret: 's', baseDelayMs: 1 })
    const logs: string[] = []
    const statuses: Array<{ state: string; message?: string }> = []
    try {
      const engine = quietEngine(pageClient, cache, { log: (m) => logs.push(m), onStatus: (s) => statuses.push(s) })
      expect(await engine.poll()).toMatchObject({ ok: true })
      expect(await engine.poll()).toMatchObject({ ok: true })
      expect(cache.get('transactions', 'Transaction:good-1')).toMatchObject({ someNewField: { kept: true } })
      expect(cache.get('transactions', 'Transaction:good-2')).toMatchObject({ status: 'SOMETHING_NEW' })
      expect(cache.get('transactions', 'Transaction:bad-1')).toBeUndefined()
      expect(cache.meta('tx.watermark')).toBe('2025-02-01T00:00:03.000Z')
      expect(engine.current).toMatchObject({
        state: 'live',
        message: '1 transaction from the service could not be read and was skipped: Transaction:bad-1.'
      })
      expect(new Set(statuses.map((s) => s.message).filter(Boolean)).size).toBe(1)
      expect(logs.filter((l) => l.includes('Transaction:bad-1'))).toHaveLength(1)
      expect(logs.join('\n')).not.toContain('secret-payload-xyz')
    } finally {
      await pageClient.close()
      await pageStub.close()
    }
  })
})

describe('SyncEngine on the first sync of a long history', () => {
  it('says how far along it is, from the service’s totalCount, until the history is in', async () => {
    const total = 250
    const history = settledHistory(total, 'history')
    const { cache: fresh, client: historyClient, close } = await historyService(history, 'engine-history')
    const statuses: Array<{ state: string; message?: string; progress?: { done: number; total: number } }> = []
    try {
      const engine = quietEngine(historyClient, fresh, {
        onStatus: (s) =>
          statuses.push({
            state: s.state,
            ...(s.message !== undefined && { message: s.message }),
            ...(s.progress !== undefined && { progress: s.progress })
          })
      })
      await engine.poll()
      // Pages read while one is written go to the cache together: how many steps depends on timing, but the first
      // page is written alone, the count only grows and the last step is 'live'.
      const messages = statuses.map((s) => s.message).filter(Boolean)
      expect(messages[0]).toBe('Syncing history: 100 of 250')
      expect(messages.every((m) => /^Syncing history: [12]00 of 250$/.test(m!))).toBe(true)
      const done = statuses.filter((s) => s.progress).map((s) => s.progress!.done)
      expect(done).toEqual([...new Set(done)].sort((a, b) => a - b))
      expect(statuses.filter((s) => s.progress).every((s) => s.progress!.total === 250)).toBe(true)
      expect(engine.current.progress).toBeUndefined()
      expect(statuses.every((s) => s.state === 'syncing' || s === statuses.at(-1))).toBe(true)
      expect(engine.current.state).toBe('live')
      expect(engine.current.message).toBeUndefined()
      expect(fresh.count('transactions')).toBe(total)
    } finally {
      await close()
    }
  })
})

describe('SyncEngine when a cache write fails during a catch-up', () => {
  it('keeps the watermark with the rows it covers, and the next poll adds the rest once each', async () => {
    const total = 250
    const history = settledHistory(total, 'h')
    const { cache: fresh, client: historyClient, close } = await historyService(history, 'engine-fail')
    let puts = 0
    let failing = true
    // The second write of the listing fails, as a full disk would.
    const flaky = new Proxy(fresh, {
      get(target, prop, receiver) {
        if (prop === 'put')
          return (...args: Parameters<CacheStore['put']>) =>
            failing && ++puts === 2 ? Promise.reject(new Error('disk full')) : target.put(...args)
        const value = Reflect.get(target, prop, receiver) as unknown
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value
      }
    })
    try {
      const engine = quietEngine(historyClient, flaky)
      expect(await engine.poll()).toMatchObject({ ok: false })
      expect(fresh.count('transactions')).toBe(100)
      expect(fresh.meta('tx.watermark')).toBe(history[99]!.createdAt)
      failing = false
      expect(await engine.poll()).toMatchObject({ ok: true, catchingUp: false })
      expect(fresh.count('transactions')).toBe(total)
      expect(fresh.meta('tx.watermark')).toBe(history[total - 1]!.createdAt)
    } finally {
      await close()
    }
  })
})

describe('SyncEngine against a listing that never ends', () => {
  it.each([
    ['the same cursor again', (from: number) => ({ hasMore: true, nextCursor: 'again', data: from === 0 ? 1 : 1 })],
    [
      'empty pages that claim more',
      (from: number) => ({ hasMore: true, nextCursor: `c${from + 1}`, data: from === 0 ? 1 : 0 })
    ]
  ])('%s: settles after a few requests and says so', async (_name, shape) => {
    let requests = 0
    const row = { ...stuck[0]!, id: 'Transaction:loop-1', createdAt: '2025-04-01T00:00:00.000Z' }
    const loopStub = await stubServer((req, res) => {
      const url = new URL(req.url!, 'http://x')
      if (!url.pathname.endsWith('/transactions')) return json(res, 200, row)
      requests++
      const from = Number((url.searchParams.get('cursor') ?? 'c0').replace(/\D/g, '') || 0)
      const page = shape(from)
      json(res, 200, {
        data: page.data ? [row] : [],
        hasMore: page.hasMore,
        nextCursor: page.nextCursor,
        totalCount: 5
      })
    })
    const loopClient = new ApiClient({ baseUrl: loopStub.baseUrl, tokenId: 't', clientSecret: 's' })
    const logs: string[] = []
    try {
      const engine = quietEngine(loopClient, cache, { log: (m) => logs.push(m) })
      expect(await engine.poll()).toMatchObject({ ok: true, catchingUp: false })
      expect(requests).toBeLessThanOrEqual(3)
      expect(engine.current.state).toBe('live')
      expect(engine.current.message).toMatch(/did not end/)
      await engine.poll()
      expect(requests).toBeLessThanOrEqual(6)
      expect(logs.filter((l) => l.includes('did not end'))).toHaveLength(1)
      expect(cache.get('transactions', 'Transaction:loop-1')).toBeDefined()
    } finally {
      await loopClient.close()
      await loopStub.close()
    }
  })
})

describe('SyncEngine catching up on a history larger than the cache', () => {
  it('leaves the text index behind while it reads, says so, and rebuilds it before it says live', async () => {
    const total = 5_200
    const history = makeTransactions(total)
    let onRequest = () => {}
    const { cache, client, close } = await historyService(history, 'engine-catch-up', () => onRequest())
    const search = async (needle: string) =>
      (await cache.queryTransactions({ search: needle }, { field: 'createdAt', direction: 'asc' }, 0, 100)).total
    const messages: Array<string | undefined> = []
    try {
      const engine = quietEngine(client, cache, { onStatus: (s) => messages.push(s.message) })
      // One poll reads 5,000 of them: the rest is for the next.
      expect(await engine.poll()).toMatchObject({ ok: true, catchingUp: true })
      expect(cache.meta(TEXT_DEFERRED_KEY)).toBe(true)
      expect(await search('Transaction:00030')).toBe(0)
      expect(engine.current.message).toMatch(/^Syncing history: 5,000 of 5,200\. Text search finds these/)

      expect(await engine.poll()).toMatchObject({ ok: true, catchingUp: false })
      expect(cache.count('transactions')).toBe(total)
      expect(cache.meta(TEXT_DEFERRED_KEY)).toBe(false)
      expect(await search('Transaction:00030')).toBe(100)
      expect(await search('Transaction:00051')).toBe(100)
      expect(engine.current).toMatchObject({ state: 'live' })
      expect(engine.current.message).toBeUndefined()
      // The operator was told while the index was rebuilt, and only at the end of the catch-up.
      expect(messages.filter((m) => m === TEXT_REBUILDING)).toHaveLength(1)

      // A cache upgraded to a new schema opens with its text index left behind: the next poll says so before it
      // asks anything (its writes wait behind the rebuild), not only at its end.
      await cache.setMeta({ [TEXT_DEFERRED_KEY]: true })
      let shownAtRequest: string | undefined
      onRequest = () => (shownAtRequest ??= engine.current.message ?? 'nothing')
      expect(await engine.poll()).toMatchObject({ ok: true, catchingUp: false })
      expect(shownAtRequest).toBe(TEXT_REBUILDING)
      expect(cache.meta(TEXT_DEFERRED_KEY)).toBe(false)
      expect(await search('Transaction:00030')).toBe(100)
      expect(engine.current).toMatchObject({ state: 'live' })
      expect(engine.current.message).toBeUndefined()
    } finally {
      await close()
    }
  })
})
