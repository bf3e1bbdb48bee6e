import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { publishedValidator } from '../../contract/published-openapi'
import { expectError, sandboxForSuite, start } from '../util'

const validate = publishedValidator()
const c = sandboxForSuite()
const dir = mkdtempSync(join(tmpdir(), 'sandbox-config-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('GET and PATCH /config', () => {
  it('reads as the published PlatformConfig, without an endpoint at first', async () => {
    const r = await c.get('/config')
    expect(r.status).toBe(200)
    expect(validate('PlatformConfig', r.body)).toEqual([])
    expect(r.body).not.toHaveProperty('webhookEndpoint')
    expect(r.body.isRegulatedFinancialInstitution).toBe(false)
  })

  it('sets the webhook endpoint; a bad URL or a field the sandbox cannot change is refused and changes nothing', async () => {
    const set = await c.patch('/config', { webhookEndpoint: 'http://127.0.0.1:9/hooks' })
    expect(set.status, set.text).toBe(200)
    expect(validate('PlatformConfig', set.body)).toEqual([])
    expect(set.body.webhookEndpoint).toBe('http://127.0.0.1:9/hooks')

    const bad = await c.patch('/config', { webhookEndpoint: 'ftp://example.com/x' })
    expectError(bad, 400, 'INVALID_INPUT')
    expect(bad.body.message).toMatch(/webhookEndpoint/)
    const fixed = await c.patch('/config', { webhookEndpoint: 'http://127.0.0.1:9/other', umaDomain: 'x.example' })
    expectError(fixed, 501, 'NOT_IMPLEMENTED')
    expect(validate('Error501', fixed.body)).toEqual([])
    expect((await c.get('/config')).body.webhookEndpoint).toBe('http://127.0.0.1:9/hooks')
  })

  it('keeps the endpoint and the signing key across a restart, and the private key is never answered', async () => {
    const file = join(dir, 'state.db')
    const first = await start({
      dataFile: file,
      tokenId: 'cfg',
      clientSecret: 'cfg-secret'
    })
    expect((await first.patch('/config', { webhookEndpoint: 'https://hooks.example.com/grid' })).status).toBe(200)
    const key = (await first.get('/sandbox/webhook-public-key')).body.publicKeyPem
    await first.sb.close()
    const again = await start({
      dataFile: file,
      tokenId: 'cfg',
      clientSecret: 'cfg-secret'
    })
    try {
      expect((await again.get('/config')).body.webhookEndpoint).toBe('https://hooks.example.com/grid')
      const r = await again.get('/sandbox/webhook-public-key')
      expect(r.body.publicKeyPem).toBe(key)
      expect(r.text).not.toMatch(/PRIVATE/)
    } finally {
      await again.sb.close()
    }
  })

  it('GET /__deliveries (the delivery log) exists only with fault injection on', async () => {
    expect((await c.get('/__deliveries')).status).toBe(200)
    const plain = await start({ faults: false })
    try {
      expectError(await plain.get('/__deliveries'), 404, 'NOT_FOUND')
    } finally {
      await plain.sb.close()
    }
  })
})
