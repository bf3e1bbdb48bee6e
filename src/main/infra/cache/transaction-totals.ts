import type { TransactionFilter } from '../../../shared/ipc/channels/data'
import type { CurrencyTotal } from '../../../shared/ipc/channels/workbench'
import type { SqliteDatabase } from './sqlite'
import { whereOf } from './transaction-rows'

/**
 * Per currency, how many transactions match a filter and the sum of their amounts in minor units (null when it is past
 * what a number holds exactly), most transactions first: every match, not only the rows on screen. The same conditions
 * as the list's, read from the same indexes (the currency index carries the amount, so no row is read without other
 * filters). The store runs it in a reader thread of its own (store.ts), so a total never waits in line before a window.
 */
export function transactionTotals(db: SqliteDatabase, filter: TransactionFilter): CurrencyTotal[] {
  const where = whereOf(filter)
  const rows = db
    .prepare(
      `SELECT currency, count(*), sum(amount) FROM tx ${where.sql} GROUP BY currency ORDER BY count(*) DESC, currency`
    )
    .safeIntegers(true)
    .raw()
    .all(...where.params) as [string, bigint, bigint | null][]
  return rows.map(([currency, count, sum]) => ({
    currency,
    count: Number(count),
    amount: sum !== null && sum <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(sum) : null
  }))
}
