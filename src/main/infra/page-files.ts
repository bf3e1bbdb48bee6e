/**
 * What the built renderer (out/renderer) is, for the two hosts that serve it: the Electron app's `app://` scheme
 * (electron/app-files.ts) and browser mode's loopback server (web/server.ts). One policy and one table, so the page is
 * held to the same rules whichever host serves it.
 */

/**
 * The page's Content-Security-Policy, sent as a header: the same directives as the <meta> in src/renderer/index.html
 * (tests/main/electron/built-main.test.ts holds them equal), plus what only a header can say (frame-ancestors).
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join('; ')

/** The types the built renderer is made of; a module script must come with a JavaScript type or Chromium refuses it. */
export const PAGE_FILE_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm'
}
