import { useState } from 'react'
import { useChannelQuery } from '../../data/channel-query'
import { useUi } from '../../stores/ui'
import { ErrorNotice, Id, Money } from '../../ui/atoms'
import { ActionResult, EmptyState, SkeletonRows } from '../../ui/view-states'
import { amountsByTransaction, describeActor, describeEvent } from './gate-text'
import { PromptCard } from './PromptCard'

/**
 * The payments the gate holds for a person, earliest fallback first, each with its own countdown; and the latest
 * decisions under them, so a prompt that ran out (the fallback decided) is told, not just gone.
 */
export function Prompts({ production }: { production: boolean }) {
  const focusId = useUi((s) => s.focusId)
  const query = useChannelQuery('gate.prompts', null)
  const [outcome, setOutcome] = useState<string | null>(null)
  const prompts = query.data?.prompts
  const focusGone = !!focusId && !!prompts && !prompts.some((p) => p.transactionId === focusId)
  return (
    <>
      {outcome && (
        <div data-testid="approval-outcome">
          <ActionResult ok>{outcome}</ActionResult>
        </div>
      )}
      {query.error && !prompts ? (
        <ErrorNotice error={query.error} onRetry={query.reload} />
      ) : !prompts ? (
        <SkeletonRows label="prompts" />
      ) : prompts.length === 0 ? (
        <EmptyState title="Nothing is waiting for you.">
          When a rule says “ask an operator”, the payment appears here with its countdown, and a notification tells you.
        </EmptyState>
      ) : (
        <div className="prompts" aria-label="Payments waiting for you" role="region">
          {prompts.map((p) => (
            <PromptCard
              key={p.transactionId}
              prompt={p}
              production={production}
              focused={p.transactionId === focusId}
              onDecided={setOutcome}
            />
          ))}
        </div>
      )}
      {focusGone && !outcome && (
        <p className="muted" role="status">
          Payment <Id value={focusId} /> is not waiting for you: the gate decided it, or never asked. Its decision is
          below and under Decisions.
        </p>
      )}
      <RecentDecisions />
    </>
  )
}

/** The latest decisions, whoever made them: the operator sees a fallback's rejection where the prompt was. */
function RecentDecisions() {
  const log = useChannelQuery('gate.log', { limit: 50 })
  const events = log.data?.events ?? []
  const amounts = amountsByTransaction(events)
  const decisions = events.filter((e) => e.kind === 'decision').slice(0, 5)
  if (decisions.length === 0) return null
  return (
    <div className="panel" aria-labelledby="recent-decisions">
      <h2 id="recent-decisions">Latest decisions</h2>
      <ul className="plain" data-testid="recent-decisions">
        {decisions.map((e) => {
          const line = describeEvent(e, amounts)
          return (
            <li key={e.seq}>
              <strong>{line.what}</strong>{' '}
              {line.amount && (
                <Money
                  amount={line.amount.amount}
                  currency={{ code: line.amount.code, decimals: line.amount.decimals }}
                  showCode
                />
              )}{' '}
              by {describeActor(e.actor)}: {line.detail} <Id value={line.transactionId} />
            </li>
          )
        })}
      </ul>
    </div>
  )
}
