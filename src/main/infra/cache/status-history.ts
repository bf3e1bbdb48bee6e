import type { StatusHistoryEntry } from '../../../shared/status-history'
import type { SqliteDatabase } from './sqlite'
import type { TransactionRow } from './transaction-rows'

/**
 * The statuses a transaction was seen in (schema.ts migration 8). Only a change costs a write: the first change of a
 * transaction also keeps the status it replaces, read from the row before the row is overwritten, so a transaction
 * that never changed has no rows here and its timeline is its current status alone.
 */

/** Called by the writer before it overwrites a row whose status changed; `now` is the sync's time (ms). */
export function recordStatusChange(db: SqliteDatabase, row: TransactionRow, now: number): void {
  db.prepare(
    `INSERT INTO tx_history (tx_id, status, seen_at, by_service)
       SELECT id, status, updated_at, 1 FROM tx WHERE id = ? AND NOT EXISTS (SELECT 1 FROM tx_history WHERE tx_id = ?)`
  ).run(row.id, row.id)
  const byService = hasUpdatedAt(row.doc)
  db.prepare('INSERT INTO tx_history (tx_id, status, seen_at, by_service) VALUES (?, ?, ?, ?)').run(
    row.id,
    row.status,
    byService ? row.updated_at : now,
    byService ? 1 : 0
  )
}

/** The timeline, oldest first; the current status alone for a transaction that never changed; empty when unknown. */
export function statusHistory(db: SqliteDatabase, id: string): StatusHistoryEntry[] {
  const rows = db
    .prepare('SELECT status, seen_at, by_service FROM tx_history WHERE tx_id = ? ORDER BY rowid')
    .raw()
    .all(id) as [string, number, number][]
  if (rows.length === 0) {
    const current = db.prepare('SELECT status, updated_at FROM tx WHERE id = ?').raw().get(id) as
      | [string, number]
      | undefined
    if (current) rows.push([current[0], current[1], 1])
  }
  return rows.map(([status, at, byService]) => ({
    status,
    at: new Date(at).toISOString(),
    source: byService === 1 ? 'service' : 'paydesk'
  }))
}

/** Whether the service stamped this version of the transaction itself (rowOf falls back to createdAt otherwise). */
function hasUpdatedAt(doc: string): boolean {
  const updatedAt = (JSON.parse(doc) as { updatedAt?: unknown }).updatedAt
  return typeof updatedAt === 'string' && !Number.isNaN(Date.parse(updatedAt))
}
