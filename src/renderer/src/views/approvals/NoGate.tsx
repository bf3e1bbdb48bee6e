import type { Transaction } from '../../../../shared/api'
import { useChannelQuery } from '../../data/channel-query'
import { useUi } from '../../stores/ui'
import { LoadedTable, type TableColumn } from '../../ui/DataTable'
import { FAILURE_REASON_TEXT } from '../../ui/status'
import { TRANSACTION_COLUMNS } from '../transactions/transaction-columns'
import { ConnectGateForm } from './GateLinkPanel'

const reasonOf = (t: Transaction) => ('failureReason' in t ? String(t.failureReason ?? '') : '')

const FAILED_COLUMNS: TableColumn<Transaction>[] = [
  TRANSACTION_COLUMNS.amount,
  TRANSACTION_COLUMNS.customer,
  {
    key: 'reason',
    header: 'Why it failed',
    render: (t) => (
      <>
        {FAILURE_REASON_TEXT[reasonOf(t)] ?? 'The approval failed.'}
        <br />
        <code className="code">{reasonOf(t)}</code>
      </>
    )
  },
  TRANSACTION_COLUMNS.created
]

/**
 * A profile without a gate: the service asks only its platform's webhook, so Paydesk alone cannot approve anything.
 * Said plainly, with how to run the gate, a form to link one, and the payments that failed for want of an answer.
 * PENDING transactions are not listed: PENDING means the quote was created, never that a payment waits for approval.
 */
export function NoGate() {
  const go = useUi((s) => s.go)
  const failed = useChannelQuery('gate.failedApprovals', null)
  return (
    <>
      <div className="panel" data-testid="no-gate">
        <h2>Approvals need the approval gate your platform runs</h2>
        <p>
          The service asks your platform to approve an incoming payment only through a signed webhook that must be
          answered within 5 seconds. A desktop cannot receive it: the approval gate, a small server your platform runs,
          answers it from your rules at once and asks you when a rule says so. Paydesk then shows its prompts, decisions
          and rules here.
        </p>
        <ol>
          <li>
            Run the gate where the service can reach it: <code>npm run gate</code> (docs/gate.md: configuration, Docker
            and systemd).
          </li>
          <li>
            Add yourself as an operator: <code>npm run gate -- operator add NAME</code> prints your token once.
          </li>
          <li>Point the service’s webhook endpoint at the gate, then link it below.</li>
        </ol>
        <ConnectGateForm />
      </div>
      <div className="panel">
        <h2>Payments that failed for want of an approval</h2>
        <LoadedTable
          label="Payments that failed approval"
          columns={FAILED_COLUMNS}
          read={failed}
          rowsOf={(d) => d.transactions}
          // The transaction's id is one click away: the row opens it in Transactions.
          onOpen={(t) => go('transactions', t.id)}
          loadingLabel="failed approvals"
          empty={<p className="muted">No incoming payment has failed for an approval reason.</p>}
        />
      </div>
    </>
  )
}
