/**
 * The baseline of `npm run bench -- gate`, run as a child process like the gate: a bare `node:http` receiver that only
 * verifies X-Grid-Signature (with the gate's own verifier) and answers 200 or 401. Nothing parsed, stored or decided,
 * so the gate's figure divided by this one is what deciding and storing cost. Prints `listening <port>` once ready.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { publicKeyFrom, signatureValid } from '../src/gate/domain/signature'

const key = publicKeyFrom(process.env['BENCH_PUBLIC_KEY'] ?? '')

const server = createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    const header = req.headers['x-grid-signature']
    const ok = signatureValid(key, Buffer.concat(chunks), typeof header === 'string' ? header : undefined)
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' }).end('{}')
  })
})
server.keepAliveTimeout = 30_000
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`)
})
process.once('SIGTERM', () => {
  server.close(() => process.exit(0))
  server.closeAllConnections()
})
