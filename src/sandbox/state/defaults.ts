/**
 * The sandbox's address and defaults, apart from its server: Paydesk's main process needs these to start the Local
 * sandbox in a process of its own, and importing them from server.ts loaded the whole sandbox (its engine, routes and
 * schemas, about 130 KB of code) into main before the page could be served.
 */
const API_VERSION = '2025-10-13'
export const BASE_PATH = `/${API_VERSION}`

/** Defaults of the standalone sandbox (also in src/sandbox/README.md). */
export const SANDBOX_DEFAULTS = {
  port: 4010,
  tokenId: 'sandbox-token',
  clientSecret: 'sandbox-secret',
  timeScale: 1
} as const
