import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createLogger, rateLimited } from '../../../src/main/infra/log'
import { lockDataDir } from '../../../src/main/infra/data-lock'

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-log-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('the log', () => {
  it('is readable by its owner only, in a folder only its owner can enter', () => {
    const dir = join(tempDir(), 'logs')
    createLogger(dir)('Paydesk started')
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    expect(statSync(join(dir, 'paydesk.log')).mode & 0o777).toBe(0o600)
  })

  it('stops growing: a flood of refused requests keeps it under twice the cap, newest lines kept', () => {
    const dir = tempDir()
    const cap = 64 * 1024
    const log = createLogger(dir, undefined, cap)
    for (let i = 0; i < 5000; i++) log(`browser mode refused GET page: wrong host (request ${i})`)
    const files = readdirSync(dir).sort()
    expect(files).toEqual(['paydesk.1.log', 'paydesk.log'])
    const total = files.reduce((sum, f) => sum + statSync(join(dir, f)).size, 0)
    expect(total).toBeLessThanOrEqual(2 * cap)
    expect(readFileSync(join(dir, 'paydesk.log'), 'utf8')).toContain('(request 4999)')
    expect(statSync(join(dir, 'paydesk.1.log')).mode & 0o777).toBe(0o600)
  })

  it('writes a crash with its stack before the process ends', () => {
    const dir = tempDir()
    const script = `
      import { createLogger, logCrashes } from ${JSON.stringify(resolve(import.meta.dirname, '../../../src/main/infra/log.ts'))}
      logCrashes(createLogger(${JSON.stringify(dir)}))
      function approveIncomingPayment() { throw new Error('boom in the approval loop') }
      setTimeout(approveIncomingPayment, 0)
    `
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000
    })
    expect(run.status).toBe(1)
    const text = readFileSync(join(dir, 'paydesk.log'), 'utf8')
    expect(text).toContain('crash: Error: boom in the approval loop')
    expect(text).toMatch(/at (Timeout\.)?approveIncomingPayment/)
  })
})

describe('a rate-limited line', () => {
  it('writes the first few of each interval, then one line with how many were left out', () => {
    const lines: string[] = []
    let now = Date.parse('2025-05-01T10:00:00.000Z')
    const refusals = rateLimited((m) => lines.push(m), 'refused requests', {
      burst: 3,
      intervalMs: 60_000,
      now: () => now
    })
    for (let i = 0; i < 1_000; i++) refusals(`refused ${i}`)
    expect(lines).toEqual(['refused 0', 'refused 1', 'refused 2'])
    now += 60_000
    refusals('refused 1000')
    expect(lines.slice(3)).toEqual([
      '997 more refused requests since 2025-05-01T10:00:00.000Z were not logged one by one',
      'refused 1000'
    ])
    for (let i = 0; i < 5; i++) refusals('again')
    refusals.flush()
    expect(lines.slice(5)).toEqual([
      'again',
      'again',
      '3 more refused requests since 2025-05-01T10:01:00.000Z were not logged one by one'
    ])
  })
})

describe('the data folder', () => {
  it('is made, or tightened if an older version made it, so only its owner can enter', async () => {
    const dir = join(tempDir(), 'Paydesk')
    const { mkdirSync } = await import('node:fs')
    mkdirSync(dir, { mode: 0o755 })
    const release = lockDataDir(dir)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    expect(statSync(join(dir, 'paydesk.lock')).mode & 0o777).toBe(0o600)
    release()
  })
})
