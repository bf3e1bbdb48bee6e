/**
 * A rolling upgrade on PostgreSQL (docs/gate.md, Upgrading): for a while a replica of the previous release and one of
 * the new release share the database, and each sets up the schema when it starts. The previous release's replica is
 * played here by its SQL calls (paydesk_gate_settle's shape) on a connection of its own, on a database set up as
 * releases before schema versions set it up (MIGRATIONS[0], run by hand, no version recorded).
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PgGateStore } from '../../../src/gate/store/pg-store'
import { MIGRATIONS, SCHEMA_VERSION, SETTLE_SQL, settleValues } from '../../../src/gate/store/pg-schema'
import type { LogInput, WebhookSettlement } from '../../../src/gate/store/store'
import { startPostgres, type TestPostgres } from '../../support/postgres'

const now = (): number => Date.parse('2025-10-13T12:00:00Z')
const AT = new Date(now()).toISOString()

let server: TestPostgres
const pools: pg.Pool[] = []

beforeAll(async () => {
  server = await startPostgres()
}, 60_000)

afterAll(async () => {
  for (const p of pools) await p.end()
  await server?.stop()
})

async function database(): Promise<{ url: string; sql: pg.Pool }> {
  const url = await server.createDatabase()
  const sql = new pg.Pool({ connectionString: url, max: 4 })
  // The server's fast shutdown at the end ends connections pg may still be closing: not this test's concern.
  sql.on('error', () => undefined)
  pools.push(sql)
  return { url, sql }
}

const settlement = (n: number): WebhookSettlement => ({
  webhookId: `Webhook:${n}`,
  received: { kind: 'webhook', actor: 'service', data: { webhookId: `Webhook:${n}` } },
  answer: { status: 200, body: { receiverCustomerInfo: {} } },
  decision: {
    record: {
      transactionId: `Transaction:${n}`,
      webhookId: `Webhook:${n}`,
      outcome: 'approved',
      actor: 'rule:t',
      reason: 'r'
    },
    ifAlreadyDecided: { status: 409, body: { code: 'ALREADY_DECIDED' } }
  }
})

/** The previous release's settlement of webhook n, as its replica sends it, on `q` (a pool or one transaction's client). */
async function oldSettle(q: pg.Pool | pg.PoolClient, n: number): Promise<{ outcome: string; decided: boolean }> {
  const s = settlement(n)
  const entry: LogInput = { kind: 'decision', actor: 'rule:t', data: { transactionId: `Transaction:${n}` } }
  const r = await q.query<{ outcome: string; decided: boolean }>(SETTLE_SQL, settleValues(s, AT, entry))
  return r.rows[0]!
}

/** The pg_proc row versions of the gate's functions: CREATE OR REPLACE (or DROP and CREATE) changes them. */
async function functionVersions(sql: pg.Pool): Promise<string> {
  const r = await sql.query<{ v: string }>(
    "SELECT string_agg(proname || ':' || oid || ':' || xmin, ',' ORDER BY proname) AS v FROM pg_proc WHERE proname LIKE 'paydesk_gate_%'"
  )
  return r.rows[0]!.v
}

const count = async (sql: pg.Pool, table: string): Promise<number> =>
  Number((await sql.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n)

describe('a rolling upgrade on PostgreSQL', () => {
  it('a new replica migrates a database of the previous release while an old replica settles, mid-transaction too', async () => {
    const { url, sql } = await database()
    await sql.query(MIGRATIONS[0]!)
    expect(await oldSettle(sql, 1)).toMatchObject({ outcome: 'settled', decided: true })
    const before = await functionVersions(sql)

    // The old replica is inside a settlement's transaction (its row locks held) when the new replica starts.
    const old = await sql.connect()
    await old.query('BEGIN')
    expect(await oldSettle(old, 2)).toMatchObject({ outcome: 'settled', decided: true })
    const store = await PgGateStore.open({ url, now })
    try {
      // It migrated (settle is dropped and created again by V1), without waiting for the old transaction...
      expect(await functionVersions(sql)).not.toBe(before)
      // ...whose next statement calls the function as replaced, and commits.
      expect(await oldSettle(old, 3)).toMatchObject({ outcome: 'settled', decided: true })
      await old.query('COMMIT')
      old.release()

      // Both release's calls keep working, and a redelivery through either is answered as the first delivery was.
      const results = await Promise.all([
        ...[4, 5, 6, 7].map(async (n) => (await oldSettle(sql, n)).outcome === 'settled'),
        ...[8, 9].map(async (n) => (await store.settleWebhook(settlement(n))).settled)
      ])
      expect(results).toEqual([true, true, true, true, true, true])
      expect(await oldSettle(sql, 8)).toMatchObject({ outcome: 'seen', decided: false })
      expect(await store.settleWebhook(settlement(4))).toMatchObject({ settled: false, reason: 'seen' })
      expect(await count(sql, 'webhooks')).toBe(9)
      expect(await count(sql, 'decisions')).toBe(9)
      expect(await store.verifyLog()).toMatchObject({ ok: true })
      const migrations = await sql.query('SELECT version FROM gate_schema_migrations')
      expect(migrations.rows).toEqual([{ version: SCHEMA_VERSION }])
    } finally {
      await store.close()
    }
  }, 60_000)

  it('two replicas starting at once migrate once, and a replica starting at its version replaces nothing', async () => {
    const { url, sql } = await database()
    const stores = await Promise.all([PgGateStore.open({ url, now }), PgGateStore.open({ url, now })])
    const migrated = await functionVersions(sql)
    const third = await PgGateStore.open({ url, now })
    try {
      const migrations = await sql.query('SELECT version FROM gate_schema_migrations ORDER BY version')
      expect(migrations.rows).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => ({ version: i + 1 })))
      expect(await functionVersions(sql)).toBe(migrated)
    } finally {
      await Promise.all([...stores, third].map((s) => s.close()))
    }
  }, 60_000)

  it('a replica of an older release, started after a newer one migrated, leaves the newer functions alone', async () => {
    const { url, sql } = await database()
    const store = await PgGateStore.open({ url, now })
    await store.close()
    // A newer release's migration, as far as this release can tell: a version beyond its own.
    await sql.query('INSERT INTO gate_schema_migrations (version) VALUES ($1)', [SCHEMA_VERSION + 1])
    const newer = await functionVersions(sql)
    const older = await PgGateStore.open({ url, now })
    try {
      expect(await functionVersions(sql)).toBe(newer)
      expect(await older.settleWebhook(settlement(1))).toMatchObject({ settled: true })
    } finally {
      await older.close()
    }
  }, 60_000)
})
