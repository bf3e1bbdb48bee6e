import { extname, isAbsolute, relative, resolve } from 'node:path'
import { PAGE_FILE_TYPES } from '../infra/page-files'

/**
 * The page's own scheme, `app://paydesk/`: which request is which built file, with what type. Pure, so every refusal is
 * unit-tested without Electron; app-protocol.ts serves it.
 *
 * A custom standard scheme rather than file://: the page gets an origin of its own (`'self'` in the CSP, the IPC sender
 * check and navigation all key off it), and it can read nothing on the disk but out/renderer, where file:// would let
 * any page in the window ask for any file.
 */
export const APP_SCHEME = 'app'
const APP_HOST = 'paydesk'
export const APP_PAGE_URL = `${APP_SCHEME}://${APP_HOST}/index.html`

/**
 * standard: relative URLs, an origin and `'self'` work as on https; secure: a secure context, as the page had on
 * file://; supportFetchAPI: the page's module scripts are fetched; codeCache: V8 keeps the compiled scripts between
 * starts, as it does for file://. No bypassCSP: the page policy (page-files.ts) applies to everything the scheme serves.
 */
export const APP_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: true, codeCache: true } as const

type AppFile = { file: string; type: string } | { status: 400 | 403 | 404; reason: string }

/**
 * The file under `root` (out/renderer) that `url` names, or why there is none. Nothing outside `root` is ever named:
 * the path is decoded once and then resolved and checked, so `%2f`, `%5c` and `..` cannot climb out; a name without
 * a known type (a folder, say) is not served.
 */
export function appFileFor(url: string, root: string): AppFile {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { status: 400, reason: 'not a URL' }
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return { status: 404, reason: 'another host' }
  let path: string
  try {
    path = decodeURIComponent(parsed.pathname === '/' ? '/index.html' : parsed.pathname)
  } catch {
    return { status: 400, reason: 'a malformed escape' }
  }
  if (path.includes('\0') || path.includes('\\')) return { status: 400, reason: 'a NUL or a backslash' }
  const base = resolve(root)
  const file = resolve(base, `.${path}`)
  const inside = relative(base, file)
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return { status: 403, reason: 'outside the page' }
  const type = PAGE_FILE_TYPES[extname(file).toLowerCase()]
  if (!type) return { status: 404, reason: 'not a page file' }
  return { file, type }
}
