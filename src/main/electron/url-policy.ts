/**
 * Which URLs may do what. Pure functions so they are unit-tested without Electron.
 */

/** Only plain web links leave the app, and only through the OS browser. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    const parsed = new URL(url)
    return (
      (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.username === '' && parsed.password === ''
    )
  } catch {
    return false
  }
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
