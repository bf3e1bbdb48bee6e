import type { InternalAccount } from '../../../../shared/api'
import type { TransferRecord } from '../../../../shared/ipc/channels/data'
import { useUi } from '../../stores/ui'
import { ErrorNotice, Id, Money, StatusChip, Time } from '../../ui/atoms'
import { useChannel } from '../../ui/query'
import { transactionTone, type Tone } from '../../ui/status'
import { SkeletonRows } from '../../ui/view-states'
import type { ResumeTransfer } from './SendMoney'

/** Whether the outcome of a transfer is known, in the design's tones. */
const STATE: Record<TransferRecord['state'], { text: string; tone: Tone; title: string }> = {
  sent: { text: 'Known', tone: 'good', title: 'The service answered with a transaction.' },
  refused: { text: 'Refused', tone: 'bad', title: 'The service refused it; no money moved.' },
  unknown: {
    text: 'Unknown',
    tone: 'waiting',
    title: 'No answer arrived: it may or may not have gone out. Retrying with the same key is safe.'
  },
  prepared: { text: 'Not sent', tone: 'waiting', title: 'Prepared but never sent (Paydesk stopped first). Retrying is safe.' }
}

/** Transfers started from this Paydesk (the crash-safe journal), newest first, with whether their outcome is known. */
export function TransferJournal(props: { version: number; accounts: InternalAccount[]; onResume(resume: ResumeTransfer): void }) {
  const go = useUi((s) => s.go)
  const journal = useChannel('transfers.journal', null, props.version)
  const records = journal.data?.records ?? []
  const byId = new Map<string, InternalAccount>(props.accounts.map((a) => [a.id, a]))
  return (
    <section className="journal" aria-labelledby="journal-title">
      <h2 id="journal-title">Transfers from this Paydesk</h2>
      {journal.loading && !journal.data ? (
        journal.error ? <ErrorNotice error={journal.error} onRetry={journal.reload} /> : <SkeletonRows label="transfers" />
      ) : records.length === 0 ? (
        <p className="muted">No transfers sent from this Paydesk on this profile yet. Use Send money to pay out from an internal account.</p>
      ) : (
        <div className="scroll-table">
          <table className="table compact" aria-label="Transfers from this Paydesk">
            <thead>
              <tr>
                <th>Started</th>
                <th className="num">Amount</th>
                <th>To</th>
                <th>Outcome</th>
                <th>Transaction</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {records.map((r) => {
                const source = byId.get(r.sourceAccountId)
                const state = STATE[r.state]
                return (
                  <tr key={r.actionId}>
                    <td>
                      <Time iso={r.createdAt} />
                    </td>
                    <td className="num">
                      {source ? (
                        <Money amount={r.amount} currency={source.balance.currency} showCode />
                      ) : (
                        <span className="money">{r.amount} minor units</span>
                      )}
                    </td>
                    <td>
                      <Id value={r.destinationAccountId} />
                    </td>
                    <td title={`${state.title}${r.lastError ? ` Last error: ${r.lastError}` : ''} (${r.attempts} attempt${r.attempts === 1 ? '' : 's'})`}>
                      <StatusChip value={state.text} tone={state.tone} />
                      {r.lastError && r.state !== 'sent' && <span className="journal-error"> {r.lastError}</span>}
                    </td>
                    <td>
                      {r.transactionId ? (
                        <span className="row nowrap">
                          <button className="link" onClick={() => go('transactions', r.transactionId ?? null)} aria-label={`Open transaction ${r.transactionId}`}>
                            <span className="mono">…{r.transactionId.slice(-4)}</span>
                          </button>
                          {r.transactionStatus && <StatusChip value={r.transactionStatus} tone={transactionTone(r.transactionStatus, 'OUTGOING')} />}
                        </span>
                      ) : (
                        <span className="muted">—</span>
                      )}
                    </td>
                    <td>
                      {(r.state === 'unknown' || r.state === 'prepared') && (
                        <button
                          onClick={() =>
                            props.onResume({
                              actionId: r.actionId,
                              sourceAccountId: r.sourceAccountId,
                              destinationAccountId: r.destinationAccountId,
                              amount: r.amount
                            })
                          }
                        >
                          Review and retry
                        </button>
                      )}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
