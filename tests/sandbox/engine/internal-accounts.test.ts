/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies under test are untyped JSON, checked by assertions and the shared schemas */
import { describe, expect, it } from 'vitest'
import { expectError, sandboxForSuite } from '../util'

const c = sandboxForSuite({}, { ledger: false })

describe('GET /platform/internal-accounts', () => {
  it('filters by the published type as well as by currency', async () => {
    const all = (await c.get('/platform/internal-accounts')).body.data
    const crypto = await c.get('/platform/internal-accounts?type=INTERNAL_CRYPTO')
    expect(crypto.status, crypto.text).toBe(200)
    expect(crypto.body.data.map((a: any) => a.balance.currency.code).sort()).toEqual(['BTC', 'USDC'])
    const fiat = (await c.get('/platform/internal-accounts?type=INTERNAL_FIAT&currency=EUR')).body.data
    expect(fiat.map((a: any) => a.type)).toEqual(['INTERNAL_FIAT'])
    expect((await c.get('/platform/internal-accounts?type=EMBEDDED_WALLET')).body.data).toEqual([])
    expect(all.length).toBe(crypto.body.data.length + all.filter((a: any) => a.type === 'INTERNAL_FIAT').length)
    expectError(await c.get('/platform/internal-accounts?type=SAVINGS'), 400, 'INVALID_INPUT')
  })
})
