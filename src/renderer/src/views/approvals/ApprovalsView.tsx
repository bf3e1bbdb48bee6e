import { useState } from 'react'
import type { ApprovalItem } from '../../../../shared/ipc/channels/approvals'
import { useUi } from '../../stores/ui'
import { ErrorNotice, Id, Money, Time } from '../../ui/atoms'
import { useListKeys } from '../../ui/list-keys'
import { useChannelQuery } from '../../data/channel-query'
import { Freshness } from '../../ui/view-states'
import { ApprovalForm } from './ApprovalForm'
import { Deadline } from './Deadline'
import { DecisionsLog } from './DecisionsLog'
import { RulesEditor } from './RulesEditor'

type Tab = 'queue' | 'rules' | 'decisions'

export function ApprovalsView() {
  const focusId = useUi((s) => s.focusId)
  const [tab, setTab] = useState<Tab>('queue')
  const [selectedId, setSelectedId] = useState<string | null>(focusId)
  const [decided, setDecided] = useState<string | null>(null)
  const query = useChannelQuery('approvals.list', null)
  const items = query.data?.items ?? []

  // A notification click opens exactly that approval (adjusting state when the focus changes, during render).
  const [seenFocusId, setSeenFocusId] = useState(focusId)
  if (focusId !== seenFocusId) {
    setSeenFocusId(focusId)
    if (focusId) {
      setTab('queue')
      setDecided(null)
      setSelectedId(focusId)
    }
  }

  const selectedIndex = items.findIndex((i) => i.transaction.id === selectedId)
  useListKeys({
    count: items.length,
    selected: selectedIndex,
    select: (i) => {
      if (!items[i]) return
      setDecided(null)
      setSelectedId(items[i].transaction.id)
    },
    close: () => setSelectedId(null)
  })
  const selected = items[selectedIndex]

  return (
    <section className="page" aria-labelledby="approvals-title">
      <h1 id="approvals-title">Approvals</h1>
      <div className="tabs" role="tablist" aria-label="Approvals">
        {(
          [
            ['queue', `Waiting (${items.length})`],
            ['rules', 'Approval rules'],
            ['decisions', 'Automatic decisions']
          ] as const
        ).map(([id, label]) => (
          <button
            key={id}
            role="tab"
            aria-selected={tab === id}
            className={tab === id ? 'tab active' : 'tab'}
            onClick={() => setTab(id)}
          >
            {label}
          </button>
        ))}
      </div>
      {tab === 'rules' && <RulesEditor />}
      {tab === 'decisions' && <DecisionsLog />}
      {tab === 'queue' && (
        <div className="list-detail">
          <div className="list-pane">
            <div className="list-meta">
              <span>Incoming payments waiting for a decision, soonest deadline first.</span>
              <Freshness syncedAt={query.data?.syncedAt ?? null} />
            </div>
            {query.error && !query.data ? (
              <ErrorNotice error={query.error} onRetry={query.reload} />
            ) : query.loading ? (
              <div className="skeleton-rows" aria-busy="true" aria-label="Loading approvals" />
            ) : items.length === 0 ? (
              <div className="state">
                <p>Nothing is waiting for approval. New incoming payments raise a notification and appear here.</p>
                <button onClick={() => setTab('rules')}>Set up approval rules</button>
              </div>
            ) : (
              <table className="table" aria-label="Payments waiting for approval">
                <thead>
                  <tr>
                    <th className="num">Amount</th>
                    <th>From</th>
                    <th>Customer</th>
                    <th>Deadline</th>
                    <th>Seen</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((item) => (
                    <ApprovalRow
                      key={item.transaction.id}
                      item={item}
                      selected={item.transaction.id === selectedId}
                      onSelect={() => {
                        setDecided(null)
                        setSelectedId(item.transaction.id)
                      }}
                    />
                  ))}
                </tbody>
              </table>
            )}
          </div>
          <aside className="detail-pane" aria-label="Approval">
            {selected ? (
              <ApprovalForm
                key={selected.transaction.id}
                item={selected}
                onDecided={(message) => {
                  setDecided(message)
                  setSelectedId(null)
                }}
              />
            ) : decided ? (
              <p className="result result-ok" role="status" data-testid="approval-outcome">
                {decided}
              </p>
            ) : selectedId && query.data ? (
              <div className="state">
                <p>
                  This payment is no longer waiting for approval. See it under Transactions: <Id value={selectedId} />
                </p>
              </div>
            ) : (
              <p className="muted">Select a payment to approve or reject it.</p>
            )}
          </aside>
        </div>
      )}
    </section>
  )
}

function ApprovalRow({ item, selected, onSelect }: { item: ApprovalItem; selected: boolean; onSelect(): void }) {
  const t = item.transaction
  const sender =
    t.source?.umaAddress ?? t.source?.accountId ?? (t.counterpartyInformation?.['FULL_NAME'] as string | undefined)
  return (
    <tr aria-selected={selected} onClick={onSelect} className="clickable">
      <td className="num">
        <Money amount={t.receivedAmount.amount} currency={t.receivedAmount.currency} showCode />
      </td>
      <td className="mono">{sender ?? '—'}</td>
      <td>{item.customer?.fullName ?? <Id value={t.customerId} />}</td>
      <td>
        <Deadline iso={item.deadline} />
      </td>
      <td>
        <Time iso={item.firstSeenAt} />
      </td>
    </tr>
  )
}
