/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies under test are untyped JSON, checked by assertions and the shared schemas */
/**
 * `npm run sandbox` as issue item 5 writes it: real child processes, real signals.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseArgs, UsageError } from '../../src/sandbox/cli'
import { waitFor } from './util'

const ROOT = resolve(__dirname, '../..')
const children = new Set<ChildProcess>()
afterAll(() => {
  for (const ch of children) if (ch.exitCode === null) ch.kill('SIGKILL')
})

interface Running {
  child: ChildProcess
  baseUrl: string
  out: () => string
  err: () => string
  exit: Promise<number | null>
}

/**
 * Resolves once "Local sandbox listening on <url>" is printed. `npm`: `npm run sandbox -- <args>` in its own process
 * group (a terminal's Ctrl-C signals the whole group); `tsx`: the command npm runs (`tsx src/sandbox/cli.ts`), whose
 * exit code is the sandbox's own.
 */
function runSandbox(args: string[], via: 'npm' | 'tsx' = 'tsx'): Promise<Running> {
  const [cmd, argv] =
    via === 'npm'
      ? ['npm', ['run', '--silent', 'sandbox', '--', ...args]]
      : [join(ROOT, 'node_modules', '.bin', 'tsx'), ['src/sandbox/cli.ts', ...args]]
  const child = spawn(cmd as string, argv as string[], {
    cwd: ROOT,
    env: { ...process.env, npm_config_update_notifier: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: via === 'npm'
  })
  children.add(child)
  let out = ''
  let err = ''
  child.stdout!.on('data', (d) => (out += String(d)))
  child.stderr!.on('data', (d) => (err += String(d)))
  // 'close': every process holding the output pipes (npm, tsx, node) has exited.
  const exit = new Promise<number | null>((res) => child.on('close', (code) => res(code)))
  return new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line; stdout: ${out}; stderr: ${err}`)), 20_000)
    child.stdout!.on('data', () => {
      const m = /^Local sandbox listening on (http:\/\/127\.0\.0\.1:\d+\/2025-10-13)$/m.exec(out)
      if (m) {
        clearTimeout(timer)
        resolveReady({ child, baseUrl: m[1] as string, out: () => out, err: () => err, exit })
      }
    })
    void exit.then((code) => {
      clearTimeout(timer)
      reject(new Error(`exited ${code} before ready; stdout: ${out}; stderr: ${err}`))
    })
  })
}

function signal(r: Running, sig: NodeJS.Signals, group = false): void {
  process.kill(group ? -(r.child.pid as number) : (r.child.pid as number), sig)
}

const auth = (id: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`
})

describe('parseArgs', () => {
  it('reads every option of issue item 5', () => {
    expect(
      parseArgs([
        '--port',
        '5000',
        '--data',
        '/tmp/x.json',
        '--token-id',
        'id',
        '--client-secret',
        'sec',
        '--time-scale',
        '0.01'
      ])
    ).toMatchObject({
      port: 5000,
      dataFile: '/tmp/x.json',
      tokenId: 'id',
      clientSecret: 'sec',
      timeScale: 0.01
    })
    expect(parseArgs(['--memory'])).toMatchObject({ memory: true, port: 4010 })
    expect(parseArgs(['--port=0', '--faults'])).toMatchObject({ port: 0, faults: true })
    expect(parseArgs([]).faults).toBeUndefined()
  })

  it.each([
    [['--port', 'abc']],
    [['--port', '70000']],
    [['--time-scale', '0']],
    [['--time-scale', '-1']],
    // The old approval window is gone: the approval webhook decides, as at the real service.
    [['--approval-window', '30']],
    [['--legacy-approval-window-not-real-protocol']],
    [['--data', 'a.json', '--memory']],
    [['--bogus']],
    [['--token-id', '']]
  ])('refuses %j', (args) => {
    expect(() => parseArgs(args)).toThrow(UsageError)
  })
})

describe('npm run sandbox', () => {
  it('prints the ready line, serves with the given credentials, and closes cleanly on SIGTERM', async () => {
    const r = await runSandbox([
      '--port',
      '0',
      '--memory',
      '--token-id',
      'cli-id',
      '--client-secret',
      'cli-secret',
      '--time-scale',
      '0.01'
    ])
    expect(r.out().match(/Local sandbox listening on/g)).toHaveLength(1)
    expect(r.out()).not.toContain('cli-secret')
    // The key an operator copies to verify X-Grid-Signature, as the service's dashboard shows it.
    expect(r.out()).toMatch(/-----BEGIN PUBLIC KEY-----[\s\S]+-----END PUBLIC KEY-----/)
    expect(r.out()).not.toContain('PRIVATE KEY')
    const ok = await fetch(`${r.baseUrl}/platform/internal-accounts`, { headers: auth('cli-id', 'cli-secret') })
    expect(ok.status).toBe(200)
    expect((await fetch(`${r.baseUrl}/customers`, { headers: auth('sandbox-token', 'sandbox-secret') })).status).toBe(
      401
    )
    signal(r, 'SIGTERM')
    expect(await r.exit).toBe(0)
    expect(r.out()).toContain('Local sandbox stopped')
  })

  it('SIGINT closes cleanly too; --data keeps state across runs, a payment waiting on its webhook included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'))
    try {
      const file = join(dir, 'state.json')
      const a = await runSandbox(['--port', '0', '--data', file, '--no-seed', '--time-scale', '0.5'])
      const h = { ...auth('sandbox-token', 'sandbox-secret'), 'content-type': 'application/json' }
      const cust: any = await (
        await fetch(`${a.baseUrl}/customers`, {
          method: 'POST',
          headers: h,
          body: JSON.stringify({ customerType: 'INDIVIDUAL', platformCustomerId: 'cli-kept' })
        })
      ).json()
      const tx: any = await (
        await fetch(`${a.baseUrl}/sandbox/uma/receive`, {
          method: 'POST',
          headers: h,
          body: JSON.stringify({
            senderUmaAddress: '$success.usd@sandbox.uma.money',
            customerId: cust.id,
            receivingCurrencyCode: 'USD',
            receivingCurrencyAmount: 100
          })
        })
      ).json()
      signal(a, 'SIGINT')
      expect(await a.exit).toBe(0)
      expect(readFileSync(file, 'utf8')).toContain('cli-kept')

      const b = await runSandbox(['--port', '0', '--data', file])
      const got: any = await (await fetch(`${b.baseUrl}/customers/${cust.id}`, { headers: h })).json()
      expect(got.platformCustomerId).toBe('cli-kept')
      // No webhook endpoint: its approval webhook fails, before or after the restart (a delivery cut by the restart is
      // given up by the job it left, due within 5 s at the first run's scale). Waited for, never slept past.
      const t: any = await waitFor(
        async () => (await fetch(`${b.baseUrl}/transactions/${tx.id}`, { headers: h })).json(),
        (answer: any) => answer.status !== 'PENDING',
        15_000
      )
      expect(t).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR' })
      signal(b, 'SIGTERM')
      expect(await b.exit).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('through npm: defaults (port 4010 unless taken, seed data, fault injection off); Ctrl-C of the group stops it cleanly', async () => {
    let r: Running | undefined
    try {
      r = await runSandbox([], 'npm')
    } catch (err) {
      // Port 4010 may be in use on this machine; the message must say so.
      expect(String(err)).toMatch(/4010 is already in use/)
      return
    }
    expect(r.baseUrl).toBe('http://127.0.0.1:4010/2025-10-13')
    const h = auth('sandbox-token', 'sandbox-secret')
    expect(((await (await fetch(`${r.baseUrl}/customers`, { headers: h })).json()) as any).totalCount).toBeGreaterThan(
      0
    )
    expect((await fetch(`${r.baseUrl}/__faults`, { headers: h })).status).toBe(404)
    signal(r, 'SIGINT', true)
    await r.exit
    expect(r.out()).toContain('Local sandbox stopped')
    await expect(fetch(`${r.baseUrl}/customers`, { headers: h })).rejects.toThrow()
  })

  it('exits 2 with usage on bad arguments', async () => {
    await expect(runSandbox(['--port', 'nope'])).rejects.toThrow(/exited 2[\s\S]*Usage/)
  })
})
