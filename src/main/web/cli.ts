import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { lockDataDir } from '../infra/data-lock'
import { createLogger, logCrashes } from '../infra/log'
import { startEventLoopProbe } from '../infra/event-loop-probe'
import type { Backend, BackendHost } from '../app/backend'
import { browserModeDataDir, createBrowserHost } from './host'
import { startBrowserModeServer } from './server'

/** The folder holding package.json: this file runs from src/main/web under tsx and from out/main once built. */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir
    if (dirname(dir) === dir) throw new Error(`Paydesk: no package.json above ${from}`)
  }
}

/**
 * `npm run web`: the same backend as the desktop app, under Node, serving the built renderer on 127.0.0.1.
 */
async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'data-dir': { type: 'string' },
      'renderer-dir': { type: 'string' },
      quiet: { type: 'boolean', default: false }
    }
  })
  const root = projectRoot(import.meta.dirname)
  const rendererDir = resolve(values['renderer-dir'] ?? join(root, 'out/renderer'))
  if (!existsSync(join(rendererDir, 'index.html'))) {
    console.error(`Paydesk: no built renderer in ${rendererDir}. Run "npm run build" first.`)
    process.exit(1)
  }
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`Paydesk: --port must be a number from 0 to 65535, not "${values.port}".`)
    process.exit(2)
  }
  const dataDir = resolve(values['data-dir'] ?? browserModeDataDir())
  const log = createLogger(join(dataDir, 'logs'), values.quiet ? undefined : (line) => process.stderr.write(line))
  logCrashes(log)
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }

  const releaseDataDir = lockDataDir(dataDir)
  const { host, subscribe: subscribeHost } = createBrowserHost({ appVersion: version, dataDir, log })
  // The page is served at once and loads while the backend starts (loaded on demand, so its modules load after the
  // URL is out): on a small machine each takes about as long, and the operator then waits for one, not both in turn.
  // The page's calls wait for the backend; a backend that cannot start still ends the process below.
  const backend = startBackend(host)
  const server = await startBrowserModeServer({
    backend,
    rendererDir,
    port,
    log,
    subscribe: (sink) => {
      const offHost = subscribeHost(sink)
      let offBackend: (() => void) | undefined
      let off = false
      void backend.then(
        (b) => {
          if (!off) offBackend = b.subscribe(sink)
        },
        () => undefined
      )
      return () => {
        off = true
        offBackend?.()
        offHost()
      }
    }
  })
  console.log(`Paydesk (browser mode) is running. Open this URL: ${server.url}`)
  await backend
  startEventLoopProbe(process.env, (line) => process.stdout.write(line))

  let closing = false
  const shutdown = async () => {
    if (closing) return
    closing = true
    await server.close()
    await (await backend).close()
    releaseDataDir()
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown())
  process.on('SIGTERM', () => void shutdown())
}

/**
 * Evaluating the backend's modules holds the event loop for about half a second of CPU, most of it building the
 * contract's zod schemas. It is done in steps with a short pause of the loop between them, so the page's files (served
 * from memory) go out between two steps instead of after all of them. The pause is a few milliseconds, not one turn:
 * a request needs several turns (accept, read, answer), and one turn let it through only two or three steps later.
 */
async function startBackend(host: BackendHost): Promise<Backend> {
  const pause = () => new Promise((resolve) => setTimeout(resolve, 5))
  const steps = [() => import('../../shared/api'), () => import('../../shared/ipc/contract')]
  for (const step of steps) {
    await pause()
    await step()
  }
  await pause()
  const { createBackend } = await import('../app/backend')
  return createBackend(host)
}

main().catch((error: unknown) => {
  console.error(`Paydesk could not start: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
