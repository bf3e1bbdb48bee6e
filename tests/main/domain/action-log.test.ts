import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ActionLog } from '../../../src/main/domain/action-log'
import type { Damage } from '../../../src/main/infra/damage'
import type { ActionStarted } from '../../../src/shared/action-log'
import { tempDir } from '../helpers'

let dir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir, cleanup } = await tempDir('action-log')))
afterEach(() => cleanup())
const key = randomBytes(32)

const started = (id: string, at: string, extra: Partial<ActionStarted> = {}): ActionStarted => ({
  type: 'started',
  id,
  at,
  kind: 'account',
  what: `Edited Priya Raman · US bank …3210 (${id})`,
  ids: ['ExternalAccount:1'],
  ...extra
})

describe('the log of manual actions', () => {
  it('keeps every entry across a reopen, newest first, with its outcome, reason and the ids the answer named', async () => {
    const file = path.join(dir, 'actions.sealed')
    const log = await ActionLog.open(file, key)
    await log.append(started('a', '2026-03-01T10:00:00.000Z', { reason: 'Bank letter of 28 Feb' }))
    await log.append({ type: 'settled', id: 'a', at: '2026-03-01T10:00:01.000Z', outcome: 'done', ids: ['New:1'] })
    await log.append(started('b', '2026-03-01T11:00:00.000Z', { kind: 'reject' }))
    await log.append({
      type: 'settled',
      id: 'b',
      at: '2026-03-01T11:00:01.000Z',
      outcome: 'refused',
      message: 'Too late',
      code: 'CONFLICT'
    })
    await log.append(started('c', '2026-03-01T12:00:00.000Z'))

    const again = await ActionLog.open(file, key)
    expect(again.entries()).toEqual(log.entries())
    const [c, b, a] = again.entries()
    expect(c).toMatchObject({ id: 'c', outcome: 'unknown', settledAt: null })
    expect(b).toMatchObject({ id: 'b', kind: 'reject', outcome: 'refused', message: 'Too late', code: 'CONFLICT' })
    expect(a).toMatchObject({
      id: 'a',
      reason: 'Bank letter of 28 Feb',
      outcome: 'done',
      ids: ['ExternalAccount:1', 'New:1']
    })
    // Sealed: nothing the operator typed is readable on disk.
    expect((await fs.readFile(file)).includes('Bank letter')).toBe(false)
  })

  it('refuses a record that is not one, writing nothing', async () => {
    const file = path.join(dir, 'actions.sealed')
    const log = await ActionLog.open(file, key)
    await expect(log.append({ ...started('x', 'yesterday') })).rejects.toThrow()
    await expect(fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('keeps what opens of a torn or altered file, sets the file aside and says so', async () => {
    const file = path.join(dir, 'actions.sealed')
    const log = await ActionLog.open(file, key)
    await log.append(started('a', '2026-03-01T10:00:00.000Z'))
    await log.append(started('b', '2026-03-01T11:00:00.000Z'))
    const whole = await fs.readFile(file)
    // A crash in the middle of the second append.
    await fs.writeFile(file, whole.subarray(0, whole.length - 7))
    const told: Damage[] = []
    const reopened = await ActionLog.open(file, key, (d) => told.push(d))
    expect(reopened.entries().map((e) => e.id)).toEqual(['a'])
    expect(told).toHaveLength(1)
    expect(told[0]!.setAsideAs).toBeDefined()
    expect((await fs.readFile(told[0]!.setAsideAs!)).length).toBe(whole.length - 7)
    // The file kept holds the good entries, and appends go on after them.
    await reopened.append(started('c', '2026-03-01T12:00:00.000Z'))
    const third = await ActionLog.open(file, key, () => told.push({} as Damage))
    expect(third.entries().map((e) => e.id)).toEqual(['c', 'a'])
    expect(told).toHaveLength(1)
  })

  it('sets aside a log sealed with another key, starting empty', async () => {
    const file = path.join(dir, 'actions.sealed')
    const log = await ActionLog.open(file, randomBytes(32))
    await log.append(started('a', '2026-03-01T10:00:00.000Z'))
    const told: Damage[] = []
    expect((await ActionLog.open(file, key, (d) => told.push(d))).entries()).toEqual([])
    expect(told[0]?.why).toBe('not what Paydesk wrote')
  })
})
