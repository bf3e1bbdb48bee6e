/**
 * A real HAProxy (Debian's package) in front of N backends for tests and benches: round robin, an HTTP health check on
 * each backend, its configuration and admin socket in a temporary directory, on a free port of 127.0.0.1.
 *
 * What a test waits for is what HAProxy itself reports: `ready` resolves when every backend has passed a health check
 * (the admin socket's `show stat`), and `down(name)` when HAProxy logs that it took a backend out of rotation.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { freePort } from './postgres'

const START_MS = 30_000

export interface Backend {
  name: string
  /** host:port */
  address: string
}

export interface HaproxyOptions {
  backends: Backend[]
  /** The health check's path (GET, 2xx/3xx is healthy). */
  healthPath: string
  /** Time between checks of a backend, ms (default 200); `fall` failed checks in a row take it out (default 2). */
  checkIntervalMs?: number
  fall?: number
}

export interface ServerStat {
  name: string
  /** UP, DOWN, "UP 1/2" (going down), MAINT, … as HAProxy says. */
  status: string
  /** The last check's result, e.g. L7OK, L4CON, L4TOUT. */
  check: string
}

export interface TestHaproxy {
  url: string
  proc: ChildProcess
  /** Each backend as HAProxy's admin socket reports it now. */
  servers(): Promise<ServerStat[]>
  /** Resolves when HAProxy reports the backend taken out of rotation (its own "is DOWN" log line). */
  down(name: string): Promise<void>
  /** HAProxy's log lines so far (state changes, warnings). */
  log(): string
  stop(): Promise<void>
}

/** One command on HAProxy's admin socket; its whole answer. */
function adminCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = connect(socket)
    let out = ''
    c.on('connect', () => c.end(`${command}\n`))
    c.on('data', (d: Buffer) => void (out += d.toString('utf8')))
    c.on('end', () => resolve(out))
    c.on('error', reject)
  })
}

function parseStat(csv: string, backend: string): ServerStat[] {
  const [header, ...rows] = csv.trim().split('\n')
  const cols = (header ?? '').replace(/^# /, '').split(',')
  const at = (name: string): number => cols.indexOf(name)
  return rows
    .map((r) => r.split(','))
    .filter((f) => f[at('pxname')] === backend && !['FRONTEND', 'BACKEND'].includes(f[at('svname')] ?? ''))
    .map((f) => ({
      name: f[at('svname')] ?? '',
      status: f[at('status')] ?? '',
      check: f[at('check_status')] ?? ''
    }))
}

export async function startHaproxy(o: HaproxyOptions): Promise<TestHaproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-haproxy-'))
  const socket = join(dir, 'admin.sock')
  const interval = o.checkIntervalMs ?? 200
  const port = await freePort()
  const config = [
    'global',
    `  stats socket ${socket} mode 600 level admin`,
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 30s',
    '  timeout server 30s',
    // A busy replica may answer its health check late; only a refused connection or 3 s of silence counts as failed.
    '  timeout check 3s',
    'frontend in',
    `  bind 127.0.0.1:${port}`,
    '  default_backend gates',
    'backend gates',
    '  balance roundrobin',
    `  option httpchk GET ${o.healthPath}`,
    // What a deployment of the gate does, so that a replica's crash costs nothing: a request whose connection is refused,
    // or closed without an answer, is retried on another backend (a webhook may be: its id is answered once, then the
    // same answer is repeated), and the failure takes that backend out at once (observe layer4, on-error mark-down)
    // rather than at the next failed health checks. With `retries 1` alone, what the dead replica held failed, and so did
    // requests redispatched to it before the checks caught up (7 to 19 with 16 connections in flight).
    '  retries 3',
    '  retry-on conn-failure empty-response',
    '  option redispatch 1',
    `  default-server check inter ${interval} fall ${o.fall ?? 2} rise 1 observe layer4 error-limit 1 on-error mark-down`,
    ...o.backends.map((b) => `  server ${b.name} ${b.address}`)
  ].join('\n')
  writeFileSync(join(dir, 'haproxy.cfg'), `${config}\n`)
  // -db: foreground, no daemon, so the child is HAProxy itself and its warnings (a server's state changes) come to our
  // stderr pipe; no traffic log is configured.
  const proc = spawn('haproxy', ['-db', '-f', join(dir, 'haproxy.cfg')], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let log = ''
  const watchers = new Set<() => void>()
  const onLog = (c: Buffer): void => {
    log += c.toString('utf8')
    for (const w of watchers) w()
  }
  proc.stdout?.on('data', onLog)
  proc.stderr?.on('data', onLog)
  const exited = new Promise<void>((r) => proc.once('exit', () => r()))
  let stopping: Promise<void> | undefined
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGTERM')
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    })())
  const servers = async (): Promise<ServerStat[]> => parseStat(await adminCommand(socket, 'show stat'), 'gates')

  // Ready once HAProxy answers on its socket and every backend has passed a check; HAProxy signals neither, so this
  // asks its socket every 50 ms (bounded) — each answer is HAProxy's own report, not a guess about time.
  const until = performance.now() + START_MS
  for (;;) {
    if (proc.exitCode !== null) {
      await stop()
      throw new Error(`haproxy exited with ${proc.exitCode}: ${log.slice(-2000)}`)
    }
    const stat = await servers().catch(() => [])
    if (stat.length === o.backends.length && stat.every((s) => s.status === 'UP' && s.check.startsWith('L7OK'))) break
    if (performance.now() > until) {
      await stop()
      throw new Error(`haproxy's backends were not all healthy within ${START_MS / 1000} s: ${JSON.stringify(stat)}`)
    }
    await sleep(50)
  }

  return {
    url: `http://127.0.0.1:${port}`,
    proc,
    servers,
    down: (name) =>
      new Promise((resolve) => {
        // Only a report after this call counts: an earlier flap (DOWN, then UP again) is not the event waited for.
        const from = log.length
        const seen = (): boolean => new RegExp(`Server gates/${name} is DOWN`).test(log.slice(from))
        if (seen()) return resolve()
        const w = (): void => {
          if (!seen()) return
          watchers.delete(w)
          resolve()
        }
        watchers.add(w)
      }),
    log: () => log,
    stop
  }
}
