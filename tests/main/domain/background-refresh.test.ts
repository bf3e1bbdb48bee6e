import { describe, expect, it } from 'vitest'
import type { ApiClient } from '../../../src/main/infra/api-client'
import { BackgroundRefresh } from '../../../src/main/domain/background-refresh'
import type { CacheStore } from '../../../src/main/infra/cache/store'
import type { SandboxServer } from '../../../src/sandbox/server'
import { requireRealKeyring, testKeychainService } from '../../support/keyring'
import { json, stubServer, tempDir } from '../helpers'
import {
  addProfile,
  backendAgainstSandbox,
  dataChangedFor,
  sandboxApi,
  sandboxesPerTest,
  startBackend,
  waitFor
} from '../sandbox-env'
import { FakeClock } from './sync/fake-clock'

// Background refreshes read each paged collection to its end, through a whole backend, against the sandbox or a
// service whose paging misbehaves.
requireRealKeyring()

const sandbox = sandboxesPerTest()
const env = backendAgainstSandbox('refresh', { sandbox: false })
const dataChanged = (collection: string) => dataChangedFor(env.h, collection)

describe('paged lists are read to the end', () => {
  it('keeps every platform external account, not just the first page of 20', async () => {
    const server = await sandbox()
    await addProfile(env.h, server)
    const api = sandboxApi(server)
    const ids: string[] = []
    for (let i = 0; i < 25; i++) {
      const a = await api<{ id: string }>('POST', 'platform/external-accounts', {
        currency: 'USD',
        accountInfo: {
          accountType: 'USD_ACCOUNT',
          accountNumber: `55510${String(i).padStart(3, '0')}11`,
          routingNumber: '021000021',
          bankAccountType: 'CHECKING',
          beneficiary: { beneficiaryType: 'BUSINESS', legalName: `Vendor ${i} LLC` }
        }
      })
      ids.push(a.id)
    }
    await env.h.call('externalAccounts.query', {})
    await waitFor(() => dataChanged('externalAccounts').length > 0)
    const listed = await env.h.call('externalAccounts.query', { scope: 'platform', limit: 100 })
    expect(listed.rows.map((r) => r.id)).toEqual(expect.arrayContaining(ids))
  })
})

describe('a collection listing that does not end', () => {
  it.each([
    ['platform external accounts', 'externalAccounts.query', '/platform/external-accounts'],
    ['customer internal accounts', 'internalAccounts.list', '/customers/internal-accounts']
  ])(
    '%s: told once in the sync status, what was read is kept, read again at the next refresh',
    async (_what, channel, path) => {
      const pages: string[] = []
      const account = {
        id: 'ExternalAccount:loop-1',
        status: 'ACTIVE',
        currency: 'USD',
        accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '12345678901', routingNumber: '021000021' }
      }
      const internal = {
        id: 'InternalAccount:loop-1',
        customerId: 'Customer:1',
        balance: { amount: 0, currency: { code: 'USD' } }
      }
      // A service whose listing of `path` always claims more and hands back the cursor it was given.
      const stub = await stubServer((req, res) => {
        const url = new URL(req.url!, 'http://x')
        if (url.pathname.endsWith(path)) {
          pages.push(url.searchParams.get('cursor') ?? '')
          return json(res, 200, {
            data: [path.includes('external') ? account : internal],
            hasMore: true,
            nextCursor: 'again',
            totalCount: 50
          })
        }
        json(res, 200, { data: [], hasMore: false, totalCount: 0 })
      })
      try {
        await addProfile(env.h, { baseUrl: stub.baseUrl, tokenId: 'tok', clientSecret: 'secret' } as SandboxServer)
        const args = channel === 'externalAccounts.query' ? {} : { scope: 'all' }
        const firstAsked = Date.now()
        await env.h.call(channel as 'externalAccounts.query', args as never)
        const status = await waitFor(async () => {
          const s = await env.h.call('sync.status', null)
          return s.message?.includes('did not end') ? s : undefined
        })
        expect(status.message).toContain(path.slice(1))
        expect(pages.length).toBeLessThanOrEqual(3) // stopped at the repeated cursor, not 1,000 pages
        const said = env.h.logs.filter((l) => l.includes('did not end'))
        expect(said).toHaveLength(1)
        // The next refresh comes on the usual schedule (at most every 3 s), not at once, and the log says nothing new.
        // Checked only while the first refresh is less than 3 s old by the clock: on a loaded machine the wait above
        // can outlast it, and a refresh is then due (the check is moot, not wrong).
        const before = pages.length
        const soon = Date.now() - firstAsked < 3_000
        await env.h.call(channel as 'externalAccounts.query', args as never)
        if (soon) expect(pages.length).toBe(before)
        // Real time, which load only lengthens: the refresh's clock is not injectable.
        await new Promise((r) => setTimeout(r, 3_100))
        await env.h.call(channel as 'externalAccounts.query', args as never)
        await waitFor(() => pages.length > before, 15_000)
        await waitFor(() => dataChanged(channel.split('.')[0]!).length >= 2, 15_000)
        expect(env.h.logs.filter((l) => l.includes('did not end'))).toHaveLength(1)
        expect((await env.h.call('sync.status', null)).message).toContain('did not end')
      } finally {
        await stub.close()
      }
    },
    40_000 // 8-9 s alone, of which 3 s is the refresh's rest; the waits above allow a loaded machine more
  )
})

describe('start-up: the first screen first', () => {
  it('asks the service nothing while the window keeps reading, and refreshes once it has settled', async () => {
    const stub = await stubServer((_req, res) => json(res, 200, { data: [], hasMore: false, totalCount: 0 }))
    // The quiet-calls detector's time moves only when the test says: a loaded machine cannot stretch the window's
    // 150 ms pauses past the 500 ms that count as settled, nor settle it before the reads below are done.
    const clock = new FakeClock()
    const t = await tempDir('refresh-startup')
    const h = await startBackend(t.dir, testKeychainService('refresh-startup'), {
      autoSync: false,
      quietCallsClock: clock
    })
    try {
      await addProfile(h, { baseUrl: stub.baseUrl, tokenId: 'tok', clientSecret: 'secret' } as SandboxServer)
      const asked = stub.requests.length
      // A window reading its first screen: one call after another, never 500 ms apart.
      for (let i = 0; i < 8; i++) {
        await h.call('internalAccounts.list', { scope: 'all' })
        await clock.advance(150)
      }
      await clock.advance(349)
      expect(stub.requests.length).toBe(asked)
      await clock.advance(1)
      await waitFor(() => stub.requests.some((r, i) => i >= asked && r.url.includes('internal-accounts')), 15_000)
    } finally {
      await h.close()
      await stub.close()
      await t.cleanup()
    }
  })
})

describe('a refresh asked before the window settled', () => {
  it('waits outside what closing waits for, and asks nothing once the session is closed', async () => {
    let open!: () => void
    const startsAfter = new Promise<void>((resolve) => (open = resolve))
    const asked: string[] = []
    const client = {
      get: async (path: string) => {
        asked.push(path)
        return { data: [], hasMore: false }
      }
    } as unknown as ApiClient
    let closed = false
    const refresh = new BackgroundRefresh({
      client,
      cache: {} as CacheStore,
      refreshed: () => {},
      transactionChanged: async () => {},
      reportListing: () => {},
      isClosed: () => closed,
      log: () => {},
      startsAfter
    })
    refresh.internalAccounts()
    // Closing a session waits for its refreshes: one still waiting for the start must not hold it (up to 5 s).
    const outcome = await Promise.race([
      refresh.settled().then(() => 'settled'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 1_000))
    ])
    expect(outcome).toBe('settled')
    closed = true
    open()
    await new Promise((resolve) => setTimeout(resolve, 50))
    await refresh.settled()
    expect(asked).toEqual([])
  })
})
