import { pathToFileURL } from 'node:url'
import { net, protocol } from 'electron'
import { PAGE_CSP } from '../infra/page-files'
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, appFileFor } from './app-files'

/** On every answer: the policy, and no type guessing (a file is only ever what its name says). */
const HEADERS = { 'content-security-policy': PAGE_CSP, 'x-content-type-options': 'nosniff' }

/** Declares `app://` standard and secure. Electron takes this only before `ready`, and only once. */
export function declareAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }])
}

/**
 * Serves out/renderer (`root`) on `app://paydesk/`, read-only. Electron takes a handler only once it is ready; call it
 * before the window loads its page.
 */
export function serveAppScheme(root: string, log: (message: string) => void): void {
  protocol.handle(APP_SCHEME, async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return new Response(null, { status: 405, headers: HEADERS })
    const target = appFileFor(request.url, root)
    if ('status' in target) {
      // Only a request the page never makes is refused: worth a line, without the path (it may be anything).
      if (target.status !== 404) log(`refused an ${APP_SCHEME}:// request: ${target.reason}`)
      return new Response(null, { status: target.status, headers: HEADERS })
    }
    try {
      // The file loader reads inside app.asar too; custom handlers are bypassed so this can only ever read a file.
      const file = await net.fetch(pathToFileURL(target.file).href, { bypassCustomProtocolHandlers: true })
      if (!file.ok) return new Response(null, { status: 404, headers: HEADERS })
      return new Response(file.body, { status: 200, headers: { ...HEADERS, 'content-type': target.type } })
    } catch {
      return new Response(null, { status: 404, headers: HEADERS })
    }
  })
}
