import { describe, expect, it, vi } from 'vitest'
import { AppError } from '../../../src/main/infra/app-error'
import { dispatch, type Handlers } from '../../../src/main/handlers/dispatch'

function handlersWith(overrides: Partial<Handlers>): Handlers {
  return overrides as Handlers
}

describe('dispatch', () => {
  it('refuses an unknown channel without running anything', async () => {
    const result = await dispatch(handlersWith({}), 'profiles.steal', null)
    expect(result).toEqual({ ok: false, error: expect.objectContaining({ code: 'UNKNOWN_CHANNEL' }) })
  })

  it('validates input before the handler runs, naming the field', async () => {
    const create = vi.fn()
    const result = await dispatch(handlersWith({ 'profiles.create': create }), 'profiles.create', {
      name: '',
      environment: 'staging',
      tokenId: 't'
    })
    expect(create).not.toHaveBeenCalled()
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.code).toBe('INVALID_INPUT')
    expect(result.error.fieldErrors?.['name']).toEqual(['Give the profile a name'])
    expect(result.error.fieldErrors?.['environment']).toBeDefined()
  })

  it('refuses unknown keys (request schemas are strict)', async () => {
    const result = await dispatch(handlersWith({ 'profiles.switch': vi.fn() }), 'profiles.switch', {
      id: 'local',
      extra: 1
    })
    expect(result.ok).toBe(false)
  })

  it('passes the parsed input (with defaults applied) and returns the value', async () => {
    const create = vi.fn(async (input: unknown) => input)
    const result = await dispatch(
      handlersWith({ 'profiles.create': create as unknown as Handlers['profiles.create'] }),
      'profiles.create',
      { name: ' Acme ', environment: 'sandbox', tokenId: 'tok' }
    )
    expect(result).toEqual({
      ok: true,
      value: {
        name: 'Acme',
        environment: 'sandbox',
        tokenId: 'tok',
        baseUrl: 'https://api.lightspark.com/grid/2025-10-13'
      }
    })
  })

  it('turns an AppError into a typed error with the service code', async () => {
    const result = await dispatch(
      handlersWith({
        'profiles.list': async () => {
          throw new AppError('CONFLICT', 'This payment is no longer waiting for approval.', {
            serviceCode: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
            httpStatus: 409
          })
        }
      }),
      'profiles.list',
      null
    )
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'CONFLICT',
        message: 'This payment is no longer waiting for approval.',
        serviceCode: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
        httpStatus: 409
      }
    })
  })

  it('hides the internals of an unexpected error from the renderer', async () => {
    const log = vi.fn()
    const result = await dispatch(
      handlersWith({
        'profiles.list': async () => {
          throw new Error('Authorization: Basic c2VjcmV0 at /home/op/.config')
        }
      }),
      'profiles.list',
      null,
      log
    )
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.code).toBe('INTERNAL')
    expect(result.error.message).not.toContain('Basic')
    expect(JSON.stringify(log.mock.calls)).not.toContain('c2VjcmV0')
  })
})
