/**
 * The processes of `npm run bench -- gate`: the gate itself (the build's `out/main/gate.js` under plain node, as the
 * Dockerfile and the systemd unit run it, configured through its GATE_* variables exactly as an operator does) and the
 * bare receiver, each a child process so their figures and RSS are their own; a stub of the Payments API that notes
 * when each approve arrives (the operator's side, Paydesk main's follower, is bench/gate-paydesk.ts). Everything
 * listens on 127.0.0.1 and every wait is bounded.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { hashToken, newToken } from '../src/gate/domain/operators'
import { SqliteGateStore } from '../src/gate/store/sqlite-store'

const ROOT = resolve(import.meta.dirname, '..')
const READY_MS = 30_000

interface Child {
  proc: ChildProcess
  url: string
  stop(): Promise<void>
}

function tsxChild(file: string, env: NodeJS.ProcessEnv, stdout: 'pipe' | number): ChildProcess {
  return nodeChild(['--import', 'tsx', join(ROOT, file)], env, stdout)
}

function nodeChild(args: string[], env: NodeJS.ProcessEnv, stdout: 'pipe' | number): ChildProcess {
  return spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout, 'pipe']
  })
}

export const BUILT_GATE = join(ROOT, 'out/main/gate.js')
/** The V8 flags production gives the gate (src/gate/deploy: the Dockerfile's CMD, the unit's ExecStart). */
export const GATE_NODE_FLAGS = ['--max-semi-space-size=2']
/** More flags for the gate's node, space-separated, to profile it: BENCH_GATE_NODE_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/p'. */
export const EXTRA_GATE_FLAGS = (process.env['BENCH_GATE_NODE_FLAGS'] ?? '').split(/\s+/).filter((f) => f !== '')

/** Builds what production runs (`npm run build` → out/main/gate.js), so the bench measures this checkout's gate. */
export function buildGate(): void {
  const build = spawnSync('npx', ['electron-vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' })
  if (build.status !== 0) throw new Error('the build (electron-vite) failed')
}

async function stopChild(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return
  const exited = new Promise<void>((r) => proc.once('exit', () => r()))
  proc.kill('SIGTERM')
  const killer = setTimeout(() => proc.kill('SIGKILL'), 15_000)
  await exited
  clearTimeout(killer)
}

/** Resolves with the first value `poll` finds, or throws when the child exits or READY_MS pass. */
async function ready<T>(proc: ChildProcess, what: string, poll: () => T | undefined): Promise<T> {
  let stderr = ''
  proc.stderr?.on('data', (c: Buffer) => void (stderr = (stderr + c.toString('utf8')).slice(-4000)))
  const until = performance.now() + READY_MS
  while (performance.now() < until) {
    const found = poll()
    if (found !== undefined) return found
    if (proc.exitCode !== null) throw new Error(`${what} exited with ${proc.exitCode}: ${stderr.trim()}`)
    await sleep(50)
  }
  proc.kill('SIGKILL')
  throw new Error(`${what} did not start within ${READY_MS / 1000} s: ${stderr.trim()}`)
}

export async function startBare(publicKeyPem: string): Promise<Child> {
  const proc = tsxChild('bench/gate-bare.ts', { BENCH_PUBLIC_KEY: publicKeyPem }, 'pipe')
  let out = ''
  proc.stdout?.on('data', (c: Buffer) => void (out += c.toString('utf8')))
  const port = await ready(proc, 'the bare receiver', () => /listening (\d+)/.exec(out)?.[1])
  return { proc, url: `http://127.0.0.1:${port}`, stop: () => stopChild(proc) }
}

/** The PostgreSQL floor (bench/gate-pg-floor.ts): the bare receiver plus one committed INSERT per webhook at `dbUrl`. */
export async function startPgFloor(publicKeyPem: string, dbUrl: string): Promise<Child> {
  const proc = tsxChild('bench/gate-pg-floor.ts', { BENCH_PUBLIC_KEY: publicKeyPem, BENCH_FLOOR_PG_URL: dbUrl }, 'pipe')
  let out = ''
  proc.stdout?.on('data', (c: Buffer) => void (out += c.toString('utf8')))
  const port = await ready(proc, 'the PostgreSQL floor', () => /listening (\d+)/.exec(out)?.[1])
  return { proc, url: `http://127.0.0.1:${port}`, stop: () => stopChild(proc) }
}

export interface GateChild extends Child {
  token: string
}

/**
 * A gate on a fresh database in `dir`, with one operator (the bench's token). Its log (pino, level info, as deployed)
 * goes to a file, read only to learn the port it listens on.
 */
export async function startGate(dir: string, publicKeyPem: string, serviceUrl: string): Promise<GateChild> {
  const database = join(dir, 'gate.db')
  const token = newToken()
  const store = new SqliteGateStore({ file: database, now: Date.now })
  await store.addOperator('Bench', hashToken(token))
  await store.close()
  const config = join(dir, 'gate.config.json')
  writeFileSync(config, '{}\n')
  const logFile = join(dir, 'gate.log')
  const fd = openSync(logFile, 'w')
  const proc = nodeChild(
    [...GATE_NODE_FLAGS, ...EXTRA_GATE_FLAGS, BUILT_GATE],
    {
      GATE_CONFIG: config,
      GATE_HOST: '127.0.0.1',
      GATE_PORT: '0',
      GATE_DATABASE: database,
      GATE_WEBHOOK_PUBLIC_KEY: publicKeyPem,
      GATE_SERVICE_BASE_URL: serviceUrl,
      GATE_SERVICE_TOKEN_ID: 'bench',
      GATE_SERVICE_CLIENT_SECRET: 'bench',
      GATE_RECEIVER_INFO_KEY: randomBytes(32).toString('hex'),
      GATE_LOG_LEVEL: 'info'
    },
    fd
  )
  closeSync(fd)
  const url = await ready(proc, 'the gate', () => {
    const line = readFileSync(logFile, 'utf8')
      .split('\n')
      .find((l) => l.includes('approval gate listening'))
    return line ? (JSON.parse(line) as { url: string }).url : undefined
  })
  return { proc, url, token, stop: () => stopChild(proc) }
}

/** CPU time (user + system) the child has used so far, in ms, from /proc (Linux; clock ticks of 10 ms). */
export function cpuMsOf(pid: number): number {
  try {
    // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return NaN
  }
}

/** The child's resident set and its peak, from /proc (Linux), in MB (10^6 bytes, the unit). */
export function rssOf(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN)
    return { rss: (kb('VmRSS') * 1024) / 1e6, peak: (kb('VmHWM') * 1024) / 1e6 }
  } catch {
    return null
  }
}

interface StubService {
  url: string
  /** Resolves with the time (performance.now()) the approve of `transactionId` arrived. */
  approveArrived(transactionId: string): Promise<number>
  close(): Promise<void>
}

/** The Payments API as the gate calls it after a 202: approve and reject answer 200 at once. */
export async function startStubService(): Promise<StubService> {
  const arrived = new Map<string, number>()
  const waiting = new Map<string, (at: number) => void>()
  const server: Server = createServer((req, res) => {
    const at = performance.now()
    const m = /^\/transactions\/([^/]+)\/(approve|reject)$/.exec(req.url ?? '')
    req.resume()
    req.on('end', () => {
      if (!m || req.method !== 'POST') return void res.writeHead(404).end()
      const id = decodeURIComponent(m[1] as string)
      arrived.set(id, at)
      waiting.get(id)?.(at)
      waiting.delete(id)
      const status = m[2] === 'approve' ? 'PROCESSING' : 'REJECTED'
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, status }))
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    approveArrived: (id) => {
      const at = arrived.get(id)
      return at !== undefined ? Promise.resolve(at) : new Promise((r) => waiting.set(id, r))
    },
    close: () =>
      new Promise((r) => {
        server.close(() => r())
        server.closeAllConnections()
      })
  }
}
