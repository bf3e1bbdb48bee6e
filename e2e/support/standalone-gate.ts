import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { SANDBOX_CREDENTIALS } from './standalone-sandbox'

const root = resolve(import.meta.dirname, '../..')

/** A port nobody listens on right now (the gate takes a fixed port from its configuration). */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))
      )
    })
  })
}

/**
 * The approval gate a platform runs (`npm run gate`), started by a test for a standalone sandbox: it verifies with the
 * sandbox's published key, calls the sandbox with its credentials, and has one operator whose token the test pastes
 * into Paydesk. The sandbox's webhookEndpoint is pointed at it, as docs/gate.md says to.
 */
export async function startStandaloneGate(sandbox: {
  baseUrl: string
  api(method: string, path: string, body?: unknown): Promise<unknown>
}): Promise<{ url: string; token: string; stop(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-e2e-gate-'))
  const { publicKeyPem } = (await sandbox.api('GET', '/sandbox/webhook-public-key')) as { publicKeyPem: string }
  const port = await freePort()
  const env = {
    ...process.env,
    GATE_DATABASE: join(dir, 'gate.db'),
    GATE_HOST: '127.0.0.1',
    GATE_PORT: String(port),
    GATE_WEBHOOK_PUBLIC_KEY: publicKeyPem,
    GATE_SERVICE_BASE_URL: sandbox.baseUrl,
    GATE_SERVICE_TOKEN_ID: SANDBOX_CREDENTIALS.tokenId,
    GATE_SERVICE_CLIENT_SECRET: SANDBOX_CREDENTIALS.clientSecret,
    GATE_RECEIVER_INFO_KEY: randomBytes(32).toString('hex'),
    GATE_LOG_LEVEL: 'info'
  }
  const cli = ['--import', 'tsx', 'src/gate/cli.ts']
  const added = spawnSync(process.execPath, [...cli, 'operator', 'add', 'E2E Ops'], {
    cwd: root,
    env,
    encoding: 'utf8'
  })
  const token = added.stdout.trim().split('\n').at(-1) ?? ''
  if (added.status !== 0 || !token) throw new Error(`operator add failed:\n${added.stdout}${added.stderr}`)

  const child: ChildProcess = spawn(process.execPath, cli, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  await new Promise<void>((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gate did not start:\n${output}`)), 30_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('approval gate listening')) {
        clearTimeout(timer)
        resolveStart()
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.on('exit', (code) => reject(new Error(`the gate exited with ${code}:\n${output}`)))
  })
  const url = `http://127.0.0.1:${port}`
  await sandbox.api('PATCH', '/config', { webhookEndpoint: `${url}/webhooks` })
  return {
    url,
    token,
    stop: () => {
      if (child.exitCode === null) child.kill('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
