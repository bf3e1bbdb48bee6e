import type { Names } from '../../../shared/labels'

/**
 * The names a window of rows came with (main adds them from the cache's names table: transactions.query's `names`),
 * kept on each row of that answer, so whatever draws, narrows or remembers a row has its names along: a table cell, the
 * search narrowing in the renderer, a remembered window shown again. One shared object per answer, not a copy per row.
 */
type WithNames = { names?: Names }

/** Puts an answer's `names` on each of its rows (answers without both are left as they are). */
export function withRowNames<R extends { ok: boolean }>(result: R): R {
  const value = (result as { value?: { rows?: unknown; names?: Names } }).value
  if (result.ok && value && Array.isArray(value.rows) && value.names)
    for (const row of value.rows as WithNames[]) row.names = value.names
  return result
}

/** The names a row came with, if its answer had any. */
export const rowNames = (row: object): Names | undefined => (row as WithNames).names
