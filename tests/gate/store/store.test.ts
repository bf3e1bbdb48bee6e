/**
 * The guarantees the gate's domain relies on, checked on both stores: SQLite (one file) and PostgreSQL (a real
 * throw-away cluster). "Two replicas" are two store instances on the same database; on PostgreSQL they race for real
 * (separate connections, concurrent transactions), and an entry written through one reaches the other's subscribers
 * through LISTEN/NOTIFY.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GateEvent } from '../../../src/shared/gate'
import pg from 'pg'
import { PgGateStore } from '../../../src/gate/store/pg-store'
import { openGateDatabase } from '../../../src/gate/store/sqlite-open'
import { SqliteGateStore } from '../../../src/gate/store/sqlite-store'
import type { DecisionInput, GateStore, WebhookSettlement } from '../../../src/gate/store/store'
import { startPostgres, type TestPostgres } from '../../support/postgres'

const NOW = Date.parse('2025-10-13T12:00:00Z')
const now = (): number => NOW

interface Backend {
  /** A fresh database: a function opening another store on it, and one running SQL on it behind the store's back. */
  fresh(): Promise<{ open: () => Promise<GateStore>; tamper: (sql: string) => Promise<void> }>
  crossReplicaEvents: boolean
}

let pgServer: TestPostgres | undefined
const dirs: string[] = []

const backends: Record<string, Backend> = {
  sqlite: {
    crossReplicaEvents: false,
    fresh: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gate-store-'))
      dirs.push(dir)
      const file = join(dir, 'gate.db')
      return {
        open: async () => new SqliteGateStore({ file, now }),
        tamper: async (sql) => {
          const db = openGateDatabase(file)
          db.exec(sql)
          db.close()
        }
      }
    }
  },
  postgres: {
    crossReplicaEvents: true,
    fresh: async () => {
      pgServer ??= await startPostgres()
      const url = await pgServer.createDatabase()
      return {
        open: () => PgGateStore.open({ url, now }),
        tamper: async (sql) => {
          const c = new pg.Client({ connectionString: url })
          await c.connect()
          await c.query(sql)
          await c.end()
        }
      }
    }
  }
}

beforeAll(async () => {
  pgServer = await startPostgres()
}, 60_000)

afterAll(async () => {
  await pgServer?.stop()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const decision = (tx: string, webhookId: string, outcome: DecisionInput['outcome'] = 'approved'): DecisionInput => ({
  transactionId: tx,
  webhookId,
  outcome,
  actor: 'rule:test',
  reason: 'because'
})

const settlement = (webhookId: string, tx: string, extra: Partial<WebhookSettlement> = {}): WebhookSettlement => ({
  webhookId,
  received: { kind: 'webhook', actor: 'service', data: { webhookId, transactionId: tx } },
  answer: { status: 200, body: { receiverCustomerInfo: {} } },
  decision: { record: decision(tx, webhookId), ifAlreadyDecided: { status: 409, body: { code: 'ALREADY_DECIDED' } } },
  ...extra
})

/** Resolves once `store` has heard `count` entries through subscribe. */
function hear(store: GateStore, count: number): Promise<GateEvent[]> {
  const heard: GateEvent[] = []
  return new Promise((resolve) => {
    const off = store.subscribe((e) => {
      heard.push(e)
      if (heard.length === count) {
        off()
        resolve(heard)
      }
    })
  })
}

describe.each(Object.keys(backends))('the %s store', (name) => {
  const backend = backends[name] as Backend

  /** Two stores on one fresh database, as two replicas; both closed after `body`, whatever happened. */
  async function onTwoReplicas(
    body: (a: GateStore, b: GateStore, tamper: (sql: string) => Promise<void>) => Promise<void>
  ): Promise<void> {
    const { open, tamper } = await backend.fresh()
    const [a, b] = [await open(), await open()]
    try {
      await body(a, b, tamper)
    } finally {
      await a.close()
      await b.close()
    }
  }

  it('settles a webhook id once, whichever replica gets it, and answers a replay with the stored answer', () =>
    onTwoReplicas(async (a, b) => {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).settleWebhook(settlement('Webhook:1', 'Transaction:1')))
      )
      expect(results.filter((r) => r.settled)).toHaveLength(1)
      for (const r of results.filter((x) => !x.settled))
        expect(r).toEqual({
          settled: false,
          reason: 'seen',
          seen: { answer: { status: 200, body: { receiverCustomerInfo: {} } } }
        })
      expect(await b.seenWebhook('Webhook:1')).toEqual({ answer: { status: 200, body: { receiverCustomerInfo: {} } } })
      expect(await a.seenWebhook('Webhook:2')).toBeNull()
      const log = await a.readLog(0, 100)
      expect(log.map((e) => e.kind)).toEqual(['webhook', 'decision'])
      expect(await b.verifyLog()).toEqual({ ok: true, rows: 2 })
    }))

  it('decides a transaction once across webhooks and replicas; a later webhook gets ifAlreadyDecided', () =>
    onTwoReplicas(async (a, b) => {
      const decided = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).decide(decision('Transaction:7', `Webhook:${i}`)))
      )
      expect(decided.filter((d) => d !== null)).toHaveLength(1)
      const later = await a.settleWebhook(settlement('Webhook:late', 'Transaction:7'))
      expect(later).toMatchObject({ settled: true, answer: { status: 409 } })
      const kinds = (await b.readLog(0, 100)).map((e) => e.kind)
      expect(kinds.filter((k) => k === 'decision')).toHaveLength(1)
      expect(await a.verifyLog()).toMatchObject({ ok: true })
    }))

  it('uses a pre-approval once: the second payment finds it gone and nothing of its webhook is written', () =>
    onTwoReplicas(async (a, b) => {
      const { preApproval } = await a.addPreApproval(
        { customerId: 'Customer:1', currency: 'USD', minAmount: 0, maxAmount: 5000, expiresAt: '2025-10-14T00:00:00Z' },
        'operator:Ana'
      )
      const match = {
        customerId: 'Customer:1',
        currency: 'USD',
        amount: 1000,
        senders: ['$x@y'],
        now: new Date(NOW).toISOString()
      }
      expect((await b.findPreApproval(match))?.id).toBe(preApproval.id)
      expect(await b.findPreApproval({ ...match, amount: 6000 })).toBeNull()
      expect(await b.findPreApproval({ ...match, now: '2025-10-15T00:00:00.000Z' })).toBeNull()
      // The same search inside the webhook's one read (webhookFacts), with the rest of what it reads.
      const facts = await b.webhookFacts({ webhookId: 'Webhook:p1', customerId: 'Customer:1', match })
      expect(facts).toMatchObject({ seen: null, receiverInfo: null, preApproval: preApproval })
      expect(await b.webhookFacts({ webhookId: 'Webhook:p1', customerId: null, match: null })).toMatchObject({
        preApproval: null
      })
      const use = (store: GateStore, n: number) =>
        store.settleWebhook(
          settlement(`Webhook:p${n}`, `Transaction:p${n}`, {
            decision: {
              record: decision(`Transaction:p${n}`, `Webhook:p${n}`),
              ifAlreadyDecided: { status: 409, body: null },
              preApproval: { id: preApproval.id, now: match.now }
            }
          })
        )
      const results = await Promise.all([use(a, 1), use(b, 2)])
      expect(results.filter((r) => r.settled)).toHaveLength(1)
      expect(results.filter((r) => !r.settled)).toEqual([{ settled: false, reason: 'pre-approval-gone' }])
      const loser = results[0]?.settled ? 'Webhook:p2' : 'Webhook:p1'
      expect(await a.seenWebhook(loser)).toBeNull()
      expect((await a.listPreApprovals())[0]?.usedBy).toMatch(/^Transaction:p[12]$/)
      expect(await b.findPreApproval(match)).toBeNull()
      expect(await a.verifyLog()).toMatchObject({ ok: true })
    }))

  it('keeps the log one chain under concurrent writers, and verifyLog finds an edited row', () =>
    onTwoReplicas(async (a, b, tamper) => {
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 ? a : b).append({ kind: 'rules', actor: `operator:${i}`, data: { n: i } })
        )
      )
      expect(await a.verifyLog()).toEqual({ ok: true, rows: 40 })
      const seqs = (await b.readLog(0, 100)).map((e) => e.seq)
      expect(seqs).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
      expect((await a.readLog(38, 100)).map((e) => e.seq)).toEqual([39, 40])
      await tamper(`UPDATE log SET actor = 'operator:someone-else' WHERE seq = 17`)
      expect(await b.verifyLog()).toEqual({ ok: false, seq: 17, problem: 'row 17 was changed after it was written' })
      await tamper('DELETE FROM log WHERE seq = 17')
      expect(await a.verifyLog()).toEqual({ ok: false, seq: 17, problem: 'row 17 is missing (the next row is 18)' })
    }))

  it('chains text that needs quoting or escaping exactly as verifyLog recomputes it, and stores it unchanged', async () => {
    const { open, tamper } = await backend.fresh()
    const store = await open()
    try {
      // Quotes, a backslash, SQL, control characters (JSON's short and \u00XX escapes), non-ASCII, an astral
      // character, U+2028 and DEL: PostgreSQL hashes the entries it appends, JavaScript verifies them.
      const awkward = `O'Brien "Ops" \\ '); DROP TABLE log; -- \n\t\r\b\f\u0001\u001f é 日本 😀 \u2028 \u007f`
      await store.append({ kind: 'operator', actor: `operator:${awkward}`, data: { added: awkward, n: [1.5, null] } })
      await store.append({ kind: 'rules', actor: 'gate', data: { why: awkward } })
      expect(await store.verifyLog()).toEqual({ ok: true, rows: 2 })
      const [first, second] = await store.readLog(0, 10)
      expect(first).toMatchObject({ actor: `operator:${awkward}`, data: { added: awkward, n: [1.5, null] } })
      expect(second?.data).toEqual({ why: awkward })
      await tamper('DELETE FROM log WHERE seq = 2')
      expect(await store.verifyLog()).toEqual({
        ok: false,
        seq: 2,
        problem: 'the log ends at row 1 but 2 rows were written'
      })
    } finally {
      await store.close()
    }
  })

  it("keeps a 202's prompt open for every replica until its transaction is decided, once", () =>
    onTwoReplicas(async (a, b) => {
      const stored = { transactionId: 'Transaction:q', webhookId: 'Webhook:q', dueAt: NOW + 4000, record: { n: 1 } }
      const entry = { kind: 'prompt' as const, actor: 'gate', data: { transactionId: 'Transaction:q' } }
      const { decision: _none, ...asked } = settlement('Webhook:q', 'Transaction:q', {
        answer: { status: 202, body: {} },
        prompt: { entry, stored }
      })
      expect(await a.settleWebhook(asked)).toMatchObject({ settled: true, answer: { status: 202 } })
      expect(await b.openPrompts()).toEqual([stored])
      expect(await b.openPrompt('Transaction:q')).toEqual(stored)
      const decided = await Promise.all([a, b].map((s) => s.decide(decision('Transaction:q', 'Webhook:q', 'rejected'))))
      expect(decided.filter((d) => d !== null)).toHaveLength(1)
      expect(await a.openPrompts()).toEqual([])
      expect(await b.openPrompt('Transaction:q')).toBeNull()
      expect((await a.readLog(0, 10)).map((e) => e.kind)).toEqual(['webhook', 'prompt', 'decision'])
    }))

  it('keeps rules, receiver information (sealed bytes) and operators', async () => {
    const { open } = await backend.fresh()
    const a = await open()
    try {
      const rules = { rules: [], otherwise: 'reject' as const, otherwiseFallback: 'reject' as const }
      await a.putRules(rules, 'operator:Ana')
      expect(await a.getRules()).toEqual(rules)
      await a.putReceiverInfo('Customer:1', Buffer.from([1, 2, 3]), 'operator:Ana')
      expect(await a.getReceiverInfo('Customer:1')).toMatchObject({
        sealed: Buffer.from([1, 2, 3]),
        updatedBy: 'operator:Ana'
      })
      expect(await a.getReceiverInfo('Customer:2')).toBeNull()
      const facts = { webhookId: 'Webhook:r', customerId: 'Customer:1', match: null }
      expect(await a.webhookFacts(facts)).toEqual({
        seen: null,
        rules,
        receiverInfo: Buffer.from([1, 2, 3]),
        preApproval: null
      })
      expect(await a.webhookFacts({ ...facts, customerId: null })).toMatchObject({ receiverInfo: null })
      await a.settleWebhook(settlement('Webhook:r', 'Transaction:r'))
      expect(await a.webhookFacts(facts)).toEqual({
        seen: { answer: { status: 200, body: { receiverCustomerInfo: {} } } }
      })
      await a.addOperator('Ana', Buffer.alloc(32, 7))
      await expect(a.addOperator('Ana', Buffer.alloc(32, 8))).rejects.toThrow(/already exists/)
      expect((await a.operators()).map((o) => [o.name, o.tokenHash])).toEqual([['Ana', Buffer.alloc(32, 7)]])
      const kinds = (await a.readLog(0, 10)).map((e) => e.kind)
      expect(kinds).toEqual(['rules', 'receiver-info', 'webhook', 'decision', 'operator'])
      expect(JSON.stringify(await a.readLog(0, 10))).not.toContain('\\u0001')
    } finally {
      await a.close()
    }
  })

  it("reads another replica's rule change and pre-approval at once: nothing cached hides them", () =>
    onTwoReplicas(async (a, b, tamper) => {
      const reject = { rules: [], otherwise: 'reject' as const, otherwiseFallback: 'reject' as const }
      const ask = { rules: [], otherwise: 'ask' as const, otherwiseFallback: 'reject' as const }
      await a.putRules(reject, 'operator:Ana')
      expect(await a.getRules()).toEqual(reject)
      // B's change, then A's very next read (its next webhook's), without waiting for any notification.
      await b.putRules(ask, 'operator:Bo')
      expect(await a.getRules()).toEqual(ask)
      // A change by another process on the same database (SQLite: the CLI), behind both stores' backs.
      await tamper(`UPDATE rules SET json = '${JSON.stringify(reject)}' WHERE id = 1`)
      expect(await a.getRules()).toEqual(reject)
      expect(await b.getRules()).toEqual(reject)

      const match = {
        customerId: 'Customer:9',
        currency: 'USD',
        amount: 100,
        senders: [],
        now: new Date(NOW).toISOString()
      }
      expect(await a.findPreApproval(match)).toBeNull()
      const { preApproval } = await b.addPreApproval(
        { customerId: 'Customer:9', currency: 'USD', minAmount: 0, maxAmount: 500, expiresAt: '2025-10-14T00:00:00Z' },
        'operator:Bo'
      )
      expect((await a.findPreApproval(match))?.id).toBe(preApproval.id)
    }))

  it.runIf(name === 'postgres')(
    "chains a settlement's entries after its commit, a dead replica's too: whatever runs next chains them, in order",
    async () => {
      const { open, tamper } = await backend.fresh()
      const a = await open()
      try {
        await a.settleWebhook(settlement('Webhook:1', 'Transaction:1'))
        // Entries a replica committed and died before chaining: still pending, outside the chain.
        await tamper(`INSERT INTO log_pending (at, kind, actor, data) VALUES
          ('2025-10-13T12:00:00.000Z', 'webhook', 'service', '{"webhookId":"Webhook:dead"}'),
          ('2025-10-13T12:00:00.000Z', 'decision', 'rule:test', '{"webhookId":"Webhook:dead"}')`)
        // The next write through any replica chains them before its own entry.
        await a.putRules({ rules: [], otherwise: 'reject', otherwiseFallback: 'reject' }, 'operator:Ana')
        const log = await a.readLog(0, 10)
        expect(log.map((e) => [e.seq, e.kind, e.data['webhookId'] ?? null])).toEqual([
          [1, 'webhook', 'Webhook:1'],
          [2, 'decision', 'Webhook:1'],
          [3, 'webhook', 'Webhook:dead'],
          [4, 'decision', 'Webhook:dead'],
          [5, 'rules', null]
        ])
        await tamper(`INSERT INTO log_pending (at, kind, actor, data) VALUES ('x', 'webhook', 'service', '{}')`)
        expect(await a.verifyLog()).toEqual({ ok: true, rows: 6 })
      } finally {
        await a.close()
      }
    }
  )

  it('tells subscribers each committed entry once, in order, on the replica that wrote it and on the others', () =>
    onTwoReplicas(async (a, b) => {
      const onA = hear(a, 6)
      const onB = backend.crossReplicaEvents ? hear(b, 6) : Promise.resolve([])
      for (let i = 0; i < 3; i++) await a.append({ kind: 'rules', actor: 'a', data: { i } })
      for (let i = 3; i < 6; i++)
        await (backend.crossReplicaEvents ? b : a).append({ kind: 'rules', actor: 'b', data: { i } })
      const seqs = (await onA).map((e) => e.seq)
      expect(seqs).toEqual([1, 2, 3, 4, 5, 6])
      if (backend.crossReplicaEvents) expect((await onB).map((e) => e.data['i'])).toEqual([0, 1, 2, 3, 4, 5])
    }))
})
