/**
 * `npm run gate -- operator add NAME` and `npm run gate -- verify-log`, run through the CLI's entry on a real database
 * file: a token is printed once and only its hash kept; the log's chain passes when clean and fails on an edited or a
 * removed row, edited behind the gate's back with SQLite itself.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { main } from '../../src/gate/cli'
import { operatorFor } from '../../src/gate/domain/operators'
import { openGateDatabase } from '../../src/gate/store/sqlite-open'
import { SqliteGateStore } from '../../src/gate/store/sqlite-store'

let dir: string
let db: string
const saved = process.env['GATE_DATABASE']
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gate-cli-'))
  db = join(dir, 'gate.db')
  process.env['GATE_DATABASE'] = db
})
afterEach(() => {
  if (saved === undefined) delete process.env['GATE_DATABASE']
  else process.env['GATE_DATABASE'] = saved
  rmSync(dir, { recursive: true, force: true })
})

async function run(...args: string[]): Promise<{ code: number; out: string[] }> {
  const out: string[] = []
  const code = await main(args, (l) => out.push(l))
  return { code, out }
}

async function logWithRows(): Promise<void> {
  let t = Date.parse('2026-01-01T00:00:00Z')
  const store = new SqliteGateStore({ file: db, now: () => (t += 1000) })
  await store.putRules({ rules: [], otherwise: 'reject', otherwiseFallback: 'reject' }, 'operator:Ana')
  await store.settleWebhook({
    webhookId: 'Webhook:1',
    received: { kind: 'webhook', actor: 'service', data: { webhookId: 'Webhook:1' } },
    answer: { status: 403, body: { code: 'PAYMENT_REJECTED' } },
    decision: {
      record: {
        transactionId: 'Transaction:1',
        webhookId: 'Webhook:1',
        outcome: 'rejected',
        actor: 'otherwise',
        reason: 'No approval rule applies to this payment.'
      },
      ifAlreadyDecided: { status: 409, body: null }
    }
  })
  await store.append({ kind: 'decision-sent', actor: 'otherwise', data: { ok: true } })
  await store.close()
}

function sql(statement: string): void {
  // The gate's own opener, so the Node 22 pass loads the binding built for it (PAYDESK_SQLITE_BINDING).
  const raw = openGateDatabase(db)
  raw.exec(statement)
  raw.close()
}

describe('operator add', () => {
  it('prints a token once; the database holds only its hash, and the token authenticates', async () => {
    const { code, out } = await run('operator', 'add', 'Ana', 'Ops')
    expect(code).toBe(0)
    const token = out.at(-1) as string
    expect(token).toMatch(/^gop_[A-Za-z0-9_-]{43}$/)
    expect(readFileSync(db).includes(Buffer.from(token))).toBe(false)
    const store = new SqliteGateStore({ file: db, now: Date.now })
    expect(await operatorFor(store, `Bearer ${token}`)).toBe('Ana Ops')
    const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A')
    expect(await operatorFor(store, `Bearer ${flipped}`)).toBeNull()
    await store.close()
    expect((await run('operator', 'add', 'Ana', 'Ops')).code).toBe(1)
    expect((await run('operator', 'add', '<script>')).code).toBe(2)
  })
})

describe('verify-log', () => {
  it('passes on a clean log', async () => {
    await logWithRows()
    expect(await run('verify-log')).toEqual({ code: 0, out: ['The decision log is intact: 4 rows.'] })
  })

  it('fails on an edited row', async () => {
    await logWithRows()
    sql(`UPDATE log SET data = replace(data, 'rejected', 'approved') WHERE kind = 'decision'`)
    const { code, out } = await run('verify-log')
    expect(code).toBe(1)
    expect(out[0]).toBe('The decision log is broken at row 3: row 3 was changed after it was written.')
  })

  it('fails on a removed row, in the middle or at the end', async () => {
    await logWithRows()
    sql('DELETE FROM log WHERE seq = 2')
    expect((await run('verify-log')).out[0]).toMatch(/broken at row 2: row 2 is missing/)
    db = join(dir, 'second.db')
    process.env['GATE_DATABASE'] = db
    await logWithRows()
    sql('DELETE FROM log WHERE seq = (SELECT max(seq) FROM log)')
    const { code, out } = await run('verify-log')
    expect(code).toBe(1)
    expect(out[0]).toMatch(/rows were written/)
  })

  it('fails when a row is rewritten with a recomputed hash of its own (its successor no longer links)', async () => {
    await logWithRows()
    sql(`UPDATE log SET actor = 'operator:Mallory', hash = '${'f'.repeat(64)}' WHERE seq = 2`)
    expect((await run('verify-log')).code).toBe(1)
  })
})
