import { useState } from 'react'
import { SandboxSendRequest, type Transaction } from '../../../../shared/api'
import { formatMoney } from '../../../../shared/format/money'
import { formatClock } from '../../format/time'
import { useUi } from '../../stores/ui'
import { Id, StatusChip } from '../../ui/atoms'
import { Field } from '../../ui/Field'
import { amountMessage, amountOf, currencyOf, MoneyField } from '../../ui/MoneyField'
import { useFlatForm } from '../../ui/flat-form'
import { FailedAction, FormFrame } from '../../ui/form-submit'
import { FormErrors } from '../../ui/FormFields'
import { useChannelMutation, useChannelQuery } from '../../data/channel-query'
import { transactionTone } from '../../ui/status'
import { ActionResult } from '../../ui/view-states'

/**
 * Spec 4.13: the sandbox sends funds against an open quote, which executes it. The quote is picked from those this
 * Paydesk created that are still open (the service has no list of quotes); the amount defaults to the quote's.
 */
export function SendAgainstQuotePanel() {
  const go = useUi((s) => s.go)
  const open = useChannelQuery('quotes.open', null)
  const quotes = open.data?.quotes ?? []
  const sending = useChannelMutation('sandbox.send', { invalidates: ['quotes.open'] })
  const [sent, setSent] = useState<Transaction | null>(null)
  const quoteOf = (id: string | undefined) => quotes.find((q) => q.id === id) ?? quotes[0]
  const currencyOfQuote = (id: string | undefined) => {
    const sending = quoteOf(id)?.sendingCurrency
    return sending ? currencyOf(sending) : undefined
  }
  const form = useFlatForm(
    SandboxSendRequest,
    { quoteId: '', amount: '' },
    {
      toInput: (v) => {
        const quote = quoteOf(v['quoteId'])
        const amount = v['amount'] ?? ''
        return {
          quoteId: quote?.id,
          currencyCode: quote?.sendingCurrency?.code,
          ...(amount.trim() && { currencyAmount: amountOf(amount, currencyOfQuote(v['quoteId'])) })
        }
      },
      boxOf: (path) => (path === 'currencyAmount' ? 'amount' : path),
      // The amount is optional: an empty box sends the quote's own.
      checks: (v) => ({ amount: amountMessage(v['amount'] ?? '', currencyOfQuote(v['quoteId']), false) })
    }
  )
  const quote = quoteOf(form.values['quoteId'])
  const currency = currencyOfQuote(form.values['quoteId'])

  const send = async () => {
    const request = form.submit()
    if (!request) return
    const r = await sending.run(request)
    if (!r.ok) return
    setSent(r.value)
    form.reset({ quoteId: form.values['quoteId'] ?? '', amount: '' })
  }
  const busy = sending.busy

  return (
    <section className="panel form" aria-labelledby="send-quote-title">
      <h2 id="send-quote-title">Send funds against a quote</h2>
      {quotes.length === 0 ? (
        <p className="muted">No open quote. Get one in Quotes; it stays open here until it expires or is executed.</p>
      ) : (
        <FormFrame onSubmit={() => void send()}>
          <Field id="send-quote" label="Open quote">
            <select id="send-quote" value={quote?.id ?? ''} onChange={(e) => form.set('quoteId', e.target.value)}>
              {quotes.map((q) => {
                const c = q.sendingCurrency ? currencyOf(q.sendingCurrency) : undefined
                const amount =
                  c && q.totalSendingAmount !== undefined
                    ? formatMoney(q.totalSendingAmount, c, { showCode: true })
                    : ''
                return (
                  <option key={q.id} value={q.id}>
                    {amount} · expires {q.expiresAt ? formatClock(q.expiresAt) : '—'} · {q.id}
                  </option>
                )
              })}
            </select>
          </Field>
          <MoneyField form={form} name="amount" id="send-quote-amount" label="Amount (optional)" currency={currency} />
          <FormErrors messages={form.otherErrors(['amount'])} />
          <div className="row">
            <button type="submit" className="primary" disabled={busy}>
              {busy ? 'Sending…' : 'Send funds'}
            </button>
          </div>
        </FormFrame>
      )}
      <FailedAction error={sending.error} />
      {sent && (
        <ActionResult ok={true}>
          Funds sent: <Id value={sent.id} /> <StatusChip value={sent.status} tone={transactionTone(sent.status)} />{' '}
          <button className="link" onClick={() => go('transactions', sent.id)}>
            Open in Transactions
          </button>
        </ActionResult>
      )}
    </section>
  )
}
