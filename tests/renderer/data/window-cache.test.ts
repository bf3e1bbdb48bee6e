import { describe, expect, it } from 'vitest'
import {
  createQueryClient,
  forgetProfileData,
  invalidateCollections
} from '../../../src/renderer/src/data/query-client'
import { fakeLists, fakeMain, keyedLoader, keyOf, newLoader, rowsOf, settle } from './fake-main'

// A list's windows are queries of the shared cache: what it shows at once when the operator comes back to a filter,
// what main's change events re-read, and what another profile drops.

describe('WindowLoader with the first windows the cache holds', () => {
  it('asks a new filter for just the rows on screen first, then the full window as a prefetch', async () => {
    const main = fakeLists({ all: rowsOf('r', 1000) })
    const { loader, query } = keyedLoader(main)
    query('all')
    expect(main.pending[0]).toMatchObject({ offset: 0, limit: 31 })
    main.pending.shift()!.answer()
    await settle()
    expect(loader.getState().data?.rows).toHaveLength(31)
    expect(main.pending[0]).toMatchObject({ offset: 0, limit: 200 })
  })

  it('shows a filter it came back to at once, and draws nothing again when main answers the same', async () => {
    const main = fakeLists({ all: rowsOf('r', 1000), few: rowsOf('f', 5) })
    const { loader, query, answerAll } = keyedLoader(main)
    query('few')
    await answerAll()
    query('all')
    await answerAll()
    expect(loader.getState().data?.total).toBe(1000)
    let renders = 0
    loader.subscribe(() => (renders += 1))
    query('few') // back to a filter seen before
    expect(loader.getState().data).toMatchObject({ rows: rowsOf('f', 5), total: 5 })
    expect(renders).toBe(1)
    expect(main.pending).toHaveLength(0) // asked once the rows are drawn, not while they are
    await settle()
    expect(main.pending).toHaveLength(1) // still asked of main
    await answerAll()
    expect(renders).toBe(1) // main answered the same: nothing to draw again
  })

  it("replaces a remembered answer with main's when the data changed meanwhile", async () => {
    const lists = { all: rowsOf('r', 300), few: rowsOf('f', 5) }
    const main = fakeLists(lists)
    const { loader, query, answerAll } = keyedLoader(main)
    query('all')
    await answerAll()
    query('few')
    await answerAll()
    lists.all = ['new', ...lists.all]
    query('all')
    expect(loader.getState().data?.rows[0]).toBe('r0') // remembered, until main answers
    await answerAll()
    expect(loader.getState().data).toMatchObject({ total: 301, offset: 0 })
    expect(loader.getState().data?.rows.slice(0, 2)).toEqual(['new', 'r0'])
  })

  it('narrows a whole remembered answer at once, and ends with main’s answer', async () => {
    const lists = { ab: ['ab1', 'abc2', 'ab3', 'abc4'], abc: ['abc2', 'abc4'] }
    const main = fakeLists(lists)
    const { loader, query, answerAll } = keyedLoader(main)
    query('ab')
    await answerAll()
    query('abc', { narrow: true })
    expect(loader.getState().data).toMatchObject({ rows: ['abc2', 'abc4'], total: 2, offset: 0 })
    await settle()
    expect(main.pending).toHaveLength(1)
    lists.abc = ['abc4'] // main knows better (the data changed): its answer wins
    await answerAll()
    expect(loader.getState().data).toMatchObject({ rows: ['abc4'], total: 1 })
  })

  it('never narrows an answer that did not hold the whole result', async () => {
    const main = fakeLists({ ab: rowsOf('ab', 500), abc: ['abc1'] })
    const { loader, query, answerAll } = keyedLoader(main)
    query('ab')
    await answerAll()
    const shown = loader.getState().data
    query('abc', { narrow: true })
    expect(loader.getState().data).toBe(shown) // the old rows stay until main answers
    await answerAll()
    expect(loader.getState().data?.rows).toEqual(['abc1'])
  })

  it('applies only the newest filter when answers come back out of order', async () => {
    const main = fakeLists({ a: ['a'], b: ['b'] })
    const { loader, query } = keyedLoader(main)
    query('a')
    query('b')
    const [a, b] = [main.pending[0]!, main.pending[1]!]
    b.answer()
    await settle()
    a.answer()
    await settle()
    expect(loader.getState().data?.rows).toEqual(['b'])
  })

  it('shows nothing the cache dropped with the last profile', async () => {
    const main = fakeLists({ all: rowsOf('r', 10), few: ['f'] })
    const { loader, client, query, answerAll } = keyedLoader(main)
    query('all')
    await answerAll()
    query('few')
    await answerAll()
    forgetProfileData(client)
    query('all')
    expect(loader.getState().data?.rows).toEqual(['f'])
  })

  it('never shows an answer asked for before the profile changed (the last profile’s, landing late)', async () => {
    const main = fakeLists({ all: rowsOf('r', 10), few: ['f'] })
    const { loader, client, query, answerAll } = keyedLoader(main)
    query('all')
    forgetProfileData(client)
    query('few')
    await answerAll()
    query('all')
    expect(loader.getState().data?.rows).toEqual(['f']) // nothing of the old answer shown before main's new one
  })

  it('loads a small result whole after its first screenful, so a longer search is narrowed at once, rows and count', async () => {
    const ab = rowsOf('ab', 300).map((r, i) => (i % 7 === 0 ? r.replace('ab', 'abc') : r))
    const main = fakeLists({ ab, abc: ab.filter((r) => r.includes('abc')) })
    const { loader, query, answerAll } = keyedLoader(main, { wholeUpTo: 400 })
    query('ab')
    expect(main.pending[0]).toMatchObject({ offset: 0, limit: 31 })
    main.pending.shift()!.answer()
    await settle()
    expect(main.pending[0]).toMatchObject({ offset: 0, limit: 300 }) // all of it, not a 200-row window
    await answerAll()
    loader.setViewport(250, 280) // scrolling a list held whole asks nothing more
    expect(main.pending).toHaveLength(0)
    query('abc', { narrow: true })
    expect(loader.getState().data).toMatchObject({ rows: ab.filter((r) => r.includes('abc')), total: 43, offset: 0 })
  })

  it('still asks a larger result for windows, never for all of it', async () => {
    const main = fakeLists({ ab: rowsOf('ab', 401) })
    const { loader, query } = keyedLoader(main, { wholeUpTo: 400 })
    query('ab')
    main.pending.shift()!.answer()
    await settle()
    expect(main.pending[0]).toMatchObject({ offset: 0, limit: 200 })
    expect(loader.getState().data?.total).toBe(401)
  })

  it('narrows from a whole answer that lands after the longer search was typed, before main answers that one', async () => {
    const ab = rowsOf('ab', 300).map((r, i) => (i % 7 === 0 ? r.replace('ab', 'abc') : r))
    const main = fakeLists({ ab, abc: ab.filter((r) => r.includes('abc')) })
    const { loader, query } = keyedLoader(main, { wholeUpTo: 400 })
    query('ab')
    main.pending.shift()!.answer()
    await settle()
    const whole = main.pending.shift()! // the whole of 'ab', still on its way
    query('abc', { narrow: true })
    expect(loader.getState().data?.total).toBe(300) // nothing to narrow from yet: the old rows stay
    whole.answer()
    await settle()
    expect(loader.getState().data).toMatchObject({ rows: ab.filter((r) => r.includes('abc')), total: 43 })
    expect(main.pending.map((p) => p.key)).toEqual(['abc']) // main is still asked, and its answer wins
  })
})

describe('WindowLoader following the cache', () => {
  it('re-reads the rows on screen when main says the data changed, keeping them shown meanwhile', async () => {
    const lists = { all: rowsOf('r', 300) }
    const main = fakeLists(lists)
    const { loader, client, query, answerAll } = keyedLoader(main)
    const disconnect = loader.connect()
    query('all')
    await answerAll()
    lists.all = ['new', ...lists.all]
    invalidateCollections(['transactions'], client)
    await settle()
    expect(loader.getState().data?.rows[0]).toBe('r0')
    expect(main.pending).toHaveLength(1) // one read, however many windows of the channel the cache holds
    await answerAll()
    expect(loader.getState().data).toMatchObject({ total: 301 })
    expect(loader.getState().data?.rows[0]).toBe('new')
    disconnect()
    invalidateCollections(['transactions'], client)
    await settle()
    expect(main.pending).toHaveLength(0) // a list no longer shown asks nothing
  })

  it('reads again when the data changes while the first rows are on their way, rather than take the older answer', async () => {
    const lists = { all: ['old'] }
    const main = fakeLists(lists)
    const { loader, client, query } = keyedLoader(main)
    loader.connect()
    query('all')
    const before = main.pending.shift()! // asked before the change
    invalidateCollections(['transactions'], client)
    await settle()
    expect(main.pending).toHaveLength(1)
    before.answer() // as main saw it before the change
    lists.all = ['new']
    main.pending.shift()!.answer()
    await settle()
    expect(loader.getState().data?.rows).toEqual(['new'])
  })

  it('ignores changes to collections its channel does not read', async () => {
    const main = fakeLists({ all: rowsOf('r', 30) })
    const { loader, client, query, answerAll } = keyedLoader(main)
    loader.connect()
    query('all')
    await answerAll()
    invalidateCollections(['discoveries'], client)
    await settle()
    expect(main.pending).toHaveLength(0)
  })

  it('re-reads the window on screen when another profile drops it, and keeps it held while it is shown', async () => {
    const main = fakeMain(1000)
    const client = createQueryClient()
    const loader = newLoader({}, client)
    loader.connect()
    loader.setViewport(500, 520)
    loader.setQuery(main.fetch, { key: keyOf('x') })
    main.pending.shift()!.answer()
    await settle()
    // A window down the list is collected as soon as nothing holds it; the one on screen is held.
    await new Promise((r) => setTimeout(r, 10))
    expect(
      client
        .getQueryCache()
        .getAll()
        .map((q) => q.queryKey)
    ).toEqual([['transactions.query', { search: 'x', offset: 411, limit: 200 }]])
    forgetProfileData(client)
    await settle()
    expect(main.pending).toHaveLength(1)
  })

  it('asks again when the profile changes while the first rows are on their way', async () => {
    const main = fakeMain(1000)
    const client = createQueryClient()
    const loader = newLoader({}, client)
    loader.connect()
    loader.setQuery(main.fetch, { key: keyOf('x') })
    forgetProfileData(client)
    main.pending.shift()!.answer() // the last profile's answer
    await settle()
    expect(main.pending).toHaveLength(1)
  })

  it('asks once for a query set again before its answer, and again once the data changed', async () => {
    // A view asks for its next query in the input event, and its effect sets the same query after the render.
    const main = fakeMain()
    const client = createQueryClient()
    const loader = newLoader({}, client)
    loader.connect()
    loader.setQuery(main.fetch, { key: keyOf('abc') })
    loader.setQuery(main.fetch, { key: keyOf('abc') })
    expect(main.pending).toHaveLength(1)
    main.pending.shift()!.answer()
    await settle()
    expect(main.pending).toHaveLength(0)
    invalidateCollections(['customers'], client) // transactions are shown with customers' names
    await settle()
    expect(main.pending).toHaveLength(1)
    main.pending.shift()!.answer()
    await settle()
    loader.setQuery(main.fetch, { key: keyOf('abcd') })
    loader.setQuery(main.fetch, { key: keyOf('abc') }) // back before the longer one was answered: asked again
    await settle()
    expect(main.pending).toHaveLength(2)
  })
})
