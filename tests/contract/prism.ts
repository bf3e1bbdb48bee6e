import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { closedPort } from '../main/helpers'
import { PUBLISHED_OPENAPI_PATH } from './published-openapi'

const PRISM = fileURLToPath(new URL('../../node_modules/.bin/prism', import.meta.url))

/** Prism takes seconds to load the 14,000-line document, far more on a busy machine; past this it is killed. */
const BOOT_TIMEOUT_MS = 150_000

export type Prism = { baseUrl: string; close: () => Promise<void>; output: () => string }

/**
 * `prism mock` serving the published OpenAPI on loopback only. Static mode answers the documented examples; dynamic
 * mode generates bodies from the schemas. Either way Prism validates every request and answers 422 to a bad one.
 */
export function startPrismMock(mode: 'static' | 'dynamic'): Promise<Prism> {
  return startPrism((port) => ['mock', '-h', '127.0.0.1', '-p', String(port), ...(mode === 'dynamic' ? ['-d'] : [])])
}

/**
 * `prism proxy` on loopback in front of `upstream` (a loopback URL): every request and response is validated against
 * the published OpenAPI and passed on unchanged; `--errors` answers a request that breaks the document with an error
 * instead of forwarding it. Response violations are reported in the `sl-violations` header.
 */
export function startPrismProxy(upstream: string): Promise<Prism> {
  return startPrism((port) => ['proxy', '-h', '127.0.0.1', '-p', String(port), '--errors'], upstream)
}

async function startPrism(argsFor: (port: number) => string[], upstream?: string): Promise<Prism> {
  const port = await closedPort()
  const args = [...argsFor(port), PUBLISHED_OPENAPI_PATH, ...(upstream ? [upstream] : [])]
  const child: ChildProcess = spawn(PRISM, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  const close = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
  let log = ''
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`prism did not listen within ${BOOT_TIMEOUT_MS / 1000} s:\n${log.slice(-2000)}`)),
        BOOT_TIMEOUT_MS
      )
      const onData = (chunk: Buffer) => {
        log += chunk.toString()
        if (log.includes('Prism is listening')) {
          clearTimeout(timer)
          child.stdout?.off('data', onData)
          child.stderr?.off('data', onData)
          resolve()
        }
      }
      child.stdout?.on('data', onData)
      child.stderr?.on('data', onData)
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`prism exited (${code}) before listening:\n${log.slice(-2000)}`))
      })
    })
  } catch (error) {
    await close()
    throw error
  }
  // Keep draining its output (its last lines kept, to explain a failure) so a chatty Prism never blocks on a full pipe.
  let tail = ''
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-8_000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  return { baseUrl: `http://127.0.0.1:${port}`, close, output: () => tail }
}
