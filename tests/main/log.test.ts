import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createLogger } from '../../src/main/log'
import { lockDataDir } from '../../src/main/data-lock'

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
      import { createLogger, logCrashes } from ${JSON.stringify(resolve(import.meta.dirname, '../../src/main/log.ts'))}
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
