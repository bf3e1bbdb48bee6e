import { describe, expect, it } from 'vitest'
import {
  CustomerId,
  ExternalAccountId,
  hasIdPrefix,
  ID_PREFIXES,
  InternalAccountId,
  prefixedId,
  QuoteId,
  responseId,
  TransactionId,
  UmaAddress
} from '../../../src/shared/api/ids'
import { issuesOf } from './helpers'

const SCHEMAS = [
  ['Customer', CustomerId],
  ['ExternalAccount', ExternalAccountId],
  ['InternalAccount', InternalAccountId],
  ['Transaction', TransactionId],
  ['Quote', QuoteId]
] as const

describe('ID_PREFIXES', () => {
  it('lists the five prefixes of spec 2.1', () => {
    expect(Object.values(ID_PREFIXES).sort()).toEqual(
      ['Customer', 'ExternalAccount', 'InternalAccount', 'Quote', 'Transaction'].sort()
    )
  })
})

describe.each(SCHEMAS)('%s id', (prefix, schema) => {
  it.each([`${prefix}:1`, `${prefix}:019542f5-b3e7-1d02-0000-000000000001`, `${prefix}:a:b`])('accepts %s', (id) => {
    expect(schema.parse(id)).toBe(id)
  })
  it.each([
    [`${prefix}:`, 'empty identifier'],
    [`${prefix}`, 'no colon'],
    [`${prefix}: 1`, 'white space'],
    [`x${prefix}:1`, 'text before the prefix'],
    [`${prefix.toLowerCase()}:1`, 'wrong case'],
    ['Other:1', 'another prefix'],
    ['', 'empty string']
  ])('rejects %j (%s) with a message naming the prefix', (id) => {
    const issues = issuesOf(schema, id)
    expect(issues).toHaveLength(1)
    expect(issues[0]?.message).toContain(`"${prefix}:<identifier>"`)
  })
  it('rejects a non-string', () => {
    expect(schema.safeParse(42).success).toBe(false)
  })
})

describe('ids of one kind are not ids of another', () => {
  it.each([
    [CustomerId, 'ExternalAccount:1'],
    [ExternalAccountId, 'InternalAccount:1'],
    [InternalAccountId, 'Customer:1'],
    [TransactionId, 'Quote:1'],
    [QuoteId, 'Transaction:1']
  ])('%#', (schema, id) => {
    expect(schema.safeParse(id).success).toBe(false)
  })
})

describe('prefixedId / hasIdPrefix', () => {
  it('escapes regex characters of the prefix', () => {
    const S = prefixedId('A.B')
    expect(S.safeParse('A.B:1').success).toBe(true)
    expect(S.safeParse('AxB:1').success).toBe(false)
  })
  it('hasIdPrefix agrees with the schema', () => {
    expect(hasIdPrefix('Customer', 'Customer:1')).toBe(true)
    expect(hasIdPrefix('Customer', 'Customer:')).toBe(false)
    expect(hasIdPrefix('Customer', 7)).toBe(false)
  })
})

describe('UmaAddress', () => {
  it.each(['$alice@uma.example.com', '$success.usd@sandbox.uma.money', '$a@b.c'])('accepts %s', (a) => {
    expect(UmaAddress.parse(a)).toBe(a)
  })
  it.each(['alice@uma.example.com', '$alice', '$alice@localhost', '$al ice@x.com', '$@x.com', '$a@b@c.com'])(
    'rejects %s',
    (a) => {
      expect(issuesOf(UmaAddress, a)[0]?.message).toContain('UMA address must look like')
    }
  )
})

describe('responseId: ids as a server sends them', () => {
  it.each(SCHEMAS)('a %s id of a response may come without its prefix', (prefix) => {
    expect(responseId(prefix).parse('0b7c6a1e-4f2d-bare')).toBe('0b7c6a1e-4f2d-bare')
    expect(responseId(prefix).parse(`${prefix}:1`)).toBe(`${prefix}:1`)
  })
  it.each(SCHEMAS)('the %s id of a request still needs its prefix', (_prefix, schema) => {
    expect(schema.safeParse('0b7c6a1e-4f2d-bare').success).toBe(false)
  })
  it('refuses an empty id and an id naming another kind', () => {
    expect(responseId('Customer').safeParse('').success).toBe(false)
    expect(responseId('Customer').safeParse('Transaction:1').success).toBe(false)
  })
})
