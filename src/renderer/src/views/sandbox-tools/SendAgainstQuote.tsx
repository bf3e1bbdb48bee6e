import { useState } from 'react'
import { SandboxSendRequest, type Transaction } from '../../../../shared/api'
import type { IpcError } from '../../../../shared/ipc/define'
import { formatMoney } from '../../../../shared/format/money'
import { paydesk } from '../../bridge/paydesk'
import { formatClock, TIME_ZONE } from '../../format/time'
import { useDataVersion } from '../../stores/data-version'
import { useUi } from '../../stores/ui'
import { Id, StatusChip } from '../../ui/atoms'
import { Field } from '../../ui/Field'
import { checkAmount, currencyOf, MoneyField } from '../../ui/MoneyField'
import { useChannel } from '../../ui/query'
import { transactionTone } from '../../ui/status'
import { ActionResult } from '../../ui/view-states'

/**
 * Spec 4.13: the sandbox sends funds against an open quote, which executes it. The quote is picked from those this
 * Paydesk created that are still open (the service has no list of quotes); the amount defaults to the quote's.
 */
export function SendAgainstQuotePanel() {
  const versions = useDataVersion((s) => s.versions)
  const go = useUi((s) => s.go)
  const [version, setVersion] = useState(0)
  const open = useChannel('quotes.open', null, version + versions.transactions)
  const quotes = open.data?.quotes ?? []
  const [quoteId, setQuoteId] = useState('')
  const [amountText, setAmountText] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<IpcError | null>(null)
  const [sent, setSent] = useState<Transaction | null>(null)
  const quote = quotes.find((q) => q.id === quoteId) ?? quotes[0]
  const currency = quote?.sendingCurrency ? currencyOf(quote.sendingCurrency) : undefined
  const check = amountText.trim() ? checkAmount(amountText, currency) : null

  const send = async () => {
    if (!quote?.sendingCurrency || (check && !check.ok)) return
    const parsed = SandboxSendRequest.safeParse({
      quoteId: quote.id,
      currencyCode: quote.sendingCurrency.code,
      ...(check?.ok && { currencyAmount: check.amount })
    })
    if (!parsed.success) {
      setError({ code: 'INVALID_INPUT', message: parsed.error.issues[0]?.message ?? 'Invalid request' })
      return
    }
    setBusy(true)
    const r = await paydesk.invoke('sandbox.send', parsed.data)
    setBusy(false)
    setVersion((v) => v + 1)
    if (!r.ok) {
      setError(r.error)
      return
    }
    setError(null)
    setSent(r.value)
    setAmountText('')
  }

  return (
    <section className="panel form" aria-labelledby="send-quote-title">
      <h2 id="send-quote-title">Send funds against a quote</h2>
      {quotes.length === 0 ? (
        <p className="muted">No open quote. Get one in Quotes; it stays open here until it expires or is executed.</p>
      ) : (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            void send()
          }}
        >
          <Field id="send-quote" label="Open quote">
            <select id="send-quote" value={quote?.id ?? ''} onChange={(e) => setQuoteId(e.target.value)}>
              {quotes.map((q) => {
                const c = q.sendingCurrency ? currencyOf(q.sendingCurrency) : undefined
                const amount =
                  c && q.totalSendingAmount !== undefined
                    ? formatMoney(q.totalSendingAmount, c, { showCode: true })
                    : ''
                return (
                  <option key={q.id} value={q.id}>
                    {amount} · expires {q.expiresAt ? `${formatClock(q.expiresAt)} (${TIME_ZONE})` : '—'} · {q.id}
                  </option>
                )
              })}
            </select>
          </Field>
          <MoneyField
            id="send-quote-amount"
            label="Amount (optional)"
            currency={currency}
            value={amountText}
            onChange={setAmountText}
            check={check}
            showError={true}
          />
          <div className="row">
            <button type="submit" className="primary" disabled={busy}>
              {busy ? 'Sending…' : 'Send funds'}
            </button>
          </div>
        </form>
      )}
      {error && (
        <ActionResult ok={false} code={error.serviceCode ?? error.code}>
          {error.message}
        </ActionResult>
      )}
      {sent && (
        <ActionResult ok={true}>
          Funds sent: <Id value={sent.id} />{' '}
          <StatusChip value={sent.status} tone={transactionTone(sent.status, sent.type)} />{' '}
          <button className="link" onClick={() => go('transactions', sent.id)}>
            Open in Transactions
          </button>
        </ActionResult>
      )}
    </section>
  )
}
