import { useState } from 'react'
import { ACTION_KIND_LABELS, ACTION_KINDS, type ActionEntry, type ActionKind } from '../../../../shared/action-log'
import { useChannelQuery } from '../../data/channel-query'
import { formatDateTime } from '../../format/time'
import { ErrorNotice, Id } from '../../ui/atoms'
import { SkeletonRows } from '../../ui/view-states'
import './history.css'

/** How each outcome reads, with the chip colour of its meaning (design/ui.md). */
const OUTCOME: Record<ActionEntry['outcome'], { text: string; tone: string }> = {
  done: { text: 'Done', tone: 'good' },
  refused: { text: 'Not done', tone: 'bad' },
  unknown: { text: 'Outcome unknown', tone: 'waiting' }
}

/**
 * Every manual approve, reject and edit sent on this profile, newest first, from Paydesk's own log (main's
 * action-log.ts): what it was with the names as they were then, how it ended, the reason the operator gave, and the
 * ids one copy-click away. Asked again each time the view opens.
 */
export function HistoryView() {
  const query = useChannelQuery('history.actions', null)
  const [kind, setKind] = useState<ActionKind | 'all'>('all')
  let body
  if (query.error && !query.data) body = <ErrorNotice error={query.error} onRetry={query.reload} />
  else if (!query.data) body = <SkeletonRows label="the history" />
  else {
    const shown = query.data.entries.filter((e) => kind === 'all' || e.kind === kind)
    body = (
      <>
        <div className="history-filters">
          <label htmlFor="history-kind">Show</label>
          <select id="history-kind" value={kind} onChange={(e) => setKind(e.target.value as ActionKind | 'all')}>
            <option value="all">Every action</option>
            {ACTION_KINDS.map((k) => (
              <option key={k} value={k}>
                {ACTION_KIND_LABELS[k]}
              </option>
            ))}
          </select>
          <span className="muted">
            {shown.length} of {query.data.entries.length}
          </span>
        </div>
        {shown.length === 0 ? (
          <p className="state">
            {query.data.entries.length === 0
              ? 'No manual actions yet. Approvals, rejections and edits you make here are listed with the reason you give.'
              : 'No action of this kind.'}
          </p>
        ) : (
          <ol className="action-log" aria-label="Manual actions, newest first">
            {shown.map((e) => (
              <ActionRow key={e.id} entry={e} />
            ))}
          </ol>
        )}
      </>
    )
  }
  return (
    <section className="page" aria-labelledby="history-title">
      <h1 id="history-title">History</h1>
      <p className="muted">
        The approvals, rejections and edits sent from Paydesk on this profile, as Paydesk logged them.
      </p>
      {body}
    </section>
  )
}

function ActionRow({ entry: e }: { entry: ActionEntry }) {
  const outcome = OUTCOME[e.outcome]
  return (
    <li data-testid="action-entry">
      <div className="row">
        <time dateTime={e.at} className="muted">
          {formatDateTime(e.at)}
        </time>
        <span className={`chip chip-${outcome.tone}`}>{outcome.text}</span>
        <span className="muted">{ACTION_KIND_LABELS[e.kind]}</span>
      </div>
      <div>{e.what}</div>
      {e.message && (
        <div className="muted">
          {e.message} {e.code && <code className="code">{e.code}</code>}
        </div>
      )}
      <p className="reason">
        {e.reason ? (
          <>
            <span className="muted">Reason: </span>
            {e.reason}
          </>
        ) : (
          <span className="muted">No reason given</span>
        )}
      </p>
      {e.ids.length > 0 && (
        <div className="row">
          {e.ids.map((id) => (
            <Id key={id} value={id} />
          ))}
        </div>
      )}
    </li>
  )
}
