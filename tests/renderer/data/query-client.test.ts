import { QueryObserver } from '@tanstack/react-query'
import { describe, expect, it, vi } from 'vitest'
import {
  createQueryClient,
  forgetProfileData,
  invalidateChannels,
  invalidateCollections
} from '../../../src/renderer/src/data/query-client'

/** A cache holding one answer per read, as views leave it. */
function cacheWith(...keys: [string, unknown][]) {
  const client = createQueryClient()
  for (const key of keys) client.setQueryData(key, { rows: [] })
  return client
}
const invalidated = (client: ReturnType<typeof createQueryClient>) =>
  client
    .getQueryCache()
    .getAll()
    .filter((q) => q.state.isInvalidated)
    .map((q) => q.queryKey[0])
    .sort()

describe('the query cache', () => {
  it('re-queries exactly the reads of a collection main says changed, windowed lists included', () => {
    const client = cacheWith(
      ['customers.query', { limit: 500 }],
      ['customers.get', { id: 'Customer:1' }],
      ['internalAccounts.list', { scope: 'all' }],
      ['transfers.journal', null],
      ['transactions.query', { filter: {}, offset: 400, limit: 200 }]
    )
    invalidateCollections(['customers'], client)
    // Transactions carry their customers' names: a customer renamed re-asks the transaction windows too.
    expect(invalidated(client)).toEqual(['customers.get', 'customers.query', 'transactions.query'])

    invalidateCollections(['transactions'], client)
    expect(invalidated(client)).toContain('transfers.journal')
    expect(invalidated(client)).not.toContain('internalAccounts.list')
  })

  it('shares one answer between two views asking the same thing with the same input', async () => {
    const client = createQueryClient()
    let calls = 0
    const read = () =>
      client.fetchQuery({ queryKey: ['customers.query', { limit: 500 }], queryFn: async () => ++calls })
    await Promise.all([read(), read()])
    expect(calls).toBe(1)
  })

  it('re-queries the reads a write of this page changed', async () => {
    const client = cacheWith(['transfers.journal', null], ['quotes.open', null])
    await invalidateChannels(['transfers.journal'], client)
    expect(invalidated(client)).toEqual(['transfers.journal'])
  })

  it('asks again when the data changes while a view waits for its first answer, so the view never keeps the older one', async () => {
    const client = createQueryClient()
    const answers = [{ rows: [] }, { rows: ['ExternalAccount:1'] }]
    let release: () => void = () => {}
    const firstAnswerHeld = new Promise<void>((resolve) => (release = resolve))
    let calls = 0
    const observer = new QueryObserver(client, {
      queryKey: ['externalAccounts.query', { status: 'ACTIVE' }],
      queryFn: async () => {
        const answer = answers[calls++]
        if (calls === 1) await firstAnswerHeld
        return answer
      }
    })
    const seen: unknown[] = []
    const unsubscribe = observer.subscribe((result) => seen.push(result.data))
    // Main's first sync lands while the view's first read is still on its way with what the cache held before it.
    const changed = invalidateChannels(['externalAccounts.query'], client)
    release()
    await changed
    expect(calls).toBe(2)
    expect(observer.getCurrentResult().data).toEqual({ rows: ['ExternalAccount:1'] })
    unsubscribe()
  })

  it('drops every answer no view shows when the profile changes, so another profile’s data never appears', () => {
    const client = cacheWith(['customers.query', { limit: 500 }], ['notices.list', null], ['profiles.list', null])
    forgetProfileData(client)
    // The profile list is every profile's (main has just told it): it stays, and is not asked again.
    expect(
      client
        .getQueryCache()
        .getAll()
        .map((q) => [q.queryKey[0], q.state.isInvalidated])
    ).toEqual([['profiles.list', false]])
  })

  it('asks again a first read still on its way when the profile changes: its answer is the profile left behind', async () => {
    const client = createQueryClient()
    const answers: ((value: string) => void)[] = []
    const observer = new QueryObserver(client, {
      queryKey: ['notices.list', null],
      queryFn: () => new Promise<string>((resolve) => answers.push(resolve))
    })
    const seen: (string | undefined)[] = []
    const unsubscribe = observer.subscribe((r) => seen.push(r.data))
    await vi.waitFor(() => expect(answers).toHaveLength(1))
    forgetProfileData(client)
    // Held: the second read is asked before the first one answers, so the order of the answers is the test's.
    await vi.waitFor(() => expect(answers).toHaveLength(2))
    answers[0]?.('the profile left behind')
    answers[1]?.('the new profile')
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toBe('the new profile'))
    expect(seen).not.toContain('the profile left behind')
    unsubscribe()
  })
})
