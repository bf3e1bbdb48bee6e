import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createReadStream, readdirSync, readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, relative, sep } from 'node:path'
import { BRIDGE_EVENTS_PATH, BRIDGE_EXPORT_PATH, BRIDGE_INVOKE_PATH, TOKEN_HEADER } from '../../shared/ipc/wire'
import type { Backend } from '../app/backend'
import { describeError, rateLimited } from '../infra/log'
import { PAGE_CSP, PAGE_FILE_TYPES } from '../infra/page-files'

const MAX_BODY_BYTES = 1024 * 1024
const LOOPBACK = '127.0.0.1'

export interface BrowserModeServer {
  /** The URL to open: it carries the per-launch token in the fragment, which browsers never send to a server. */
  url: string
  origin: string
  port: number
  token: string
  close(): Promise<void>
}

/**
 * Browser mode: the renderer served on 127.0.0.1, talking to the same backend through the same contract over a
 * token-protected loopback bridge. Refuses requests without the token, from a foreign Origin, or addressed to another
 * Host (DNS rebinding).
 */
export async function startBrowserModeServer(options: {
  /**
   * Still starting is fine: the page is served at once and its calls wait for the backend, so the browser loads the
   * page while the backend opens its data instead of after it.
   */
  backend: Backend | Promise<Backend>
  /** Events for the page: the backend's, plus the host's own (notifications). */
  subscribe: Backend['subscribe']
  rendererDir: string
  port?: number
  log: (message: string) => void
}): Promise<BrowserModeServer> {
  const { log } = options
  const files = readRendererFiles(options.rendererDir)
  const backend = Promise.resolve(options.backend)
  const token = randomBytes(32).toString('base64url')
  const tokenBytes = Buffer.from(token)
  let origin = ''
  let host = ''
  const streams = new Set<ServerResponse>()
  // Anything on this machine can send requests here without end: their refusals must not rotate the log away.
  const refusals = rateLimited(log, 'refused requests')

  const hasToken = (req: IncomingMessage): boolean => {
    const given = req.headers[TOKEN_HEADER]
    if (typeof given !== 'string') return false
    const givenBytes = Buffer.from(given)
    return givenBytes.length === tokenBytes.length && timingSafeEqual(givenBytes, tokenBytes)
  }

  const refusal = (req: IncomingMessage, needsToken: boolean): string | null => {
    if (req.headers.host !== host) return 'wrong host'
    const requestOrigin = req.headers.origin
    if (requestOrigin !== undefined && requestOrigin !== origin) return 'foreign origin'
    const site = req.headers['sec-fetch-site']
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return 'cross-site request'
    if (needsToken && !hasToken(req)) return 'missing or wrong token'
    return null
  }

  // Every request ends in an answer: a malformed one gets a 4xx, and anything thrown is logged and answered 500. A
  // web page can make the browser send any path here (<img src="http://127.0.0.1:PORT//">); none may stop the backend
  // that runs approvals and polling.
  const server: Server = createServer((req, res) => {
    handleRequest(req, res).catch((error: unknown) => {
      log(`browser mode: ${req.method} request failed: ${describeError(error)}`)
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: { code: 'INTERNAL', message: 'Internal error.' } })
      else res.destroy()
    })
  })
  // The page's calls reuse a few kept-alive connections. Node closes an idle one after 5 s, so the first call after a
  // pause (a search typed after reading the list) opened a new connection first: 10-40 ms on a loaded machine, measured
  // by the keystroke bench. The only client is the operator's own tab over loopback: an idle connection is kept as long
  // as Chromium keeps a used one (5 minutes).
  server.keepAliveTimeout = 5 * 60_000
  // A request Node cannot parse (bad request line, header or encoding) never reaches the handler: answer 400 and close.
  server.on('clientError', (error, socket) => {
    if (socket.writable && !(error as NodeJS.ErrnoException).code?.startsWith('ECONNRESET'))
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
    else socket.destroy()
  })

  async function handleRequest(req: IncomingMessage, res: ServerResponse) {
    const path = requestPath(req.url)
    if (path === null) return sendJson(res, 400, { ok: false, error: { code: 'INVALID_INPUT', message: 'Bad path.' } })
    const isBridge = path.startsWith('/__paydesk/')
    const refused = refusal(req, isBridge)
    if (refused) {
      refusals(`browser mode refused ${req.method} ${isBridge ? path : 'page'}: ${refused}`)
      // Answered and closed at once: a refused request's body is never read, and its connection is not kept.
      return sendJson(
        res,
        403,
        { ok: false, error: { code: 'FORBIDDEN_SENDER', message: `Refused: ${refused}.` } },
        { connection: 'close' }
      )
    }
    if (isBridge) return handleBridge(req, res, path)
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'Method not allowed' })
    const decoded = decodePathPart(path)
    const file = decoded === null ? undefined : files.get(decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, ''))
    if (!file) return sendJson(res, 404, { error: 'Not found' })
    res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length, ...securityHeaders() })
    res.end(req.method === 'HEAD' ? undefined : file.body)
  }

  async function handleBridge(req: IncomingMessage, res: ServerResponse, path: string) {
    if (path === BRIDGE_EVENTS_PATH && req.method === 'GET') return openEventStream(res)
    if (path.startsWith(BRIDGE_EXPORT_PATH) && req.method === 'GET')
      return sendExport(res, await backend, decodePathPart(path.slice(BRIDGE_EXPORT_PATH.length)))
    if (path.startsWith(BRIDGE_INVOKE_PATH) && req.method === 'POST') {
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
        return sendJson(res, 415, { ok: false, error: { code: 'INVALID_INPUT', message: 'Send JSON.' } })
      }
      let body: unknown
      try {
        body = JSON.parse(await readBody(req))
      } catch (error) {
        const tooLarge = error instanceof Error && error.message === 'too large'
        return sendJson(res, tooLarge ? 413 : 400, {
          ok: false,
          error: { code: 'INVALID_INPUT', message: tooLarge ? 'Request too large.' : 'Request body is not valid JSON.' }
        })
      }
      const channelName = decodePathPart(path.slice(BRIDGE_INVOKE_PATH.length))
      if (channelName === null)
        return sendJson(res, 404, { ok: false, error: { code: 'UNKNOWN_CHANNEL', message: 'No such bridge route.' } })
      const input =
        typeof body === 'object' && body !== null && 'input' in body ? (body as { input: unknown }).input : null
      // Loaded here, not at the top: it builds every schema of the contract, which would hold the page's first
      // files back (the backend loads the same schemas as it starts, so the first call finds them in).
      const { dispatch } = await import('../handlers/dispatch')
      return sendJson(res, 200, await dispatch((await backend).handlers, channelName, input, log))
    }
    return sendJson(res, 404, { ok: false, error: { code: 'UNKNOWN_CHANNEL', message: 'No such bridge route.' } })
  }

  /** A finished CSV export, streamed from disk once and then deleted (the bridge's token, Origin and Host checks apply). */
  function sendExport(res: ServerResponse, backend: Backend, exportId: string | null) {
    const download = exportId === null ? null : (backend.exports?.takeDownload(exportId) ?? null)
    if (!download) return sendJson(res, 404, { ok: false, error: { code: 'NOT_FOUND', message: 'No such export.' } })
    res.writeHead(200, {
      ...securityHeaders(),
      'content-type': 'text/csv; charset=utf-8; header=present',
      'content-disposition': `attachment; filename="${download.fileName.replace(/[^\w.-]/g, '_')}"`
    })
    const stream = createReadStream(download.file)
    stream.on('error', () => res.destroy())
    res.on('close', () => void download.done())
    stream.pipe(res)
  }

  function openEventStream(res: ServerResponse) {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff'
    })
    // Registered before the page is told: any event sent once it has read this reaches it.
    streams.add(res)
    res.write(': connected\n\n')
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000)
    res.on('close', () => {
      clearInterval(keepAlive)
      streams.delete(res)
    })
  }

  const unsubscribe = options.subscribe((event, payload) => {
    const frame = `data: ${JSON.stringify({ event, payload })}\n\n`
    for (const stream of streams) stream.write(frame)
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, LOOPBACK, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  host = `${LOOPBACK}:${port}`
  origin = `http://${host}`

  return {
    url: `${origin}/#token=${token}`,
    origin,
    port,
    token,
    close: async () => {
      refusals.flush()
      unsubscribe()
      for (const stream of streams) stream.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

/**
 * The built renderer, read into memory once (about 0.6 MB): a page request is then answered in one step, even while
 * the backend's start-up holds the event loop between its steps, instead of waiting for several file-system turns.
 * Only these files are ever served, so no request path can reach outside the folder.
 */
function readRendererFiles(rendererDir: string): Map<string, { body: Buffer; type: string }> {
  const files = new Map<string, { body: Buffer; type: string }>()
  for (const entry of readdirSync(rendererDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const file = join(entry.parentPath, entry.name)
    const name = relative(rendererDir, file).split(sep).join('/')
    files.set(name, { body: readFileSync(file), type: PAGE_FILE_TYPES[extname(file)] ?? 'application/octet-stream' })
  }
  return files
}

/** The path of a request target, or null when it is not an origin-form path this server can read. */
function requestPath(target: string | undefined): string | null {
  if (!target || !target.startsWith('/')) return null
  try {
    // Parsed against a fixed origin, so `//host/x` cannot become another host: the path is all that is kept.
    return new URL(`http://x${target}`).pathname
  } catch {
    return null
  }
}

function decodePathPart(part: string): string | null {
  try {
    return decodeURIComponent(part)
  } catch {
    return null
  }
}

function securityHeaders(): Record<string, string> {
  return {
    'content-security-policy': PAGE_CSP,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store'
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...securityHeaders(),
    ...headers
  })
  res.end(text)
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    // An oversize body is drained, not cut off, so the client still receives the 413 answer.
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
    })
    req.on('end', () =>
      size > MAX_BODY_BYTES ? reject(new Error('too large')) : resolve(Buffer.concat(chunks).toString('utf8'))
    )
    req.on('error', reject)
  })
}
