import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ApiClient } from '../../../../src/main/services/api-client'
import { TEXT_DEFERRED_KEY } from '../../../../src/main/services/cache/schema'
import { CacheStore } from '../../../../src/main/services/cache/store'
import { SyncEngine } from '../../../../src/main/services/sync/engine'
import { json, stubServer, tempDir } from '../../helpers'
import { makeTransactions } from '../cache/fixtures'
import { FakeClock } from './fake-clock'

describe('SyncEngine catching up on a history larger than the cache', () => {
  it('leaves the text index behind while it reads, says so, and rebuilds it before it says live', async () => {
    const total = 5_200
    const history = makeTransactions(total)
    const historyStub = await stubServer((req, res) => {
      const url = new URL(req.url!, 'http://x')
      if (!url.pathname.endsWith('/transactions')) return json(res, 404, { code: 'NOT_FOUND', message: 'no' })
      const startDate = Date.parse(url.searchParams.get('startDate') ?? '1970-01-01T00:00:00Z')
      const listed = history.filter((h) => Date.parse(String(h.createdAt)) >= startDate)
      const from = Number(url.searchParams.get('cursor') ?? 0)
      const data = listed.slice(from, from + 100)
      const more = from + 100 < listed.length
      json(res, 200, {
        data,
        hasMore: more,
        ...(more && { nextCursor: String(from + 100) }),
        totalCount: listed.length
      })
    })
    const t = await tempDir('engine-catch-up')
    const cache = (await CacheStore.open(path.join(t.dir, 'c'), randomBytes(32))).store
    const client = new ApiClient({ baseUrl: historyStub.baseUrl, tokenId: 't', clientSecret: 's' })
    const search = (needle: string) =>
      cache.queryTransactions({ search: needle }, { field: 'createdAt', direction: 'asc' }, 0, 100).total
    try {
      const engine = new SyncEngine({
        profileId: 'p',
        client,
        cache,
        clock: new FakeClock(),
        log: () => {},
        operatorInFlight: () => [],
        onChanges: async () => {},
        onStatus: () => {}
      })
      // One poll reads 5,000 of them: the rest is for the next.
      expect(await engine.poll()).toMatchObject({ ok: true, catchingUp: true })
      expect(cache.meta(TEXT_DEFERRED_KEY)).toBe(true)
      expect(search('Transaction:00030')).toBe(0)
      expect(engine.current.message).toMatch(/^Syncing history: 5,000 of 5,200\. Text search finds these/)

      expect(await engine.poll()).toMatchObject({ ok: true, catchingUp: false })
      expect(cache.count('transactions')).toBe(total)
      expect(cache.meta(TEXT_DEFERRED_KEY)).toBe(false)
      expect(search('Transaction:00030')).toBe(100)
      expect(search('Transaction:00051')).toBe(100)
      expect(engine.current).toMatchObject({ state: 'live' })
      expect(engine.current.message).toBeUndefined()
    } finally {
      await client.close()
      await historyStub.close()
      await cache.close()
      await t.cleanup()
    }
  })
})
