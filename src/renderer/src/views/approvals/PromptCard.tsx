import { useEffect, useRef, useState } from 'react'
import type { Prompt } from '../../../../shared/gate'
import { ReceiverCustomerInfo } from '../../../../shared/approval-rules'
import { formatMoney } from '../../../../shared/format/money'
import { useChannelMutation, useChannelQuery } from '../../data/channel-query'
import { Id, Money } from '../../ui/atoms'
import { FormErrors, revealFirstError } from '../../ui/FormFields'
import { useFlatForm } from '../../ui/flat-form'
import { FailedAction, FormFrame } from '../../ui/form-submit'
import { useNow } from '../../ui/view-states'
import { PRODUCTION_REJECT_NEEDS_REASON } from '../../../../shared/action-log'
import { ReasonField, reasonInput } from '../history/ReasonField'
import { ConfirmTwice } from './ConfirmTwice'
import { fallbackText, missingMandatory } from './gate-text'
import { boxKeys, fieldLabel, isAddressField, ReceiverInfoFields } from './receiver-fields'

/** A prompt's amount in its own decimals, formatted here at the edge. */
export const promptAmount = (p: Pick<Prompt, 'amount' | 'currency' | 'decimals'>) =>
  formatMoney(p.amount, { code: p.currency, decimals: p.decimals }, { showCode: true })

/** The customer's name from the cache when it is known; the id stays one copy-click away. */
function CustomerName({ id }: { id: string | null }) {
  const known = useChannelQuery(
    'customers.get',
    { id: id as `Customer:${string}` },
    { enabled: !!id?.startsWith('Customer:') }
  )
  if (!id) return <span className="muted">unknown</span>
  const name = known.data?.customer?.fullName ?? known.data?.customer?.platformCustomerId
  return (
    <span className="row">
      {name && <span>{name}</span>}
      <Id value={id} />
    </span>
  )
}

/**
 * One payment the gate holds for a person: its countdown to the fallback, who it is from and for, the fields the sender
 * asked for and which the gate will send, boxes for the mandatory ones it lacks, and Approve / Reject before the
 * deadline. On a production profile the operator ticks a second confirmation first.
 */
export function PromptCard(props: {
  prompt: Prompt
  production: boolean
  focused: boolean
  onDecided(message: string): void
}) {
  const { prompt, production } = props
  const now = useNow(250)
  // Fields the gate refused an Approve for (a 422) that the prompt said it had: boxes for them too.
  const [refused, setRefused] = useState<string[]>([])
  const missing = [...new Set([...missingMandatory(prompt), ...refused])]
  const form = useFlatForm(ReceiverCustomerInfo, {})
  const formRef = useRef<HTMLFormElement>(null)
  const [reveal, setReveal] = useState(0)
  useEffect(() => {
    if (reveal > 0) revealFirstError(formRef.current)
  }, [reveal])
  const [reason, setReason] = useState('')
  // A production rejection refuses a real payment for good: it keeps its reason (main refuses one without).
  const [reasonNeeded, setReasonNeeded] = useState(false)
  const [confirmed, setConfirmed] = useState(false)
  const answering = useChannelMutation('gate.answer', { invalidates: ['gate.prompts', 'gate.log'] })
  const amountText = promptAmount(prompt)
  const headingId = `prompt-${prompt.transactionId.replace(/\W+/g, '-')}`

  const answer = async (action: 'approve' | 'reject') => {
    let info: ReceiverCustomerInfo | undefined
    if (action === 'approve' && missing.length > 0) {
      const filled = form.submit()
      if (!filled) return setReveal((n) => n + 1)
      info = filled
    }
    if (action === 'reject' && production && !reason.trim()) {
      setReasonNeeded(true)
      return setReveal((n) => n + 1)
    }
    const result = await answering.run({
      transactionId: prompt.transactionId as `Transaction:${string}`,
      answer:
        action === 'approve'
          ? { action, ...(info && { receiverCustomerInfo: info }) }
          : // The gate keeps a rejection's reason too, up to its own length.
            { action, ...(reason.trim() && { reason: reason.trim().slice(0, 200) }) },
      ...reasonInput(reason),
      ...(production && { confirmProduction: true })
    })
    if (result.ok) return props.onDecided(`${action === 'approve' ? 'Approved' : 'Rejected'} ${amountText}.`)
    const fieldErrors = result.error.fieldErrors
    if (action !== 'approve' || !fieldErrors) return
    // The gate's 422, mapped by main (src/shared/gate/errors.ts): each missing field's message at its box, an
    // address's at its first line.
    setRefused((was) => [...new Set([...was, ...Object.keys(fieldErrors)])])
    form.setServerErrors(
      Object.fromEntries(
        Object.entries(fieldErrors).map(([name, messages]) => [isAddressField(name) ? `${name}.line1` : name, messages])
      )
    )
    setReveal((n) => n + 1)
  }

  return (
    <article
      className={props.focused ? 'panel prompt focused' : 'panel prompt'}
      aria-labelledby={headingId}
      data-testid="prompt"
    >
      <div className="panel-head">
        <h2 id={headingId}>
          Incoming{' '}
          <Money amount={prompt.amount} currency={{ code: prompt.currency, decimals: prompt.decimals }} showCode />
        </h2>
        <span className="deadline deadline-soon" role="timer" aria-live="off" data-testid="prompt-countdown">
          {fallbackText(prompt, now)}
        </span>
      </div>
      {/* Facts beside the answer, not above it: the card stays short and its buttons clear of the corner's notices. */}
      <div className="prompt-body">
        <dl className="facts">
          <dt>Payment</dt>
          <dd>
            <Id value={prompt.transactionId} />
          </dd>
          <dt>From</dt>
          <dd className="mono">{prompt.sender ?? '—'}</dd>
          <dt>For customer</dt>
          <dd>
            <CustomerName id={prompt.customerId} />
          </dd>
          <dt>Why you are asked</dt>
          <dd>{prompt.reasons.join(' ') || 'No rule decides this payment.'}</dd>
          <dt>Requested fields</dt>
          <dd>
            {prompt.requestedFields.length === 0 ? (
              'None'
            ) : (
              <ul className="plain" aria-label="Requested fields">
                {prompt.requestedFields.map((f) => (
                  <li key={f.name}>
                    {fieldLabel(f.name)} {f.mandatory ? '(mandatory)' : '(optional)'}:{' '}
                    {prompt.availableFields.includes(f.name) && !refused.includes(f.name) ? (
                      <span className="chip chip-good">the gate will send it</span>
                    ) : f.mandatory ? (
                      <span className="chip chip-bad">missing: fill it in below</span>
                    ) : (
                      <span className="chip chip-neutral">not known, not sent</span>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </dl>
        <FormFrame
          formRef={formRef}
          className="form"
          label={`Approve ${amountText}`}
          onSubmit={() => void answer('approve')}
        >
          {missing.length > 0 && (
            <>
              <p>The sender requires these fields and the gate has no value for them: fill them in to approve.</p>
              <ReceiverInfoFields form={form} prefix={`fill-${headingId}`} names={missing} />
              <FormErrors messages={form.otherErrors(boxKeys(missing))} />
            </>
          )}
          <ConfirmTwice production={production} checked={confirmed} onChange={setConfirmed}>
            {`Production: this decides a real payment of ${amountText}.`}
          </ConfirmTwice>
          <ReasonField
            id={`${headingId}-reason`}
            value={reason}
            onChange={setReason}
            label={production ? 'Reason (required to reject)' : 'Reason (optional)'}
            error={reasonNeeded && production && !reason.trim() ? PRODUCTION_REJECT_NEEDS_REASON : undefined}
          />
          <FailedAction error={answering.error} withCode={!answering.error?.fieldErrors} />
          <div className="row">
            <button type="submit" className="primary" disabled={answering.busy || (production && !confirmed)}>
              Approve {amountText}
            </button>
            <button
              type="button"
              className="danger"
              disabled={answering.busy || (production && !confirmed)}
              onClick={() => void answer('reject')}
            >
              Reject {amountText}
            </button>
          </div>
        </FormFrame>
      </div>
    </article>
  )
}
