import { APP_PAGE_URL, APP_SCHEME } from './app-files'

/**
 * Which URLs may do what. Pure functions so they are unit-tested without Electron.
 */

/**
 * The only places a link may open in the OS browser: the service's documentation and the project's own pages. A
 * renderer compromised through some payload must not be able to launch arbitrary URLs on the operator's machine.
 */
const EXTERNAL_LINK_HOSTS: readonly string[] = ['grid.lightspark.com', 'lightspark.com', 'uma.me']

/** Only https links to an allow-listed host leave the app, and only through the OS browser. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    const parsed = new URL(url)
    return (
      parsed.protocol === 'https:' &&
      parsed.username === '' &&
      parsed.password === '' &&
      parsed.port === '' &&
      EXTERNAL_LINK_HOSTS.includes(parsed.hostname)
    )
  } catch {
    return false
  }
}

/**
 * The page the window loads: the built renderer on its own scheme (app-files.ts). `ELECTRON_RENDERER_URL`
 * (electron-vite's dev server) is honoured only in development: in an installed app, an environment variable must not
 * swap the operator's console for another page.
 */
export function appPageUrlFor(options: { isPackaged: boolean; devServerUrl: string | undefined }): string {
  if (!options.isPackaged && options.devServerUrl) return options.devServerUrl
  return APP_PAGE_URL
}

/**
 * The renderer's own page: on `app://paydesk`, that one page (any query or fragment); in development, anything on the
 * dev server's origin. `app:` is not a scheme the URL parser knows, so its origin reads "null": host and path are
 * compared instead.
 */
export function isAppPageUrl(url: string, appPageUrl: string): boolean {
  try {
    const actual = new URL(url)
    const expected = new URL(appPageUrl)
    if (expected.protocol === `${APP_SCHEME}:`)
      return (
        actual.protocol === expected.protocol && actual.host === expected.host && actual.pathname === expected.pathname
      )
    return actual.origin === expected.origin
  } catch {
    return false
  }
}

/**
 * Requests the renderer may make on its own: its bundled files (whatever app-files.ts serves of out/renderer) and
 * devtools. Everything else (any http(s) origin, any file://) is cancelled, because every API call goes through main.
 */
export function isAllowedRendererRequest(url: string, appPageUrl: string): boolean {
  if (url.startsWith('devtools://') || url.startsWith('data:')) return true
  try {
    const actual = new URL(url)
    const expected = new URL(appPageUrl)
    if (expected.protocol === `${APP_SCHEME}:`)
      return actual.protocol === expected.protocol && actual.host === expected.host
    return actual.origin === expected.origin || actual.protocol === 'ws:'
  } catch {
    return false
  }
}
