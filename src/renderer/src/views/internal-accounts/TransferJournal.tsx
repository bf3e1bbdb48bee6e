import type { ExternalAccount, InternalAccount } from '../../../../shared/api'
import { holdsItsPayment, isUnresolvedTransfer, type TransferRecord } from '../../../../shared/ipc/channels/data'
import { useUi } from '../../stores/ui'
import { ErrorNotice, Id, Money, StatusChip, Time } from '../../ui/atoms'
import { useChannelQuery } from '../../data/channel-query'
import { type Tone } from '../../ui/status'
import { PaymentStatus } from '../../ui/PaymentStatus'
import { SkeletonRows } from '../../ui/view-states'
import { accountTypeName, holderName, lastDigits } from '../external-accounts/describe'
import type { ResumeTransfer } from './SendMoney'
import { JournalTable, type TableColumn } from '../../ui/DataTable'

/** Whether the outcome of a transfer is known, in the design's tones. */
const STATE: Record<TransferRecord['state'], { text: string; tone: Tone; title: string }> = {
  sent: { text: 'Known', tone: 'good', title: 'The service answered with a transaction.' },
  refused: { text: 'Refused', tone: 'bad', title: 'The service refused it; no money moved.' },
  unknown: {
    text: 'Unknown',
    tone: 'waiting',
    title: 'No answer arrived: it may or may not have gone out. A retry looks it up at the service first.'
  },
  prepared: {
    text: 'Not sent',
    tone: 'waiting',
    title:
      'Not known to have reached the service. Retrying is safe; until then no other transfer can make this payment.'
  },
  superseded: {
    text: 'Sent again',
    tone: 'neutral',
    title: 'Its outcome stayed unknown; a check at the service found nothing and it was sent again as a new payment.'
  }
}

/** Whether a transfer's outcome is known; one that still holds its payment offers its retry. */
function Outcome({ record: r, onResume }: { record: TransferRecord; onResume(resume: ResumeTransfer): void }) {
  if (r.state === 'sent' && r.transactionStatus)
    return (
      <span className="row nowrap">
        <PaymentStatus status={r.transactionStatus} noun="Transfer" />
        <span className="mono muted" aria-label={`Transaction ${r.transactionId}`}>
          …{r.transactionId?.slice(-4)}
        </span>
      </span>
    )
  const state = STATE[r.state]
  return (
    <span className="row nowrap">
      <StatusChip value={state.text} tone={state.tone} />
      {holdsItsPayment(r) && (
        <button
          onClick={(e) => {
            e.stopPropagation()
            onResume({
              actionId: r.actionId,
              sourceAccountId: r.sourceAccountId,
              destinationAccountId: r.destinationAccountId,
              amount: r.amount
            })
          }}
        >
          Review and retry
        </button>
      )}
    </span>
  )
}

/** Transfers started from this Paydesk (the crash-safe journal), newest first, with whether their outcome is known. */
export function TransferJournal(props: {
  accounts: InternalAccount[]
  customerNames: Map<string, string>
  onResume(resume: ResumeTransfer): void
}) {
  const go = useUi((s) => s.go)
  const journal = useChannelQuery('transfers.journal', null)
  // Quote executions share the journal; they are reviewed and retried from Quotes.
  const records = (journal.data?.records ?? []).filter((r) => (r.kind ?? 'transfer-out') === 'transfer-out')
  const destinations = useChannelQuery('externalAccounts.query', { limit: 500 }, { enabled: records.length > 0 })
  const byId = new Map<string, InternalAccount>(props.accounts.map((a) => [a.id, a]))
  const destinationById = new Map<string, ExternalAccount>((destinations.data?.rows ?? []).map((a) => [a.id, a]))
  const columns: TableColumn<TransferRecord>[] = [
    { key: 'started', header: 'Started', render: (r) => <Time iso={r.createdAt} /> },
    {
      key: 'amount',
      header: 'Amount',
      numeric: true,
      render: (r) => {
        const source = byId.get(r.sourceAccountId)
        return source ? (
          <Money amount={r.amount} currency={source.balance.currency} showCode />
        ) : (
          <span className="money">{r.amount} minor units</span>
        )
      }
    },
    {
      key: 'to',
      header: 'To',
      title: (r) => r.destinationAccountId,
      render: (r) => {
        const destination = destinationById.get(r.destinationAccountId)
        return destination ? (
          <>
            {holderName(destination) ?? accountTypeName(destination.accountInfo.accountType)}{' '}
            <span className="mono">{lastDigits(destination)}</span>
          </>
        ) : (
          <Id value={r.destinationAccountId} />
        )
      }
    },
    {
      key: 'outcome',
      header: 'Outcome',
      title: (r) =>
        `${STATE[r.state].title}${r.lastError ? ` Last error: ${r.lastError}` : ''} (${r.attempts} attempt${r.attempts === 1 ? '' : 's'})`,
      render: (r) => <Outcome record={r} onResume={props.onResume} />
    }
  ]
  return (
    <section className="journal" aria-labelledby="journal-title">
      <h2 id="journal-title">Transfers from this Paydesk</h2>
      {journal.loading && !journal.data ? (
        journal.error ? (
          <ErrorNotice error={journal.error} onRetry={journal.reload} />
        ) : (
          <SkeletonRows label="transfers" />
        )
      ) : records.length === 0 ? (
        <p className="muted">
          No transfers sent from this Paydesk on this profile yet. Use Send money to pay out from an internal account.
        </p>
      ) : (
        <JournalTable
          label="Transfers from this Paydesk"
          columns={columns}
          rows={records}
          onOpen={(r) => r.transactionId && go('transactions', r.transactionId)}
          canOpen={(r) => !!r.transactionId}
        />
      )}
      {records.some(isUnresolvedTransfer) && (
        <p className="hint hint-waiting">
          Some transfers have no known outcome, and until each is settled no other transfer can make the same payment.
          “Review and retry” looks it up at the service first: if the service shows it, you settle it with what was
          found; if not, it is retried with the same key.
        </p>
      )}
    </section>
  )
}
