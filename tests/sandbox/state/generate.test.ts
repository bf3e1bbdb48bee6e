import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3-multiple-ciphers'
import { afterEach, describe, expect, it } from 'vitest'
import { parseArgs, UsageError } from '../../../src/sandbox/cli'
import { parseGenerateCount } from '../../../src/sandbox/state/generate'
import { createSandboxServer, type SandboxServer } from '../../../src/sandbox/server'
import { defaultNativeBinding } from '../../../src/sandbox/state/sqlite'

const NOW = Date.parse('2026-11-01T12:00:00Z')
const opened: SandboxServer[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

async function sandbox(extra: Parameters<typeof createSandboxServer>[0] = {}): Promise<SandboxServer> {
  const s = await createSandboxServer({ memory: true, now: () => NOW, log: () => undefined, ...extra })
  opened.push(s)
  return s
}

function generated(s: SandboxServer) {
  return s.state.store.txAll.items.filter((r) => r.meta.reference?.startsWith('GEN-'))
}

describe('generated history', () => {
  it('spreads N transactions over 12 months, customers, accounts, statuses, types and currencies, in integers', async () => {
    const s = await sandbox({ generateTransactions: 5_000 })
    const recs = generated(s)
    expect(recs).toHaveLength(5_000)
    const times = recs.map((r) => r.t)
    const spanDays = (Math.max(...times) - Math.min(...times)) / 86_400_000
    expect(spanDays).toBeGreaterThan(350)
    expect(Math.max(...times)).toBeLessThanOrEqual(NOW)
    expect(new Set(recs.map((r) => r.data.customerId)).size).toBeGreaterThan(3)
    expect(new Set(recs.map((r) => r.data.status)).size).toBeGreaterThanOrEqual(4)
    expect(new Set(recs.map((r) => r.data.type))).toEqual(new Set(['INCOMING', 'OUTGOING']))
    expect(new Set(recs.map((r) => r.data.receivedAmount?.currency.code)).size).toBeGreaterThan(1)
    for (const r of recs) {
      expect(Number.isInteger(r.data.receivedAmount?.amount)).toBe(true)
      if (r.data.sentAmount) expect(Number.isInteger(r.data.sentAmount.amount)).toBe(true)
      // A history: nothing left waiting for an approval or a timed transition.
      expect(['PENDING', 'PROCESSING', 'CREATED']).not.toContain(r.data.status)
    }
    // It answers the list like any other data.
    const res = await fetch(`${s.baseUrl}/transactions?limit=5&status=COMPLETED`, {
      headers: { authorization: `Basic ${Buffer.from(`${s.tokenId}:${s.clientSecret}`).toString('base64')}` }
    })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { totalCount: number }).totalCount).toBeGreaterThan(1_000)
  })

  it('is deterministic: the same N gives the same history', async () => {
    const shape = (s: SandboxServer) =>
      generated(s).map((r) => [
        r.t,
        r.data.type,
        r.data.status,
        r.data.receivedAmount?.amount,
        r.data.receivedAmount?.currency.code,
        s.state.store.customers.get(r.data.customerId)?.data.fullName
      ])
    const a = shape(await sandbox({ generateTransactions: 800 }))
    const b = shape(await sandbox({ generateTransactions: 800 }))
    expect(a).toHaveLength(800)
    expect(b).toEqual(a)
  })

  it('is generated once per data file: a restart with the same N adds nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-gen-'))
    dirs.push(dir)
    const dataFile = join(dir, 'state.db')
    const a = await sandbox({ memory: false, dataFile, generateTransactions: 1_000 })
    const total = a.state.store.transactions.size
    await a.close()
    const b = await sandbox({ memory: false, dataFile, generateTransactions: 1_000 })
    expect(b.state.store.transactions.size).toBe(total)
    expect(generated(b)).toHaveLength(1_000)
  })

  it('is served while it is still being saved, and is in the file, whole, once saved or closed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-gen-'))
    dirs.push(dir)
    const dataFile = join(dir, 'state.db')
    const size = 20_000
    const a = await sandbox({ memory: false, dataFile, generateTransactions: size })
    let saved = false
    void a.state.historySaved.then(() => (saved = true))
    const page = await fetch(`${a.baseUrl}/transactions?limit=1`, {
      headers: { authorization: `Basic ${Buffer.from(`${a.tokenId}:${a.clientSecret}`).toString('base64')}` }
    })
    expect(page.status).toBe(200)
    expect(((await page.json()) as { totalCount: number }).totalCount).toBeGreaterThanOrEqual(size)
    // Answered before the history reached the file: listening no longer waits for that write, and another reader
    // of the file sees none of it until it is all there (one transaction: a crash now leaves no half history).
    expect(saved).toBe(false)
    const reader = new Database(dataFile, { readonly: true, nativeBinding: defaultNativeBinding() })
    const inFile = () => Number(reader.prepare('SELECT count(*) FROM transactions').pluck().get())
    try {
      expect(inFile()).toBeLessThan(size)
      await a.state.historySaved
      expect(inFile()).toBeGreaterThanOrEqual(size)
    } finally {
      reader.close()
    }
    await a.close()
    const b = await sandbox({ memory: false, dataFile, generateTransactions: size })
    expect(generated(b)).toHaveLength(size)
  })

  it('refuses a count that is not a whole number, naming where it came from', () => {
    expect(parseGenerateCount(undefined, 'X')).toBeUndefined()
    expect(parseGenerateCount('100_000', 'X')).toBe(100_000)
    expect(() => parseGenerateCount('1e3.5', 'PAYDESK_LOCAL_GENERATE_TRANSACTIONS')).toThrow(
      /PAYDESK_LOCAL_GENERATE_TRANSACTIONS must be a whole number/
    )
    expect(parseArgs(['--generate-transactions', '250']).generateTransactions).toBe(250)
    expect(() => parseArgs(['--generate-transactions', 'lots'])).toThrow(UsageError)
  })
})
