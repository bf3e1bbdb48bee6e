import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { dataList, pagedList, PageQuery, queryBoolean, queryInt } from '../../../src/shared/api/list'
import { expectIssue } from './helpers'

const Item = z.looseObject({ id: z.string() })

describe('pagedList', () => {
  const List = pagedList(Item)
  it.each([
    [{ data: [], hasMore: false, totalCount: 0 }],
    [{ data: [{ id: 'a' }], hasMore: true, nextCursor: 'c', totalCount: 10 }],
    [{ data: [{ id: 'a', extra: 1 }], hasMore: false, totalCount: 1, serverTime: 'x' }]
  ])('accepts and keeps %j', (page) => {
    expect(List.parse(page)).toEqual(page)
  })
  it.each([
    [
      { data: [{ id: 'a' }], hasMore: false, totalCount: -1 },
      { data: [{ id: 'a' }], hasMore: false }
    ],
    [
      { data: [{ id: 'a' }], hasMore: false, totalCount: 1.5 },
      { data: [{ id: 'a' }], hasMore: false }
    ],
    [
      { data: [{ id: 'a' }], hasMore: true, nextCursor: 7, totalCount: '9' },
      { data: [{ id: 'a' }], hasMore: true }
    ],
    [
      { data: [{ id: 'a' }], hasMore: 'yes' },
      { data: [{ id: 'a' }], hasMore: false }
    ],
    // A service that does not page the list (the spec's platform lists) answers { data } only: one page.
    [{ data: [{ id: 'a' }] }, { data: [{ id: 'a' }], hasMore: false }]
  ])('keeps the items of %j, dropping only the bad envelope members', (page, read) => {
    expect(List.parse(page)).toEqual(read)
  })
  it.each([
    [{ hasMore: false }, 'data'],
    [{ data: [{}], hasMore: false }, 'data.0.id']
  ])('rejects %j at %s', (page, path) => {
    expectIssue(List, page, path, '')
  })
})

describe('dataList', () => {
  it('parses { data } and keeps unknown members', () => {
    expect(dataList(Item).parse({ data: [{ id: 'x' }], meta: 1 })).toEqual({ data: [{ id: 'x' }], meta: 1 })
    expect(dataList(Item).safeParse({}).success).toBe(false)
  })
})

describe('PageQuery', () => {
  it.each([
    [{}, { limit: 20 }],
    [{ limit: '1' }, { limit: 1 }],
    [{ limit: 100 }, { limit: 100 }],
    [
      { limit: '007', cursor: 'abc' },
      { limit: 7, cursor: 'abc' }
    ]
  ])('%j -> %j', (q, out) => {
    expect(PageQuery.parse(q)).toEqual(out)
  })
  it.each([
    [{ limit: '0' }, 'limit', 'at least 1'],
    [{ limit: -5 }, 'limit', 'at least 1'],
    [{ limit: '101' }, 'limit', 'at most 100'],
    [{ limit: 2.5 }, 'limit', 'whole number'],
    [{ limit: ' 5' }, 'limit', 'whole number'],
    [{ limit: '0x10' }, 'limit', 'whole number'],
    [{ limit: true }, 'limit', 'whole number'],
    [{ cursor: '' }, 'cursor', 'must not be empty'],
    [{ offset: 10 }, '', 'Unrecognized key']
  ])('rejects %j', (q, path, message) => {
    expectIssue(PageQuery, q, path, message)
  })
})

describe('queryInt / queryBoolean', () => {
  it('queryInt bounds', () => {
    const N = queryInt('n', -3, 3)
    expect(N.parse('-3')).toBe(-3)
    expect(N.safeParse('4').success).toBe(false)
  })
  it.each([
    [true, true],
    [false, false],
    ['true', true],
    ['false', false]
  ])('queryBoolean %j -> %j', (v, out) => {
    expect(queryBoolean('b').parse(v)).toBe(out)
  })
  it.each(['TRUE', '1', '', 'yes', 1])('queryBoolean rejects %j', (v) => {
    expect(queryBoolean('b').safeParse(v).success).toBe(false)
  })
})
