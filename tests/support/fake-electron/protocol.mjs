// Custom schemes as Electron has them: privileges declared before `ready`, a handler registered after, and the page
// loaded through that handler (each request first offered to the session's webRequest filter, as Chromium does).
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

const BUILT_IN = ['http', 'https', 'file']

/** `beforeRequest()` returns the session's onBeforeRequest listener, if main set one. */
export function createProtocols(life, { beforeRequest = () => null } = {}) {
  /** scheme → privileges, as registerSchemesAsPrivileged declared them. */
  const privileged = new Map()
  let declared = false
  const handlers = new Map()

  const sessionProtocol = {
    handle(scheme, handler) {
      // lib/browser/api/protocol.ts, Protocol.prototype.handle: a scheme already handled is refused.
      if (handlers.has(scheme)) throw new Error(`Failed to register protocol: ${scheme}`)
      handlers.set(scheme, handler)
    },
    isProtocolHandled: (scheme) => handlers.has(scheme)
  }

  /** session.fetch: a handled scheme goes through its handler (unless bypassed), file: is read from disk. */
  async function fetch(input, init = {}) {
    const url = typeof input === 'string' ? input : input.url
    const scheme = new URL(url).protocol.slice(0, -1)
    if (handlers.has(scheme) && !init.bypassCustomProtocolHandlers) return handlers.get(scheme)(new Request(url))
    if (scheme === 'file') {
      try {
        // Chromium's file loader; Paydesk's handler names the type itself, so none is guessed here.
        return new Response(await readFile(fileURLToPath(url)))
      } catch {
        throw new Error('net::ERR_FILE_NOT_FOUND')
      }
    }
    throw new Error(`fake-electron: no network in tests (${scheme}:)`)
  }

  /** One request of the page: through webRequest, then the scheme's handler. */
  async function request(url) {
    const filter = beforeRequest()
    if (filter) {
      const cancelled = await new Promise((done) => filter({ url }, (answer) => done(answer.cancel === true)))
      if (cancelled) return { url, status: 'blocked' }
    }
    const handler = handlers.get(new URL(url).protocol.slice(0, -1))
    if (!handler) return { url, status: 'unhandled' }
    const response = await handler(new Request(url))
    return { url, status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() }
  }

  return {
    sessionProtocol,
    fetch,
    protocol: {
      registerSchemesAsPrivileged(schemes) {
        life.requireNotReady('lateSchemes')
        // docs/api/protocol.md: "can be called only once" (a second call would replace the first declaration).
        if (declared) throw new Error('fake-electron: protocol.registerSchemesAsPrivileged called twice')
        declared = true
        for (const { scheme, privileges } of schemes) privileged.set(scheme, privileges ?? {})
      },
      // lib/browser/api/protocol.ts: the module-level calls go through session.defaultSession, which refuses before
      // ready.
      handle(scheme, handler) {
        life.requireReady('session')
        sessionProtocol.handle(scheme, handler)
      },
      isProtocolHandled(scheme) {
        life.requireReady('session')
        return sessionProtocol.isProtocolHandled(scheme)
      }
    },
    // docs/api/net.md: "can only be used after the app emits the ready event"; net.fetch is defaultSession.fetch.
    net: {
      fetch(input, init) {
        life.requireReady('session')
        return fetch(input, init)
      }
    },
    /** What a request to `url` answers, through webRequest and the handler (for the tests' probes). */
    request,
    privileges: (scheme) => privileged.get(scheme),
    /**
     * loadURL: a custom scheme's page and every file it names are requested through the handler. An unhandled custom
     * scheme fails as Chromium fails it; other pages are only recorded.
     */
    async loadPage(url) {
      const scheme = new URL(url).protocol.slice(0, -1)
      if (BUILT_IN.includes(scheme)) return { url }
      if (!handlers.has(scheme)) throw new Error(`ERR_UNKNOWN_URL_SCHEME (-302) loading '${url}'`)
      const page = await request(url)
      const names = [...(page.body ?? '').matchAll(/\s(?:src|href)="([^"]+)"/g)].map((m) => m[1])
      const assets = []
      for (const name of names.filter((n) => !n.startsWith('data:')))
        assets.push(await request(new URL(name, url).href).then(({ body: _body, ...rest }) => rest))
      return { ...page, assets, privileges: privileged.get(scheme) ?? null }
    }
  }
}
