import { randomBytes, randomUUID } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { idempotencyKeyFor, publicRecord, TransferJournal } from '../../../src/main/domain/transfer-journal'
import { tempDir } from '../helpers'

let dir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir, cleanup } = await tempDir('journal')))
afterEach(() => cleanup())

const key = randomBytes(32)
const intent = (actionId = randomUUID()) => ({
  actionId,
  sourceAccountId: 'InternalAccount:SRC-PLAINTEXT',
  destinationAccountId: 'ExternalAccount:DST',
  amount: 1234
})

describe('TransferJournal', () => {
  it('stores the Idempotency-Key durably before the first attempt, sealed on disk', async () => {
    const file = path.join(dir, 'transfers.sealed')
    const j = await TransferJournal.open(file, key, 'p-1')
    const i = intent()
    const record = await j.prepare(i, new Date('2026-01-01T00:00:00Z'))
    expect(record).toMatchObject({
      ...i,
      state: 'prepared',
      attempts: 0,
      idempotencyKey: idempotencyKeyFor('p-1', i.actionId)
    })
    // Already on disk (a crash right now keeps it), and not readable there.
    const bytes = await readFile(file)
    expect(bytes.includes(Buffer.from('SRC-PLAINTEXT'))).toBe(false)
    expect(bytes.includes(Buffer.from(record.idempotencyKey))).toBe(false)
    const reopened = await TransferJournal.open(file, key, 'p-1')
    expect(reopened.get(i.actionId)?.idempotencyKey).toBe(record.idempotencyKey)
    // The same action again: the same record and key.
    expect((await reopened.prepare(i, new Date())).idempotencyKey).toBe(record.idempotencyKey)
  })

  it('refuses the same action id for a different transfer, changing nothing', async () => {
    const file = path.join(dir, 'transfers.sealed')
    const j = await TransferJournal.open(file, key, 'p-1')
    const i = intent()
    await j.prepare(i, new Date())
    await expect(j.prepare({ ...i, amount: 9999 }, new Date())).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await expect(j.prepare({ ...i, destinationAccountId: 'ExternalAccount:OTHER' }, new Date())).rejects.toMatchObject({
      code: 'INVALID_INPUT'
    })
    expect((await TransferJournal.open(file, key, 'p-1')).list()).toHaveLength(1)
  })

  it('derives keys per action and profile, and never shows the key to the renderer', async () => {
    const a = randomUUID()
    expect(idempotencyKeyFor('p-1', a)).toBe(idempotencyKeyFor('p-1', a))
    expect(idempotencyKeyFor('p-1', a)).not.toBe(idempotencyKeyFor('p-2', a))
    expect(idempotencyKeyFor('p-1', a)).not.toBe(idempotencyKeyFor('p-1', randomUUID()))
    expect(idempotencyKeyFor('p-1', a).length).toBeLessThanOrEqual(255)
    const j = await TransferJournal.open(path.join(dir, 't'), key, 'p-1')
    const r = await j.prepare(intent(), new Date())
    expect(publicRecord(r)).not.toHaveProperty('idempotencyKey')
  })

  it('sets an undecryptable journal aside instead of crashing', async () => {
    const file = path.join(dir, 'transfers.sealed')
    const j = await TransferJournal.open(file, key, 'p-1')
    await j.prepare(intent(), new Date())
    const logs: string[] = []
    const other = await TransferJournal.open(file, randomBytes(32), 'p-1', (m) => logs.push(m))
    expect(other.list()).toEqual([])
    expect((await readdir(dir)).some((n) => n.includes('undecryptable'))).toBe(true)
    expect(logs.length).toBe(1)
  })
})
