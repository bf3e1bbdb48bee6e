/**
 * The browser-mode Paydesk the ui bench drives: started as a child process on a throw-away data folder, asked over its
 * loopback bridge as the page asks, and watched (its event loop's longest block, its memory, its folder's size).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')

export interface App {
  origin: string
  token: string
  url: string
  pid: number
  startedAt: number
  urlAt: number
  eventLoopMax(since: number): number
  stop(): Promise<void>
}

export function startApp(dataDir: string, env: Record<string, string>): Promise<App> {
  const startedAt = performance.now()
  const child: ChildProcess = spawn(
    process.execPath,
    ['out/main/web.js', '--port', '0', '--data-dir', dataDir, '--quiet'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env, PAYDESK_BENCH_EVENT_LOOP: '1' } }
  )
  let output = ''
  const blocks: { at: number; ms: number }[] = []
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`browser mode did not start:\n${output}`)), 30 * 60_000)
    const onData = (chunk: Buffer) => {
      const text = chunk.toString()
      output += text
      for (const m of text.matchAll(/\[event-loop\] max ([\d.]+) ms/g))
        blocks.push({ at: performance.now(), ms: +m[1]! })
      const match = /Open this URL: (http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)/.exec(output)
      if (match?.[1] && timer.hasRef()) {
        clearTimeout(timer)
        timer.unref()
        const url = new URL(match[1])
        resolvePromise({
          url: match[1],
          origin: url.origin,
          token: new URLSearchParams(url.hash.slice(1)).get('token') ?? '',
          pid: child.pid!,
          startedAt,
          urlAt: performance.now(),
          eventLoopMax: (since) => Math.max(0, ...blocks.filter((b) => b.at >= since).map((b) => b.ms)),
          stop: async () => {
            if (child.exitCode !== null) return
            const exited = new Promise((r) => child.once('exit', r))
            child.kill('SIGTERM')
            await exited
          }
        })
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.on('exit', (code) => reject(new Error(`browser mode exited with ${code}:\n${output}`)))
  })
}

export async function invoke<T>(app: App, channel: string, input: unknown): Promise<T> {
  const response = await fetch(`${app.origin}/__paydesk/invoke/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-paydesk-token': app.token },
    body: JSON.stringify({ input })
  })
  const result = (await response.json()) as { ok: boolean; value?: T; error?: { message: string } }
  if (!result.ok) throw new Error(`${channel} failed: ${result.error?.message}`)
  return result.value as T
}

export interface Window {
  rows: { id: string }[]
  total: number
}
export const query = (app: App, search = '', limit = 60) =>
  invoke<Window>(app, 'transactions.query', {
    filter: search ? { search } : {},
    sort: { field: 'createdAt', direction: 'desc' },
    offset: 0,
    limit
  })

/** Polls the cached total until it reaches `want` or stops growing for `stallMs`; the time it was reached, or null. */
export async function waitForTotal(
  app: App,
  want: number,
  stallMs: number
): Promise<{ total: number; at: number | null }> {
  let total = -1
  let changedAt = performance.now()
  for (;;) {
    const now = (await query(app, '', 1).catch(() => ({ total: 0 }) as Window)).total
    if (now >= want) return { total: now, at: performance.now() }
    if (now !== total) [total, changedAt] = [now, performance.now()]
    if (performance.now() - changedAt > stallMs) return { total, at: null }
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** When sync has left the 'syncing' state (its text index rebuilt), or null after 30 minutes. */
export async function waitForLive(app: App): Promise<number | null> {
  const until = performance.now() + 30 * 60_000
  while (performance.now() < until) {
    const status = await invoke<{ state: string }>(app, 'sync.status', null).catch(() => ({ state: 'syncing' }))
    if (status.state !== 'syncing') return performance.now()
    await new Promise((r) => setTimeout(r, 500))
  }
  return null
}

export function folderBytes(dir: string, skip: (name: string) => boolean): number {
  let bytes = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skip(entry.name)) continue
    const full = join(dir, entry.name)
    bytes += entry.isDirectory() ? folderBytes(full, skip) : statSync(full).size
  }
  return bytes
}

export const rssMb = (pid: number) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Number(match[1]) / 1024 : null
}
