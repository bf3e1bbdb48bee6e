/**
 * The receiver the gate bench's baselines share (bench/gate-bare.ts, bench/gate-pg-floor.ts), run as a child process
 * like the gate: reads a webhook, verifies X-Grid-Signature with the gate's own verifier (BENCH_PUBLIC_KEY, PEM) and
 * hands the body to the baseline's `store`, which answers. Prints `listening <port>` once ready; on SIGTERM stops taking
 * requests, closes the baseline's store and exits. One copy, so the baselines differ only in what they store.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { publicKeyFrom, signatureValid } from '../src/gate/domain/signature'

export function serveBaseline(
  /** A verified webhook's body; `answer` takes the HTTP status. An unverified one is answered 401 without a call. */
  store: (body: Buffer, answer: (status: number) => void) => void,
  close: () => Promise<void>
): void {
  const key = publicKeyFrom(process.env['BENCH_PUBLIC_KEY'] ?? '')
  const server = createServer((req, res) => {
    // HAProxy's health check (GET /healthz), as the gate answers it.
    if (req.method === 'GET') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const header = req.headers['x-grid-signature']
      const body = Buffer.concat(chunks)
      const answer = (status: number): void =>
        void res.writeHead(status, { 'content-type': 'application/json' }).end('{}')
      if (!signatureValid(key, body, typeof header === 'string' ? header : undefined)) return answer(401)
      store(body, answer)
    })
  })
  server.keepAliveTimeout = 30_000
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`)
  })
  process.once('SIGTERM', () => {
    server.close(() => void close().then(() => process.exit(0)))
    server.closeAllConnections()
  })
}
