import { afterEach, describe, expect, it } from 'vitest'
import { testConnection } from '../../../src/main/domain/connection'
import type { StoredProfile } from '../../../src/main/domain/profiles'
import { closedPort, json, stubServer } from '../helpers'

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  while (closers.length) await closers.pop()!()
})

const profile = (baseUrl: string): StoredProfile => ({
  id: 'p-1',
  name: 'T',
  environment: 'sandbox',
  baseUrl,
  tokenId: 'tok'
})

async function stub(handler: Parameters<typeof stubServer>[0]) {
  const s = await stubServer(handler)
  closers.push(s.close)
  return s
}

const ACCOUNT = {
  id: 'InternalAccount:1',
  type: 'INTERNAL_FIAT',
  balance: { amount: 100, currency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 } },
  fundingPaymentInstructions: [],
  createdAt: '2025-10-01T00:00:00Z',
  updatedAt: '2025-10-01T00:00:00Z'
}

describe('testConnection', () => {
  it('counts only the accounts the balances card can show, and says how many could not be read', async () => {
    const s = await stub((_req, res) =>
      json(res, 200, { data: [ACCOUNT, { id: 'InternalAccount:2', balance: { amount: 1.5 } }], totalCount: -1 })
    )
    const report = await testConnection(profile(s.baseUrl), 'good')
    expect(report.ok).toBe(true)
    expect(report.message).toMatch(/lists 1 platform internal account \(1 more could not be read and is not shown\)\./)
  })

  it('succeeds with the right credentials and says so', async () => {
    const s = await stub((req, res) =>
      req.headers.authorization === `Basic ${Buffer.from('tok:good').toString('base64')}` &&
      req.url?.endsWith('/platform/internal-accounts')
        ? json(res, 200, { data: [ACCOUNT] })
        : json(res, 401, { status: 401, code: 'UNAUTHORIZED', message: 'no' })
    )
    const report = await testConnection(profile(s.baseUrl), 'good')
    expect(report).toMatchObject({ ok: true, profileId: 'p-1' })
    expect(report.message).toMatch(/Connected to 127\.0\.0\.1:\d+ .* 1 platform internal account\b/)
    const bad = await testConnection(profile(s.baseUrl), 'wrong')
    expect(bad).toMatchObject({ ok: false, code: 'UNAUTHORIZED', httpStatus: 401, serviceCode: 'UNAUTHORIZED' })
    expect(bad.message).toMatch(/Wrong credentials/)
    expect(JSON.stringify(bad)).not.toContain('wrong')
  })

  it('names an unreachable host', async () => {
    const port = await closedPort()
    const report = await testConnection(profile(`http://127.0.0.1:${port}/2025-10-13`), 'x')
    expect(report).toMatchObject({ ok: false, code: 'UNREACHABLE' })
    expect(report.message).toMatch(/Could not reach 127\.0\.0\.1:\d+ \(connection refused\)/)
  })

  it('names a TLS problem', async () => {
    const s = await stub((_req, res) => json(res, 200, { data: [] }))
    const report = await testConnection(profile(s.baseUrl.replace('http://', 'https://')), 'x')
    expect(report).toMatchObject({ ok: false, code: 'TLS' })
    expect(report.message).toMatch(/secure connection/)
  })

  it('names an unexpected response', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end('<html>hello</html>')
    })
    const report = await testConnection(profile(s.baseUrl), 'x')
    expect(report).toMatchObject({ ok: false, code: 'UNEXPECTED_RESPONSE' })
    const shape = await stub((_req, res) => json(res, 200, { items: [] }))
    expect(await testConnection(profile(shape.baseUrl), 'x')).toMatchObject({ ok: false, code: 'UNEXPECTED_RESPONSE' })
    const missing = await stub((_req, res) => json(res, 404, { status: 404, code: 'NOT_FOUND', message: 'no route' }))
    expect((await testConnection(profile(missing.baseUrl), 'x')).message).toMatch(/check the base URL/)
  })

  it('says when no secret is set, without calling anything', async () => {
    const s = await stub((_req, res) => json(res, 200, { data: [] }))
    const report = await testConnection(profile(s.baseUrl), undefined)
    expect(report).toMatchObject({ ok: false, code: 'UNAUTHORIZED' })
    expect(s.requests).toHaveLength(0)
  })
})
