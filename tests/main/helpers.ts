import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'

// No test-framework imports here: e2e specs (through tests/contract/prism.ts) load this file under Playwright.

export async function tempDir(label = 'paydesk'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), `${label}-`))
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) }
}

/** Every regular file under `dir`, recursively. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...(await listFiles(full)))
    else if ((await stat(full)).isFile()) out.push(full)
  }
  return out
}

export async function readAll(file: string): Promise<Buffer> {
  return readFile(file)
}

export type StubHandler = (req: IncomingMessage & { body: string }, res: ServerResponse) => void | Promise<void>

/** A tiny node:http server for client tests; `requests` records what arrived (method, url, headers, body). */
export async function stubServer(handler: StubHandler): Promise<{
  baseUrl: string
  port: number
  server: Server
  requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string; at: number }>
  close: () => Promise<void>
}> {
  const requests: Array<{
    method: string
    url: string
    headers: IncomingMessage['headers']
    body: string
    at: number
  }> = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, at: Date.now() })
      Promise.resolve(handler(Object.assign(req, { body }), res)).catch(() => {
        res.statusCode = 500
        res.end()
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    baseUrl: `http://127.0.0.1:${port}/2025-10-13`,
    port,
    server,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}

/** A port nothing listens on (bound then released). */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
