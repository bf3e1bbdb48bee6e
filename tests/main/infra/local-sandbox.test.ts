import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { getPriority } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SANDBOX_NICENESS, startLocalSandbox, type LocalSandbox } from '../../../src/main/infra/local-sandbox'
import { tempDir } from '../helpers'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 25))
  }
}

async function start(
  label: string,
  messages: string[] = [],
  previousBaseUrl?: string,
  lowPriority?: boolean
): Promise<LocalSandbox> {
  const { dir, cleanup } = await tempDir(label)
  const sb = await startLocalSandbox({
    dataDir: dir,
    tokenId: 'local-token',
    clientSecret: 'local-secret-value',
    log: (m) => messages.push(m),
    ...(previousBaseUrl !== undefined && { previousBaseUrl }),
    ...(lowPriority !== undefined && { lowPriority })
  })
  cleanups.push(cleanup, () => sb.close())
  return sb
}

const auth = { authorization: `Basic ${Buffer.from('local-token:local-secret-value').toString('base64')}` }

describe('the embedded Local sandbox', () => {
  it('runs in a process of its own and answers on its loopback address', async () => {
    const sb = await start('local-own-process')
    const ready = await sb.ready
    expect(ready.pid).toBe(sb.pid)
    expect(ready.pid).not.toBe(process.pid)
    expect(alive(ready.pid)).toBe(true)
    expect(new URL(sb.baseUrl).hostname).toBe('127.0.0.1')
    const res = await fetch(`${sb.baseUrl}/customers?limit=1`, { headers: auth })
    expect(res.status).toBe(200)
  }, 60_000)

  it('keeps the address it had last time, so the profile does not change from run to run', async () => {
    const first = await start('local-port-first')
    await first.ready
    await first.close()
    const again = await start('local-port-again', [], first.baseUrl)
    expect(again.baseUrl).toBe(first.baseUrl)
    await again.ready
    expect((await fetch(`${again.baseUrl}/customers?limit=1`, { headers: auth })).status).toBe(200)
  }, 60_000)

  it('takes another port when its last one is in use by another program', async () => {
    const other = createServer()
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => new Promise<void>((resolve) => other.close(() => resolve())))
    const taken = (other.address() as AddressInfo).port
    const sb = await start('local-port-taken', [], `http://127.0.0.1:${taken}/2025-10-13`)
    expect(new URL(sb.baseUrl).port).not.toBe(String(taken))
    await sb.ready
    expect((await fetch(`${sb.baseUrl}/customers?limit=1`, { headers: auth })).status).toBe(200)
  }, 60_000)

  it('with a big state to load, runs at a lower CPU priority than the app, which keeps its own', async () => {
    const sb = await start('local-priority', [], undefined, true)
    const { pid } = await sb.ready
    expect(getPriority(pid)).toBe(Math.max(SANDBOX_NICENESS, getPriority()))
    expect(getPriority(pid)).toBeGreaterThan(0)
  }, 60_000)

  it('with a small state, runs at the app’s priority, so a busy machine does not hold its start back', async () => {
    const sb = await start('local-priority-small')
    const { pid } = await sb.ready
    expect(getPriority(pid)).toBe(getPriority())
  }, 60_000)

  it('close() saves and leaves no process behind', async () => {
    const sb = await start('local-close')
    const { pid } = await sb.ready
    await sb.close()
    expect(alive(pid)).toBe(false)
  }, 60_000)

  it('reports a crash of its process clearly', async () => {
    const messages: string[] = []
    const sb = await start('local-crash', messages)
    const { pid } = await sb.ready
    const told: string[] = []
    sb.onUnexpectedExit((m) => told.push(m))
    process.kill(pid, 'SIGKILL')
    await until(() => told.length > 0)
    expect(told[0]).toBe(
      'its process stopped unexpectedly (signal SIGKILL); use Restart in the top bar to start it again'
    )
    expect(messages.join('\n')).toContain('Local sandbox: its process stopped unexpectedly (signal SIGKILL)')
    await expect(fetch(`${sb.baseUrl}/customers`, { headers: auth })).rejects.toThrow()
  }, 60_000)

  it('dies with its parent: no orphan when the backend process is killed', async () => {
    const { dir, cleanup } = await tempDir('local-orphan')
    cleanups.push(cleanup)
    const script = path.join(dir, 'parent.mts')
    const target = path.resolve('src/main/infra/local-sandbox.ts')
    writeFileSync(
      script,
      `import { startLocalSandbox } from ${JSON.stringify(target)}
const sb = await startLocalSandbox({ dataDir: ${JSON.stringify(dir)}, tokenId: 't', clientSecret: 's', log: () => {} })
const r = await sb.ready
process.stdout.write(String(r.pid) + '\\n')
setInterval(() => {}, 1000)
`
    )
    const parent = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    parent.stdout.on('data', (d: Buffer) => (out += d.toString()))
    await until(() => /\d+\n/.test(out), 45_000)
    const childPid = Number(out.trim())
    expect(alive(childPid)).toBe(true)
    parent.kill('SIGKILL')
    await until(() => !alive(childPid))
  }, 60_000)
})
