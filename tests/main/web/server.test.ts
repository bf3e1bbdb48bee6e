import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Backend } from '../../../src/main/app/backend'
import type { Emit } from '../../../src/main/infra/emit'
import type { Handlers } from '../../../src/main/handlers/dispatch'
import { createLogger } from '../../../src/main/infra/log'
import { startBrowserModeServer, type BrowserModeServer } from '../../../src/main/web/server'
import { TOKEN_HEADER } from '../../../src/shared/ipc/wire'
import { stubBackend } from './stub-backend'

/** Raw HTTP so tests can send any Host/Origin header (fetch would not let them). */
function send(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string }
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: options.headers },
      (res) => {
        let body = ''
        res.on('data', (c: Buffer) => (body += c.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      }
    )
    req.on('error', reject)
    req.end(options.body)
  })
}

describe('browser-mode server', () => {
  let server: BrowserModeServer
  let dir: string
  const sinks = new Set<Emit>()
  const calls: unknown[] = []

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'paydesk-web-'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Paydesk</title>')
    writeFileSync(join(tmpdir(), 'paydesk-outside.txt'), 'outside')
    const handlers = {
      'profiles.list': async () => {
        calls.push('profiles.list')
        return { activeProfileId: 'local', profiles: [] }
      }
    } as unknown as Handlers
    const backend = stubBackend({
      handlers,
      subscribe: (sink) => {
        sinks.add(sink)
        return () => void sinks.delete(sink)
      }
    })
    server = await startBrowserModeServer({ backend, subscribe: backend.subscribe, rendererDir: dir, log: () => {} })
  })

  afterAll(async () => {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const host = () => `127.0.0.1:${server.port}`
  const invoke = (headers: Record<string, string>, body = '{"input":null}') =>
    send(server.port, {
      method: 'POST',
      path: '/__paydesk/invoke/profiles.list',
      headers: { 'content-type': 'application/json', host: host(), ...headers },
      body
    })

  it('prints a loopback URL that carries the token only in the fragment', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/#token=${server.token}`)
    expect(server.token.length).toBeGreaterThanOrEqual(40)
  })

  it('answers the contract with the token from its own origin', async () => {
    const response = await invoke({ [TOKEN_HEADER]: server.token, origin: server.origin })
    expect(response.status).toBe(200)
    expect(JSON.parse(response.body)).toEqual({ ok: true, value: { activeProfileId: 'local', profiles: [] } })
  })

  it.each([
    ['no token', {}],
    ['a wrong token', { [TOKEN_HEADER]: 'x'.repeat(43) }],
    ['a foreign origin', { [TOKEN_HEADER]: 'TOKEN', origin: 'http://evil.example' }],
    ['a cross-site fetch', { [TOKEN_HEADER]: 'TOKEN', 'sec-fetch-site': 'cross-site' }],
    ['another Host (DNS rebinding)', { [TOKEN_HEADER]: 'TOKEN', host: 'evil.example:80' }]
  ])('refuses a call with %s, and runs nothing', async (_case, headers) => {
    const before = calls.length
    const resolved = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === 'TOKEN' ? server.token : v]))
    const response = await invoke(resolved)
    expect(response.status).toBe(403)
    expect(JSON.parse(response.body).error.code).toBe('FORBIDDEN_SENDER')
    expect(calls.length).toBe(before)
  })

  it('answers malformed JSON with 400 and oversize bodies with 413', async () => {
    expect((await invoke({ [TOKEN_HEADER]: server.token }, '{oops')).status).toBe(400)
    expect(
      (await invoke({ [TOKEN_HEADER]: server.token }, JSON.stringify({ input: 'x'.repeat(1_100_000) }))).status
    ).toBe(413)
  })

  it('validates input through the contract', async () => {
    const response = await send(server.port, {
      method: 'POST',
      path: '/__paydesk/invoke/profiles.switch',
      headers: { 'content-type': 'application/json', host: host(), [TOKEN_HEADER]: server.token },
      body: JSON.stringify({ input: { id: 'NOT VALID' } })
    })
    expect(JSON.parse(response.body)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
  })

  it('serves the page with security headers and never files outside the renderer folder', async () => {
    const page = await send(server.port, { path: '/', headers: { host: host() } })
    expect(page.status).toBe(200)
    expect(page.headers['content-security-policy']).toContain("default-src 'none'")
    expect(page.headers['x-frame-options']).toBe('DENY')
    const escape = await send(server.port, { path: '/../paydesk-outside.txt', headers: { host: host() } })
    expect(escape.status).toBe(404)
    const encoded = await send(server.port, { path: '/%2e%2e/paydesk-outside.txt', headers: { host: host() } })
    expect(encoded.status).toBe(404)
  })

  it('streams backend events to a page that holds the token, and to nobody else', async () => {
    const refused = await send(server.port, { path: '/__paydesk/events', headers: { host: host() } })
    expect(refused.status).toBe(403)

    // The server writes ': connected' in the same turn as it registers the stream: once the page has read it, an
    // event the backend sends reaches the page.
    let connected!: () => void
    const registered = new Promise<void>((resolve) => (connected = resolve))
    const received = new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: server.port,
          path: '/__paydesk/events',
          headers: { host: host(), [TOKEN_HEADER]: server.token }
        },
        (res) => {
          let text = ''
          res.on('data', (c: Buffer) => {
            text += c.toString()
            if (text.includes(': connected\n\n')) connected()
            if (text.includes('"event":"navigate"')) {
              req.destroy()
              resolve(text)
            }
          })
        }
      )
      req.on('error', reject)
      req.end()
    })
    await registered
    for (const sink of sinks) sink('navigate', { route: 'approvals', id: 'Transaction:1' })
    expect(await received).toContain('data: {"event":"navigate","payload":{"route":"approvals","id":"Transaction:1"}}')
  })
})

describe('browser-mode server with a backend still starting', () => {
  it('serves the page at once, and answers a call made meanwhile when the backend is up', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paydesk-web-early-'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Paydesk</title>')
    let up!: (backend: Backend) => void
    const starting = new Promise<Backend>((resolve) => (up = resolve))
    const server = await startBrowserModeServer({
      backend: starting,
      subscribe: () => () => {},
      rendererDir: dir,
      log: () => {}
    })
    try {
      const host = `127.0.0.1:${server.port}`
      expect((await send(server.port, { path: '/', headers: { host } })).status).toBe(200)
      let answered = false
      const call = send(server.port, {
        method: 'POST',
        path: '/__paydesk/invoke/profiles.list',
        headers: { host, 'content-type': 'application/json', [TOKEN_HEADER]: server.token, origin: server.origin },
        body: JSON.stringify({ input: null })
      }).then((response) => ((answered = true), response))
      await new Promise((r) => setTimeout(r, 100))
      expect(answered).toBe(false)
      const handlers = {
        'profiles.list': async () => ({ activeProfileId: 'local', profiles: [] })
      } as unknown as Handlers
      up(stubBackend({ handlers }))
      const response = await call
      expect(JSON.parse(response.body)).toEqual({ ok: true, value: { activeProfileId: 'local', profiles: [] } })
    } finally {
      await server.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

/**
 * One request on a connection of its own, raw: resolves with what the server sent once the server has closed the
 * connection (the event held, never a timer). `rest` is sent after the headers; a body it promises but never sends
 * would keep a draining server waiting.
 */
function refusedOnce(port: number, head: string, rest = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\n\r\n${rest}`))
    let answer = ''
    socket.on('data', (c: Buffer) => (answer += c.toString('latin1')))
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
  })
}

describe('browser-mode server under a flood of requests without the token', () => {
  it('answers each at once and closes it, and the log keeps a few lines of them, not the flood', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paydesk-web-flood-'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Paydesk</title>')
    const logs = join(dir, 'logs')
    const log = createLogger(logs)
    log('Paydesk started: this line must outlive the flood')
    const server = await startBrowserModeServer({
      backend: stubBackend(),
      subscribe: () => () => {},
      rendererDir: dir,
      log
    })
    try {
      const host = `127.0.0.1:${server.port}`
      const heads = [
        `GET /__paydesk/events HTTP/1.1\r\nHost: ${host}\r\nConnection: keep-alive`,
        `GET /__paydesk/events HTTP/1.1\r\nHost: ${host}\r\nConnection: close`,
        `POST /__paydesk/invoke/profiles.list HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n${TOKEN_HEADER}: wrong`
      ]
      const total = 30_000
      let next = 0
      let refused = 0
      // 32 connections at a time, each one request (the server closes every refused one): on a loaded machine the
      // wait for each connection, not the CPU, is what more of them in parallel hides.
      const worker = async () => {
        while (next < total) {
          const answer = await refusedOnce(server.port, heads[next++ % heads.length]!, next % 3 === 0 ? '{}' : '')
          if (/^HTTP\/1\.1 403 /.test(answer) && /\r\nconnection: close\r\n/i.test(answer)) refused++
        }
      }
      await Promise.all(Array.from({ length: 32 }, worker))
      expect(refused).toBe(total)
      // A refused request whose body is still coming is answered and closed without waiting for it.
      const early = await refusedOnce(
        server.port,
        `POST /__paydesk/invoke/x HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 1000000000`,
        '{"input":'
      )
      expect(early).toMatch(/^HTTP\/1\.1 403 /)
      expect(readdirSync(logs)).toEqual(['paydesk.log'])
      const text = readFileSync(join(logs, 'paydesk.log'), 'utf8')
      expect(text).toContain('this line must outlive the flood')
      const refusalLines = text.split('\n').filter((l) => l.includes('refused'))
      expect(refusalLines.length).toBeLessThanOrEqual(6)
      expect(refusalLines.join('\n').length).toBeLessThan(2_048)
    } finally {
      await server.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
