import { useState } from 'react'
import type { Quote, QuoteCreateRequest } from '../../../../shared/api'
import { holdsItsPayment, paymentIntentKeys, type TransferRecord } from '../../../../shared/ipc/channels/data'
import { useActiveProfile } from '../../data/profiles'
import { useUi } from '../../stores/ui'
import { ErrorNotice, Id, StatusChip, Time } from '../../ui/atoms'
import { useChannelMutation, useChannelQuery } from '../../data/channel-query'
import { useCustomerNames } from '../customers/names'
import { PaymentStatus } from '../../ui/PaymentStatus'
import { EmptyState, Freshness, SkeletonRows } from '../../ui/view-states'
import { describeAccount } from '../external-accounts/describe'
import { JournalTable, type TableColumn } from '../../ui/DataTable'
import { QuoteForm } from './QuoteForm'
import { QuoteReview } from './QuoteReview'

const OUTCOME: Record<TransferRecord['state'], string> = {
  sent: 'Known',
  refused: 'Refused',
  unknown: 'Unknown',
  prepared: 'Not sent',
  superseded: 'Sent again'
}

/** Quotes: ask for one, review it against its expiry, execute it once; and the executions started from this Paydesk. */
export function QuotesView() {
  const production = useActiveProfile()?.environment === 'production'
  const focusId = useUi((s) => s.focusId)
  const accounts = useChannelQuery('internalAccounts.list', { scope: 'all' })
  const { names: customerNames } = useCustomerNames()
  const journal = useChannelQuery('transfers.journal', null)
  const externals = useChannelQuery('externalAccounts.query', { limit: 500 })
  const executions = (journal.data?.records ?? []).filter((r) => r.kind === 'quote-execute')
  // The requests whose execution has no known outcome yet: the form will not ask for another quote for them.
  const heldRequests = new Set(executions.filter(holdsItsPayment).flatMap(paymentIntentKeys))

  const [request, setRequest] = useState<QuoteCreateRequest | null>(null)
  const [open, setOpen] = useState<{ quote: Quote; actionId: string; resumed: boolean } | null>(null)
  const creating = useChannelMutation('quotes.create')
  const reopening = useChannelMutation('quotes.get')
  const busy = creating.busy
  const error = creating.error ?? reopening.error

  const ask = async (next: QuoteCreateRequest) => {
    reopening.clear()
    setRequest(next)
    const r = await creating.run(next)
    if (!r.ok) return
    // One operator action per reviewed quote: its key is made now and kept for every retry of this execution.
    setOpen({ quote: r.value.quote, actionId: crypto.randomUUID(), resumed: false })
  }

  const resume = async (record: TransferRecord) => {
    if (!record.quoteId) return
    creating.clear()
    const r = await reopening.run({ quoteId: record.quoteId as `Quote:${string}` })
    if (!r.ok) return
    setOpen({ quote: r.value.quote, actionId: record.actionId, resumed: true })
  }

  const executionColumns: TableColumn<TransferRecord>[] = [
    { key: 'started', header: 'Started', render: (r) => <Time iso={r.createdAt} /> },
    { key: 'quote', header: 'Quote', render: (r) => <Id value={r.quoteId} /> },
    {
      key: 'outcome',
      header: 'Outcome',
      render: (r) => (
        <StatusChip
          value={OUTCOME[r.state]}
          tone={r.state === 'sent' ? 'good' : r.state === 'refused' ? 'bad' : 'waiting'}
        />
      )
    },
    {
      key: 'payment',
      header: 'Payment',
      render: (r) =>
        r.transactionStatus ? (
          <PaymentStatus status={r.transactionStatus} noun="Quote payment" />
        ) : (
          <span className="muted">—</span>
        )
    },
    {
      key: 'action',
      header: 'Action',
      hiddenHeader: true,
      render: (r) => holdsItsPayment(r) && <button onClick={() => void resume(r)}>Review and retry</button>
    }
  ]

  const rows = accounts.data?.rows ?? null
  return (
    <section className="page" aria-labelledby="quotes-title">
      <div className="page-head">
        <h1 id="quotes-title">Quotes</h1>
        {accounts.data && <Freshness syncedAt={accounts.data.syncedAt} />}
      </div>
      <p className="muted page-intro">
        A quote fixes the rate and fees of a payment for a few minutes. Review it, then execute it before it expires.
      </p>
      {accounts.error && <ErrorNotice error={accounts.error} onRetry={accounts.reload} />}
      <div className="two-panels">
        <div className="panel">
          {rows === null ? (
            <SkeletonRows label="internal accounts" />
          ) : rows.length === 0 ? (
            <EmptyState title="No internal account to pay from." />
          ) : (
            <QuoteForm
              accounts={rows}
              initialSourceId={focusId?.startsWith('InternalAccount:') ? focusId : null}
              customerNames={customerNames}
              busy={busy}
              heldRequests={heldRequests}
              error={open ? null : error}
              onSubmit={(r) => void ask(r)}
            />
          )}
        </div>
        <div className="panel" data-testid="quote-review">
          {open ? (
            <QuoteReview
              key={`${open.quote.id}:${open.actionId}`}
              quote={open.quote}
              actionId={open.actionId}
              resumed={open.resumed}
              production={production}
              source={rows?.find((a) => a.id === open.quote.source?.accountId)}
              destinationName={(() => {
                const a = externals.data?.rows.find((r) => r.id === open.quote.destination?.accountId)
                return a ? `${describeAccount(a)} · ${a.currency}` : undefined
              })()}
              renewing={busy}
              onNewQuote={() => request && void ask(request)}
              onClose={() => setOpen(null)}
            />
          ) : (
            <p className="muted">Ask for a quote to see its rate, fees and totals here.</p>
          )}
          {open && error && <ErrorNotice error={error} />}
        </div>
      </div>
      <section className="journal" aria-labelledby="quote-journal-title">
        <h2 id="quote-journal-title">Quotes executed from this Paydesk</h2>
        {executions.length === 0 ? (
          <p className="muted">None yet on this profile.</p>
        ) : (
          <JournalTable label="Quotes executed from this Paydesk" columns={executionColumns} rows={executions} />
        )}
      </section>
    </section>
  )
}
