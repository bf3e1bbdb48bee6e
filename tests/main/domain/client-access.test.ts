import { describe, expect, it } from 'vitest'
import { AppError } from '../../../src/main/infra/app-error'
import type { ApiClient } from '../../../src/main/infra/api-client'
import { ApiError } from '../../../src/main/infra/api-errors'
import { writeOnline } from '../../../src/main/domain/client-access'

const client = {} as ApiClient
const failing = (error: unknown) => writeOnline(client, 'fund the account', () => Promise.reject(error))
const ipcOf = async (error: unknown) => {
  const thrown = await failing(error).catch((e: unknown) => e)
  expect(thrown).toBeInstanceOf(AppError)
  return (thrown as AppError).toIpcError()
}

describe('a write whose answer never came says it may have been applied', () => {
  it('a connection dropped after sending: OFFLINE, may have been applied', async () => {
    const error = await ipcOf(new ApiError('UNREACHABLE', 'Connection reset.', { kind: 'reset', maybeProcessed: true }))
    expect(error).toMatchObject({ code: 'OFFLINE', maybeApplied: true })
    expect(error.message).toContain('may have been applied')
  })

  it('never sent: OFFLINE, and nothing says it may have been applied', async () => {
    const error = await ipcOf(
      new ApiError('UNREACHABLE', 'Connection refused.', { kind: 'unreachable', maybeProcessed: false })
    )
    expect(error.code).toBe('OFFLINE')
    expect(error.maybeApplied).toBeUndefined()
  })

  it('a 5xx may have been applied; a refusal was not', async () => {
    const failed = await ipcOf(
      new ApiError('SERVICE_ERROR', 'The service failed.', { kind: 'http', maybeProcessed: true, httpStatus: 503 })
    )
    expect(failed).toMatchObject({ code: 'SERVICE_ERROR', httpStatus: 503, maybeApplied: true })
    const refused = await ipcOf(
      new ApiError('INVALID_INPUT', 'Refused.', { kind: 'http', maybeProcessed: false, httpStatus: 400 })
    )
    expect(refused.maybeApplied).toBeUndefined()
  })
})
