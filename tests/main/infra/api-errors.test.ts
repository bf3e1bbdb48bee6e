import { describe, expect, it } from 'vitest'
import { parseRetryAfter } from '../../../src/main/infra/api-errors'

describe('parseRetryAfter', () => {
  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3000)
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000)
    expect(parseRetryAfter('soon')).toBeUndefined()
    expect(parseRetryAfter(undefined)).toBeUndefined()
  })
})
