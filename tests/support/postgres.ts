/**
 * A throw-away PostgreSQL cluster for tests and benches: Debian's server binaries, `initdb` into a temporary directory,
 * listening on 127.0.0.1 on a free port with its unix socket in that directory. A real server, started and stopped by
 * the caller; Debian's own clusters are never touched.
 *
 * PostgreSQL refuses to run as root: when this process is root (CI), the cluster's directory is given to the
 * `postgres` user and every server binary runs as that user (Node's spawn uid/gid); as anyone else it runs as them.
 * Readiness is the server's own "ready to accept connections" line, not a timer.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'

const START_MS = 30_000

/** The server binaries: PAYDESK_PG_BIN, else the newest of Debian's /usr/lib/postgresql/<n>/bin, else pg_config's. */
export function postgresBinDir(): string {
  const fromEnv = process.env['PAYDESK_PG_BIN']
  if (fromEnv) return fromEnv
  const root = '/usr/lib/postgresql'
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, 'bin', 'postgres')))
      .sort((a, b) => Number(b) - Number(a))
    if (versions[0]) return join(root, versions[0], 'bin')
  }
  const r = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' })
  if (r.status === 0 && existsSync(join(r.stdout.trim(), 'postgres'))) return r.stdout.trim()
  throw new Error('PostgreSQL server binaries not found: run scripts/setup.sh (installs postgresql-15)')
}

/** As root, the uid/gid of the `postgres` user the server must run as; otherwise null (run as ourselves). */
function serverUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null
  const id = (flag: string): number => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim())
  return { uid: id('-u'), gid: id('-g') }
}

/** A port nobody listens on right now (the kernel's choice); the server binds it a moment later. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (typeof address !== 'object' || address === null) throw new Error('no port')
  return address.port
}

export interface TestPostgres {
  /** `postgres://…` of the cluster's `postgres` database (superuser `paydesk`, trust auth on loopback only). */
  url: string
  port: number
  /** The server process (the postmaster). */
  proc: ChildProcess
  /** A new empty database; its URL. */
  createDatabase(name?: string): Promise<string>
  /** What the server wrote to its log (stderr) since it started, the last 1 MB. */
  log(): string
  /** Fast shutdown (SIGINT), then the directory is removed. */
  stop(): Promise<void>
}

export interface PostgresOptions {
  /**
   * Keep fsync on (a bench measuring what a deployment pays). Off by default: tests check guarantees, not durability
   * across a power cut, and a loaded CI disk would only make them slow.
   */
  durable?: boolean
  /** More `name=value` server settings (`-c`), after the defaults, e.g. a bench's `log_lock_waits=on`. */
  settings?: string[]
}

const running = new Set<ChildProcess>()
let exitHook = false

export async function startPostgres(options: PostgresOptions = {}): Promise<TestPostgres> {
  const bin = postgresBinDir()
  const user = serverUser()
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-pg-'))
  if (user) chownSync(dir, user.uid, user.gid)
  const data = join(dir, 'data')
  const asServer = user ? { uid: user.uid, gid: user.gid } : {}
  const init = spawnSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'paydesk', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
    { ...asServer, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } }
  )
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`initdb failed (${init.status}): ${(init.stderr || init.stdout).trim().slice(-2000)}`)
  }
  const settings = [
    'listen_addresses=127.0.0.1',
    `unix_socket_directories=${dir}`,
    'max_connections=200',
    'shared_buffers=64MB',
    ...(options.durable ? [] : ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off']),
    ...(options.settings ?? [])
  ]
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const proc = spawn(join(bin, 'postgres'), ['-D', data, '-p', String(port), ...settings.flatMap((s) => ['-c', s])], {
      ...asServer,
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_ALL: 'C' }
    })
    const log = serverLog(proc)
    const started = await ready(proc)
    if (started === true) return handle(proc, port, dir, log)
    // Another process took the port between our look and the server's bind: try another one.
    if (attempt < 3 && /could not bind|address already in use/i.test(started)) continue
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`PostgreSQL did not start: ${started.slice(-2000)}`)
  }
}

/** Keeps the last 1 MB of the server's log; reading it also keeps a full pipe from ever blocking the server. */
function serverLog(proc: ChildProcess): () => string {
  let text = ''
  proc.stderr?.on('data', (c: Buffer) => void (text = (text + c.toString('utf8')).slice(-1_000_000)))
  return () => text
}

/** Resolves true on the server's "ready to accept connections", or with its log when it exits or START_MS pass. */
function ready(proc: ChildProcess): Promise<true | string> {
  return new Promise((resolve) => {
    let log = ''
    const done = (v: true | string): void => {
      clearTimeout(timer)
      proc.stderr?.removeListener('data', onData)
      proc.removeListener('exit', onExit)
      resolve(v)
    }
    const onData = (c: Buffer): void => {
      log += c.toString('utf8')
      if (log.includes('database system is ready to accept connections')) done(true)
    }
    const onExit = (code: number | null): void => done(`exited with ${code}: ${log}`)
    const timer = setTimeout(() => {
      proc.kill('SIGKILL')
      done(`not ready within ${START_MS / 1000} s: ${log}`)
    }, START_MS)
    proc.stderr?.on('data', onData)
    proc.once('exit', onExit)
  })
}

function handle(proc: ChildProcess, port: number, dir: string, log: () => string): TestPostgres {
  running.add(proc)
  if (!exitHook) {
    exitHook = true
    // A test process that ends without stopping its cluster (a crash, a timeout) must not leave a server behind.
    process.once('exit', () => {
      for (const p of running) p.kill('SIGKILL')
    })
  }
  const url = `postgres://paydesk@127.0.0.1:${port}/postgres`
  let databases = 0
  let stopping: Promise<void> | undefined
  return {
    url,
    port,
    proc,
    log,
    createDatabase: async (name = `gate_${process.pid}_${++databases}`) => {
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a database name: ${name}`)
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      try {
        await client.query(`CREATE DATABASE ${name}`)
      } finally {
        await client.end()
      }
      return `postgres://paydesk@127.0.0.1:${port}/${name}`
    },
    stop: () =>
      (stopping ??= (async () => {
        if (proc.exitCode === null && proc.signalCode === null) {
          const exited = new Promise<void>((r) => proc.once('exit', () => r()))
          // SIGINT is PostgreSQL's fast shutdown: clients are disconnected, nothing waits for them.
          proc.kill('SIGINT')
          await exited
        }
        running.delete(proc)
        rmSync(dir, { recursive: true, force: true })
      })())
  }
}
