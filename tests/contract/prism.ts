import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { closedPort } from '../main/helpers'
import { PUBLISHED_OPENAPI_PATH } from './published-openapi'

const PRISM = join(__dirname, '../../node_modules/.bin/prism')

/**
 * `prism mock` serving the published OpenAPI on loopback only. Static mode answers the documented examples; dynamic
 * mode generates bodies from the schemas. Either way Prism validates every request and answers 422 to a bad one.
 */
export async function startPrismMock(
  mode: 'static' | 'dynamic'
): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const port = await closedPort()
  const args = [
    'mock',
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    ...(mode === 'dynamic' ? ['-d'] : []),
    PUBLISHED_OPENAPI_PATH
  ]
  const child: ChildProcess = spawn(PRISM, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString()
      if (log.includes('Prism is listening')) resolve()
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => reject(new Error(`prism exited (${code}) before listening:\n${log.slice(-2000)}`)))
  })
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      })
  }
}
