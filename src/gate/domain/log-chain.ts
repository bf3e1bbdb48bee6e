/**
 * The decision log's hash chain: each row's hash covers the previous row's hash and every stored column of its own,
 * so editing a row breaks its hash, and removing one breaks the next row's link (or the head, for the last row).
 */
import { createHash } from 'node:crypto'

export const GENESIS_HASH = '0'.repeat(64)

export interface ChainRow {
  seq: number
  at: string
  kind: string
  actor: string
  /** The data column exactly as stored (JSON text). */
  data: string
  prevHash: string
  hash: string
}

export function rowHash(prevHash: string, row: Pick<ChainRow, 'seq' | 'at' | 'kind' | 'actor' | 'data'>): string {
  return createHash('sha256')
    .update(JSON.stringify([prevHash, row.seq, row.at, row.kind, row.actor, row.data]))
    .digest('hex')
}

type ChainCheck = { ok: true; rows: number } | { ok: false; seq: number; problem: string }

/** Checks rows in seq order against the chain and against the head the store keeps beside it. */
export function checkChain(rows: Iterable<ChainRow>, head: { seq: number; hash: string } | null): ChainCheck {
  let expectedSeq = 1
  let prev = GENESIS_HASH
  for (const row of rows) {
    if (row.seq !== expectedSeq)
      return { ok: false, seq: expectedSeq, problem: `row ${expectedSeq} is missing (the next row is ${row.seq})` }
    if (row.prevHash !== prev)
      return { ok: false, seq: row.seq, problem: `row ${row.seq} does not link to the row before it` }
    if (rowHash(prev, row) !== row.hash)
      return { ok: false, seq: row.seq, problem: `row ${row.seq} was changed after it was written` }
    prev = row.hash
    expectedSeq++
  }
  const last = expectedSeq - 1
  const headSeq = head?.seq ?? 0
  if (headSeq !== last)
    return { ok: false, seq: last + 1, problem: `the log ends at row ${last} but ${headSeq} rows were written` }
  if (head && head.hash !== prev) return { ok: false, seq: last, problem: `row ${last} does not match the log's head` }
  return { ok: true, rows: last }
}
