import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { lockDataDir } from '../../../src/main/infra/data-lock'
import { tempDir } from '../helpers'

describe('lockDataDir', () => {
  it('lets one Paydesk use a data folder and refuses a second one with a clear sentence', async () => {
    const t = await tempDir('lock')
    const release = lockDataDir(t.dir)
    expect(() => lockDataDir(t.dir, process.pid + 1_000_000)).toThrow(
      /Another Paydesk \(process \d+\) is already using/
    )
    release()
    expect(existsSync(join(t.dir, 'paydesk.lock'))).toBe(false)
    lockDataDir(t.dir)()
    await t.cleanup()
  })

  it('takes over a lock left by a process that no longer runs', async () => {
    const t = await tempDir('lock')
    writeFileSync(join(t.dir, 'paydesk.lock'), '2147483646') // no such process
    const release = lockDataDir(t.dir)
    release()
    await t.cleanup()
  })
})
