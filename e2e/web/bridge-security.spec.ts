import { expect, test } from '../support/browser-mode'
import { TOKEN_HEADER } from '../../src/shared/ipc/wire'

const invoke = (origin: string) => `${origin}/__paydesk/invoke/profiles.list`

test('the bridge answers a request with the token from its own origin', async ({ request, app }) => {
  const response = await request.post(invoke(app.origin), {
    headers: { [TOKEN_HEADER]: app.token, 'content-type': 'application/json', origin: app.origin },
    data: { input: null }
  })
  expect(response.status()).toBe(200)
  const body = await response.json()
  expect(body.ok).toBe(true)
  expect(body.value.activeProfileId).toBe('local')
})

test('the bridge refuses a request without the token', async ({ request, app }) => {
  const response = await request.post(invoke(app.origin), {
    headers: { 'content-type': 'application/json' },
    data: { input: null }
  })
  expect(response.status()).toBe(403)
  expect((await response.json()).error.code).toBe('FORBIDDEN_SENDER')
})

test('the bridge refuses a wrong token', async ({ request, app }) => {
  const response = await request.post(invoke(app.origin), {
    headers: { [TOKEN_HEADER]: app.token.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')), 'content-type': 'application/json' },
    data: { input: null }
  })
  expect(response.status()).toBe(403)
})

test('the bridge refuses a foreign Origin even with the token', async ({ request, app }) => {
  const response = await request.post(invoke(app.origin), {
    headers: { [TOKEN_HEADER]: app.token, 'content-type': 'application/json', origin: 'http://evil.example' },
    data: { input: null }
  })
  expect(response.status()).toBe(403)
})

test('the bridge refuses a Host other than the loopback address (DNS rebinding)', async ({ request, app }) => {
  const response = await request.post(invoke(app.origin), {
    headers: { [TOKEN_HEADER]: app.token, 'content-type': 'application/json', host: 'attacker.example' },
    data: { input: null }
  })
  expect(response.status()).toBe(403)
})

test('a page on another origin cannot read from the bridge', async ({ page, app }) => {
  // A foreign page in the same browser: its fetch carries its own Origin and no token.
  await page.goto('about:blank')
  const status = await page.evaluate(async (url) => {
    try {
      const r = await fetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })
      return r.status
    } catch {
      return 'blocked'
    }
  }, invoke(app.origin))
  expect(status === 'blocked' || status === 403).toBe(true)
})

test('browser mode serves the page with a strict Content-Security-Policy', async ({ request, app }) => {
  const response = await request.get(`${app.origin}/`)
  const csp = response.headers()['content-security-policy'] ?? ''
  expect(csp).toContain("default-src 'none'")
  expect(csp).toContain("connect-src 'self'")
  expect(csp).not.toMatch(/https?:\/\//)
})
