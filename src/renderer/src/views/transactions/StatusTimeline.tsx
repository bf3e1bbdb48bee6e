import { paymentStatusWord } from '../../../../shared/payment-status'
import { useChannelQuery } from '../../data/channel-query'
import { formatDateTime } from '../../format/time'
import { StatusChip } from '../../ui/atoms'
import { transactionTone } from '../../ui/status'
import '../history/history.css'

/**
 * A transaction's statuses as Paydesk's cache saw them, oldest first, ending with the current one. It reads the same
 * query as the detail (TanStack Query shares it), so it moves with the detail's own refreshes. Each time says whose
 * clock it is: the service's time of the change, or when Paydesk's sync saw a status the service did not stamp. A status
 * that came and went between two syncs was never seen, and the heading says the list is what Paydesk saw.
 */
export function StatusTimeline({ id }: { id: string }) {
  const query = useChannelQuery('transactions.get', { id })
  const history = query.data?.history ?? []
  if (history.length === 0) return null
  return (
    <section className="status-timeline" aria-labelledby={`timeline-${id}`}>
      <h3 id={`timeline-${id}`}>Status history</h3>
      <p className="muted">As Paydesk saw it: a status that passed between two syncs is not listed.</p>
      <ol>
        {history.map((entry, i) => (
          <li key={`${i}-${entry.status}`} aria-current={i === history.length - 1 ? 'step' : undefined}>
            <StatusChip value={entry.status} tone={transactionTone(entry.status)} />{' '}
            <span>{capitalised(paymentStatusWord(entry.status))}</span>
            <br />
            <time dateTime={entry.at} className="muted">
              {entry.source === 'service' ? 'at the service ' : 'seen by Paydesk '}
              {formatDateTime(entry.at)}
            </time>
          </li>
        ))}
      </ol>
    </section>
  )
}

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)
