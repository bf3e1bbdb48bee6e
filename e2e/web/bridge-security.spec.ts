import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, invoke, test } from '../support/browser-mode'
import { TOKEN_HEADER } from '../../src/shared/ipc/wire'

const invokeUrl = (origin: string) => `${origin}/__paydesk/invoke/profiles.list`

test('the bridge answers a request with the token from its own origin', async ({ request, app }) => {
  const response = await request.post(invokeUrl(app.origin), {
    headers: { [TOKEN_HEADER]: app.token, 'content-type': 'application/json', origin: app.origin },
    data: { input: null }
  })
  expect(response.status()).toBe(200)
  const body = await response.json()
  expect(body.ok).toBe(true)
  expect(body.value.activeProfileId).toBe('local')
})

test('the bridge refuses a request without the token', async ({ request, app }) => {
  const response = await request.post(invokeUrl(app.origin), {
    headers: { 'content-type': 'application/json' },
    data: { input: null }
  })
  expect(response.status()).toBe(403)
  expect((await response.json()).error.code).toBe('FORBIDDEN_SENDER')
})

test('the bridge refuses a wrong token', async ({ request, app }) => {
  const response = await request.post(invokeUrl(app.origin), {
    headers: {
      [TOKEN_HEADER]: app.token.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')),
      'content-type': 'application/json'
    },
    data: { input: null }
  })
  expect(response.status()).toBe(403)
})

test('the bridge refuses a foreign Origin even with the token', async ({ request, app }) => {
  const response = await request.post(invokeUrl(app.origin), {
    headers: { [TOKEN_HEADER]: app.token, 'content-type': 'application/json', origin: 'http://evil.example' },
    data: { input: null }
  })
  expect(response.status()).toBe(403)
})

test('the bridge refuses a Host other than the loopback address (DNS rebinding)', async ({ request, app }) => {
  const response = await request.post(invokeUrl(app.origin), {
    headers: { [TOKEN_HEADER]: app.token, 'content-type': 'application/json', host: 'attacker.example' },
    data: { input: null }
  })
  expect(response.status()).toBe(403)
})

test('a page on another origin can neither read from the bridge nor change anything through it', async ({
  page,
  app
}) => {
  // A foreign site on another loopback port, open in the same browser as Paydesk.
  const foreign = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end('<!doctype html><title>elsewhere</title>')
  })
  await new Promise<void>((r) => foreign.listen(0, '127.0.0.1', () => r()))
  try {
    const { port } = foreign.address() as AddressInfo
    await page.goto(`http://127.0.0.1:${port}/`)
    const outcome = await page.evaluate(async (origin) => {
      // A "simple" request needs no preflight, so it reaches the server: it must be refused there. (Its answer is
      // withheld from this page anyway, by Cross-Origin-Resource-Policy.)
      await fetch(`${origin}/__paydesk/invoke/profiles.create`, {
        method: 'POST',
        mode: 'no-cors',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({
          input: { name: 'Planted', environment: 'sandbox', tokenId: 't', baseUrl: 'http://127.0.0.1:9/x' }
        })
      }).catch(() => undefined)
      try {
        const r = await fetch(`${origin}/__paydesk/invoke/profiles.list`, { method: 'POST', body: '{}' })
        return `read ${r.status}`
      } catch {
        return 'unreadable'
      }
    }, app.origin)
    expect(outcome).toBe('unreadable')
  } finally {
    foreign.close()
  }
  const list = (await invoke(app, 'profiles.list', null)) as { profiles: Array<{ name: string }> }
  expect(list.profiles.map((p) => p.name)).toEqual(['Local sandbox'])
})

test('browser mode serves the page with a strict Content-Security-Policy', async ({ request, app }) => {
  const response = await request.get(`${app.origin}/`)
  const csp = response.headers()['content-security-policy'] ?? ''
  expect(csp).toContain("default-src 'none'")
  expect(csp).toContain("connect-src 'self'")
  expect(csp).not.toMatch(/https?:\/\//)
})
