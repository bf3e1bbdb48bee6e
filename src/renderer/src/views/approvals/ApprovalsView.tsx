import { useState } from 'react'
import './approvals.css'
import { useChannelQuery } from '../../data/channel-query'
import { useUi } from '../../stores/ui'
import { ErrorNotice } from '../../ui/atoms'
import { SkeletonRows } from '../../ui/view-states'
import { usePendingApprovals } from '../../data/pending-approvals'
import { useProduction } from './ConfirmTwice'
import { DecisionLog } from './DecisionLog'
import { ConnectGateForm, GateLinkStatus } from './GateLinkPanel'
import { NoGate } from './NoGate'
import { PreApprovals } from './PreApprovals'
import { Prompts } from './Prompts'
import { ReceiverInfoPanel } from './ReceiverInfoPanel'
import { RulesEditor } from './RulesEditor'

type Tab = 'prompts' | 'decisions' | 'pre-approvals' | 'receiver-info' | 'rules'

/**
 * Approvals as the approval gate the platform runs decides them (docs/gate.md): its link, the payments it holds for a
 * person, its decision log, pre-approvals, receiver information and the rules it decides by. Everything comes from the
 * gate's stream through main; nothing here reads transactions to guess what waits.
 */
export function ApprovalsView() {
  const link = useChannelQuery('gate.link', null)
  const focusId = useUi((s) => s.focusId)
  const waiting = usePendingApprovals()
  const production = useProduction()
  const [tab, setTab] = useState<Tab>('prompts')
  const [relinking, setRelinking] = useState(false)
  // A notification click opens the prompts, where that payment is (adjusting state when the focus changes, in render).
  const [seenFocusId, setSeenFocusId] = useState(focusId)
  if (focusId !== seenFocusId) {
    setSeenFocusId(focusId)
    if (focusId) setTab('prompts')
  }

  let body
  if (link.error && !link.data) body = <ErrorNotice error={link.error} onRetry={link.reload} />
  else if (!link.data) body = <SkeletonRows label="the approval gate" />
  else if (link.data.state === 'none') body = <NoGate />
  else {
    const tabs: [Tab, string][] = [
      ['prompts', `Waiting for you (${waiting})`],
      ['decisions', 'Decisions'],
      ['pre-approvals', 'Pre-approvals'],
      ['receiver-info', 'Receiver information'],
      ['rules', 'Rules']
    ]
    body = (
      <>
        <GateLinkStatus link={link.data} onRelink={() => setRelinking((r) => !r)} />
        {relinking && (
          <div className="panel">
            <ConnectGateForm onDone={() => setRelinking(false)} />
          </div>
        )}
        {/* The tab pattern: one tab in the Tab order, the arrow keys (and Home/End) move between them. */}
        <div
          className="tabs"
          role="tablist"
          aria-label="Approvals"
          onKeyDown={(e) => {
            const at = tabs.findIndex(([id]) => id === tab)
            const to =
              e.key === 'ArrowRight'
                ? at + 1
                : e.key === 'ArrowLeft'
                  ? at - 1
                  : e.key === 'Home'
                    ? 0
                    : e.key === 'End'
                      ? -1
                      : null
            if (to === null) return
            e.preventDefault()
            const index = (to + tabs.length) % tabs.length
            setTab(tabs[index]![0])
            e.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')[index]?.focus()
          }}
        >
          {tabs.map(([id, label]) => (
            <button
              key={id}
              role="tab"
              aria-selected={tab === id}
              tabIndex={tab === id ? 0 : -1}
              className={tab === id ? 'tab active' : 'tab'}
              onClick={() => setTab(id)}
            >
              {label}
            </button>
          ))}
        </div>
        <div role="tabpanel" aria-label={tabs.find(([id]) => id === tab)?.[1]}>
          {tab === 'prompts' && <Prompts production={production} />}
          {tab === 'decisions' && <DecisionLog />}
          {tab === 'pre-approvals' && <PreApprovals />}
          {tab === 'receiver-info' && <ReceiverInfoPanel />}
          {tab === 'rules' && <RulesEditor />}
        </div>
      </>
    )
  }
  return (
    <section className="page" aria-labelledby="approvals-title">
      <h1 id="approvals-title">Approvals</h1>
      {body}
    </section>
  )
}
