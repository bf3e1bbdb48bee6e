import { useEffect, useState } from 'react'
import { KNOWN_DECIMALS } from '../../../../shared/format/money'
import type { TransactionFilter } from '../../../../shared/ipc/channels/data'
import { useChannelQuery } from '../../data/channel-query'
import { Money } from '../../ui/atoms'

/** How long the filter must hold still before its totals are asked: a typed search asks once, not per key. */
const SETTLE_MS = 300

/** The filter once it stopped changing for SETTLE_MS (the first one at once). */
function useSettled(filter: TransactionFilter): TransactionFilter {
  const [settled, setSettled] = useState(filter)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(filter), SETTLE_MS)
    return () => clearTimeout(timer)
  }, [filter])
  return settled
}

/**
 * Per currency, how many transactions the filters keep and what they add up to: every match in the cache (main sums
 * them, transactions.totals), not just the rows on screen. Amounts are never added across currencies.
 */
export function WorkbenchTotals({ filter }: { filter: TransactionFilter }) {
  const settled = useSettled(filter)
  const { data } = useChannelQuery('transactions.totals', { filter: settled })
  if (!data || data.totals.length === 0) return null
  return (
    <ul className="workbench-totals" aria-label="Totals per currency">
      {data.totals.map((t) => (
        <li key={t.currency}>
          {t.amount === null ? (
            <span>too large to add up exactly {t.currency}</span>
          ) : (
            <Money
              amount={t.amount}
              currency={{ code: t.currency, decimals: KNOWN_DECIMALS[t.currency] ?? 2 }}
              showCode
            />
          )}{' '}
          <span className="muted">
            in {t.count.toLocaleString()} {t.count === 1 ? 'transaction' : 'transactions'}
          </span>
        </li>
      ))}
    </ul>
  )
}
