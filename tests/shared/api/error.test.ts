import { describe, expect, it } from 'vitest'
import { ApiErrorBody } from '../../../src/shared/api/error'

describe('ApiErrorBody', () => {
  it.each([
    [{ status: 400, code: 'INVALID_INPUT', message: 'bad', details: { field: 'amount' } }],
    [{ status: 429, code: 'RATE_LIMITED', message: 'slow down' }],
    [{ status: 418, code: 'SOMETHING_NEW', message: 'x', requestId: 'r1' }]
  ])('parses and keeps %j', (body) => {
    expect(ApiErrorBody.parse(body)).toEqual(body)
  })
  it.each([
    [{ code: 'X', message: 'm' }],
    [{ status: '400', code: 'X', message: 'm' }],
    [{ status: 400, message: 'm' }],
    ['Internal error']
  ])('rejects %j', (body) => {
    expect(ApiErrorBody.safeParse(body).success).toBe(false)
  })
})
