import type { SqliteDatabase } from '../../../../src/main/infra/cache/sqlite'
import type { Transaction } from '../../../../src/shared/api'

/** A deterministic pseudo-random generator, so property-style tests are reproducible. */
export function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

const STATUSES = ['CREATED', 'PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'REJECTED', 'EXPIRED', 'SHINY_NEW']
const CURRENCIES = ['USD', 'EUR', 'MXN']

export function makeTransactions(n: number, seed = 1, start = Date.parse('2026-01-01T00:00:00Z')): Transaction[] {
  const r = rng(seed)
  const out: Transaction[] = []
  for (let i = 0; i < n; i++) {
    const incoming = r() < 0.5
    const created = new Date(start + i * 1000 + Math.floor(r() * 500)).toISOString()
    const currency = CURRENCIES[Math.floor(r() * CURRENCIES.length)]!
    const amount = { amount: 1 + Math.floor(r() * 1_000_000), currency: { code: currency, decimals: 2 } }
    const customerId = `Customer:${Math.floor(r() * 50)}`
    const base = {
      id: `Transaction:${String(i).padStart(7, '0')}`,
      status: STATUSES[Math.floor(r() * STATUSES.length)]!,
      customerId,
      platformCustomerId: `pc-${customerId}`,
      destination: { destinationType: 'ACCOUNT', accountId: `ExternalAccount:${i % 97}`, currency },
      createdAt: created,
      updatedAt: created,
      description: i % 10 === 0 ? `Invoice ${i} for Bob` : undefined
    }
    out.push(
      (incoming
        ? { ...base, type: 'INCOMING', receivedAmount: amount }
        : {
            ...base,
            type: 'OUTGOING',
            source: { sourceType: 'ACCOUNT', accountId: `InternalAccount:${i % 7}`, currency },
            sentAmount: amount
          }) as Transaction
    )
  }
  return out
}

/**
 * A cache database as an older Paydesk left it: the migrations up to `version` only, with `transactions` written in
 * schema 1's columns (the rows' kept names came with schema 9), by the same write code when the cache is that new.
 */
export async function cacheOfSchema(
  file: string,
  key: Buffer,
  version: number,
  transactions: Transaction[]
): Promise<void> {
  const { openEncryptedDatabase } = await import('../../../../src/main/infra/cache/sqlite')
  const { MIGRATIONS } = await import('../../../../src/main/infra/cache/schema')
  const { putDocuments } = await import('../../../../src/main/infra/cache/writes')
  const { rowOf } = await import('../../../../src/main/infra/cache/transaction-rows')
  const db = openEncryptedDatabase(file, key)
  for (const sql of MIGRATIONS.slice(0, version)) db.exec(sql)
  db.pragma(`user_version = ${version}`)
  if (version >= 9) putDocuments(db, { c: 'transactions', docs: transactions })
  else {
    const insert = db.prepare(
      `INSERT INTO tx (${SCHEMA_1_COLUMNS.join(', ')}) VALUES (${SCHEMA_1_COLUMNS.map((k) => `@${k}`).join(', ')})`
    )
    db.transaction(() => transactions.forEach((t) => insert.run(rowOf(t))))()
  }
  db.close()
}

const SCHEMA_1_COLUMNS = [
  'id',
  'created_at',
  'updated_at',
  'amount',
  'currency',
  'status',
  'type',
  'customer_id',
  'platform_customer_id',
  'source_account',
  'destination_account',
  'reference',
  'search',
  'fp',
  'doc'
]

/**
 * The SQL of every statement `db` runs from now on, in order, each time it runs: the cache keeps its statements
 * (sqlite.ts statementOf), so a statement prepared once is recorded at each run. Only statements prepared after this
 * call are seen.
 */
export function traceStatements(db: SqliteDatabase): string[] {
  const statements: string[] = []
  const prepare = db.prepare.bind(db)
  db.prepare = ((sql: string) => {
    const statement = prepare(sql) as unknown as Record<'get' | 'all' | 'iterate', (...params: unknown[]) => unknown>
    for (const run of ['get', 'all', 'iterate'] as const) {
      const original = statement[run].bind(statement)
      statement[run] = (...params: unknown[]) => (statements.push(sql), original(...params))
    }
    return statement
  }) as typeof db.prepare
  return statements
}
