import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BRIDGE_INVOKE_PATH, TOKEN_HEADER } from '../../../src/shared/ipc/wire'

/*
 * Browser mode as `npm run web` runs it, in its own process, so a request that kills it shows as a dead process. The
 * audit's crashing requests and a generated corpus of malformed request lines are sent over raw TCP; after each one
 * the process must be alive and a valid bridge call must still answer.
 */
const ROOT = resolve(import.meta.dirname, '../../..')

interface Running {
  child: ChildProcess
  port: number
  token: string
  output(): string
}

async function startBrowserMode(dataDir: string, rendererDir: string): Promise<Running> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/main/web/cli.ts', '--port', '0', '--data-dir', dataDir, '--renderer-dir', rendererDir],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }
  )
  let output = ''
  const url = await new Promise<URL>((resolvePromise, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /Open this URL: (\S+)/.exec(output)
      if (match?.[1]) resolvePromise(new URL(match[1]))
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`browser mode exited with ${code}:\n${output}`)))
  })
  return {
    child,
    port: Number(url.port),
    token: new URLSearchParams(url.hash.slice(1)).get('token')!,
    output: () => output
  }
}

/**
 * Writes raw bytes and collects whatever comes back until the server closes (or 2 s pass). `halfClose` sends FIN
 * after the bytes, so an incomplete request cannot keep the socket open; Node's server then drops that request.
 */
function rawExchange(port: number, bytes: Buffer, halfClose = true): Promise<string> {
  return new Promise((resolvePromise) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    const done = () => {
      clearTimeout(timer)
      socket.destroy()
      resolvePromise(answer)
    }
    const timer = setTimeout(done, 2000)
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')))
    socket.on('error', done)
    socket.on('close', done)
    if (halfClose) socket.end(bytes)
    else socket.write(bytes)
  })
}

/** A deterministic PRNG (mulberry32), so a failing case can be replayed by its index. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const PATH_PIECES = [
  '/',
  '//',
  '///x',
  '/%',
  '/%c0%ae',
  '/%E0%A4%A',
  '/%ff%fe',
  '/%00',
  '/..%2f..%2fetc%2fpasswd',
  '/__paydesk/',
  BRIDGE_INVOKE_PATH,
  `${BRIDGE_INVOKE_PATH}%`,
  `${BRIDGE_INVOKE_PATH}%c0`,
  '/__paydesk/events',
  '/index.html',
  '/assets/',
  '\\\\',
  '/\u00e9\u4e2d',
  '?',
  '#',
  '/%2e%2e/',
  '/a'.repeat(50)
]
const METHODS = ['GET', 'POST', 'HEAD', 'PUT', 'OPTIONS', 'DELETE', 'G\u0000T', '', 'CONNECT', 'PRI', 'get']
const VERSIONS = [' HTTP/1.1', ' HTTP/1.0', '', ' HTTP/9.9', ' HTTP/1.1 extra', ' http/1.1']

function corpus(count: number, token: string, host: string): Buffer[] {
  const random = prng(20261123)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
  const cases: Buffer[] = []
  for (let i = 0; i < count; i++) {
    let path = ''
    const parts = 1 + Math.floor(random() * 3)
    for (let p = 0; p < parts; p++) path += pick(PATH_PIECES)
    if (random() < 0.2) path = path.replace(/^\//, pick(['', 'http://evil.example', '*', ' ', '//evil.example']))
    if (random() < 0.1) path += String.fromCharCode(Math.floor(random() * 32))
    const headers: string[] = []
    if (random() < 0.7) headers.push(`Host: ${random() < 0.8 ? host : pick(['evil.example', '', '127.0.0.1'])}`)
    if (random() < 0.5) headers.push(`${TOKEN_HEADER}: ${random() < 0.7 ? token : 'x'.repeat(43)}`)
    if (random() < 0.3) headers.push(`Content-Type: ${pick(['application/json', 'text/plain', 'application/json; x'])}`)
    if (random() < 0.2) headers.push(pick(['Bad header line', ': empty name', 'X-\u0001: ctl', 'Content-Length: -1']))
    if (random() < 0.2) headers.push(pick(['Transfer-Encoding: chunked', 'Content-Length: 5', 'Content-Length: 99999']))
    if (random() < 0.1) headers.push(`Origin: ${pick(['http://evil.example', 'null', `http://${host}`])}`)
    const body =
      random() < 0.4 ? pick(['{', '{"input":', 'null', '{"input":{}}', 'zz\r\n0\r\n\r\n', '\u0000\u00ff']) : ''
    const line = `${pick(METHODS)} ${path}${pick(VERSIONS)}`
    const head = `${line}\r\n${headers.join('\r\n')}${headers.length ? '\r\n' : ''}${random() < 0.9 ? '\r\n' : ''}`
    cases.push(Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(body, 'utf8')]))
  }
  return cases
}

describe('browser mode under malformed requests (real server, its own process)', () => {
  let running: Running
  let dataDir: string
  let rendererDir: string

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'paydesk-fuzz-data-'))
    rendererDir = mkdtempSync(join(tmpdir(), 'paydesk-fuzz-renderer-'))
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Paydesk</title>')
    running = await startBrowserMode(dataDir, rendererDir)
  }, 60_000)

  afterAll(() => {
    running?.child.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(rendererDir, { recursive: true, force: true })
  })

  const host = () => `127.0.0.1:${running.port}`
  const validCall = async () => {
    const body = JSON.stringify({ input: null })
    const answer = await rawExchange(
      running.port,
      Buffer.from(
        `POST ${BRIDGE_INVOKE_PATH}profiles.list HTTP/1.1\r\nHost: ${host()}\r\n${TOKEN_HEADER}: ${running.token}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
      ),
      false
    )
    return answer.startsWith('HTTP/1.1 200') && answer.includes('"ok":true')
  }

  it('answers a valid call before the attack (the check below can tell alive from dead)', async () => {
    // The URL is out before the backend has loaded (calls wait for it), and under tsx loading takes seconds.
    let alive = false
    for (let i = 0; i < 60 && !alive; i++) alive = await validCall()
    expect(alive).toBe(true)
  })

  it.each([
    ['GET // (new URL threw)', 'GET // HTTP/1.1\r\nHost: {host}\r\n\r\n'],
    ['GET /%c0%ae (decodeURIComponent threw)', 'GET /%c0%ae HTTP/1.1\r\nHost: {host}\r\n\r\n'],
    ['an invalid escape in a channel name', `POST ${BRIDGE_INVOKE_PATH}%E0%A4%A HTTP/1.1\r\nHost: {host}\r\n\r\n`],
    [
      'a bridge call with a broken escape and the token',
      `POST ${BRIDGE_INVOKE_PATH}%c0 HTTP/1.1\r\nHost: {host}\r\n{token}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`
    ],
    ['an img tag from any web page', 'GET // HTTP/1.1\r\nHost: {host}\r\nSec-Fetch-Site: cross-site\r\n\r\n']
  ])('survives the audit’s %s', async (_name, raw) => {
    const bytes = raw.replaceAll('{host}', host()).replaceAll('{token}', `${TOKEN_HEADER}: ${running.token}`)
    const answer = await rawExchange(running.port, Buffer.from(bytes, 'latin1'))
    expect(answer).toMatch(/^HTTP\/1\.1 4\d\d/)
    expect(running.child.exitCode).toBeNull()
    expect(await validCall()).toBe(true)
  })

  it('survives 1,200 generated malformed requests, serving a valid call after each', async () => {
    const cases = corpus(1200, running.token, host())
    let served = 0
    for (const [index, bytes] of cases.entries()) {
      await rawExchange(running.port, bytes)
      if (running.child.exitCode !== null || !(await validCall()))
        throw new Error(
          `case ${index} (${JSON.stringify(bytes.toString('latin1'))}) stopped the server:\n${running.output()}`
        )
      served++
    }
    expect(served).toBe(1200)
  }, 240_000)
})
