/**
 * Which URLs may do what. Pure functions so they are unit-tested without Electron.
 */

/**
 * The only places a link may open in the OS browser: the service's documentation and the project's own pages. A
 * renderer compromised through some payload must not be able to launch arbitrary URLs on the operator's machine.
 */
export const EXTERNAL_LINK_HOSTS: readonly string[] = ['grid.lightspark.com', 'lightspark.com', 'uma.me']

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
 * The page the window loads. `ELECTRON_RENDERER_URL` (electron-vite's dev server) is honoured only in development: in
 * an installed app, an environment variable must not swap the operator's console for another page.
 */
export function appPageUrlFor(options: { isPackaged: boolean; devServerUrl: string | undefined; builtPage: string }) {
  if (!options.isPackaged && options.devServerUrl) return options.devServerUrl
  return `file://${options.builtPage}`
}

/** The renderer's own page: the built index.html (file://) or, in development, the electron-vite dev server. */
export function isAppPageUrl(url: string, appPageUrl: string): boolean {
  try {
    const actual = new URL(url)
    const expected = new URL(appPageUrl)
    if (expected.protocol === 'file:') return actual.protocol === 'file:' && actual.pathname === expected.pathname
    return actual.origin === expected.origin
  } catch {
    return false
  }
}

/**
 * Requests the renderer may make on its own: its bundled files and devtools. Everything else (any http(s) origin)
 * is cancelled, because every API call goes through main.
 */
export function isAllowedRendererRequest(url: string, appPageUrl: string): boolean {
  if (url.startsWith('devtools://') || url.startsWith('data:')) return true
  try {
    const actual = new URL(url)
    const expected = new URL(appPageUrl)
    if (expected.protocol === 'file:') {
      const root = expected.pathname.replace(/[^/]*$/, '')
      return actual.protocol === 'file:' && actual.pathname.startsWith(root)
    }
    return actual.origin === expected.origin || actual.protocol === 'ws:'
  } catch {
    return false
  }
}
