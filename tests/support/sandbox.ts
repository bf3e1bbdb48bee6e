import { randomBytes } from 'node:crypto'
import { createSandboxServer, type SandboxServer, type SandboxServerOptions } from '../../src/sandbox/server'

/** The server's address, credentials and close, at hand, with the Authorization header those credentials make. */
export interface TestSandbox extends Pick<SandboxServer, 'baseUrl' | 'tokenId' | 'clientSecret' | 'close'> {
  /** `Basic <base64(tokenId:clientSecret)>` */
  authorization: string
  server: SandboxServer
}

/**
 * Starts a local sandbox on a free 127.0.0.1 port for a test. Defaults suited to tests: in memory, no seed data,
 * 100x faster simulated delays (timeScale 0.01), fault injection available (`server.faults`) and fresh credentials.
 * It speaks the real approval protocol: an incoming payment is decided by the answer to its approval webhook (no
 * endpoint: it fails with PAYMENT_APPROVAL_WEBHOOK_ERROR). Any option can be overridden (e.g. `{ seed: true }`,
 * `{ dataFile }`).
 */
export async function startTestSandbox(opts: SandboxServerOptions = {}): Promise<TestSandbox> {
  const tokenId = opts.tokenId ?? `test-token-${randomBytes(4).toString('hex')}`
  const clientSecret = opts.clientSecret ?? randomBytes(16).toString('hex')
  const server = await createSandboxServer({
    memory: opts.dataFile === undefined,
    seed: false,
    timeScale: 0.01,
    faults: true,
    log: () => undefined,
    ...opts,
    tokenId,
    clientSecret,
    port: opts.port ?? 0
  })
  return {
    baseUrl: server.baseUrl,
    tokenId,
    clientSecret,
    authorization: `Basic ${Buffer.from(`${tokenId}:${clientSecret}`).toString('base64')}`,
    server,
    close: () => server.close()
  }
}
