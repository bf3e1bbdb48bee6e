import { useState } from 'react'
import { ReceiverCustomerInfo, type ApprovalItem } from '../../../../shared/ipc/channels/approvals'
import { channels } from '../../../../shared/ipc/contract'
import { formatMoney } from '../../../../shared/format/money'
import { useChannelMutation } from '../../data/channel-query'
import { activeProfile, useProfiles } from '../../stores/profiles'
import { Id, Money } from '../../ui/atoms'
import { Field } from '../../ui/Field'
import { useFlatForm } from '../../ui/flat-form'
import { FailedAction, FormFrame } from '../../ui/form-submit'
import { Deadline } from './Deadline'

const TEXT_FIELDS = [
  ['FULL_NAME', 'Full name'],
  ['BIRTH_DATE', 'Birth date (YYYY-MM-DD)'],
  ['NATIONALITY', 'Nationality (country code)'],
  ['COUNTRY_OF_RESIDENCE', 'Country of residence (country code)']
] as const
const ADDRESS_FIELDS = [
  ['line1', 'Address line 1'],
  ['line2', 'Address line 2'],
  ['city', 'City'],
  ['state', 'State or region'],
  ['postalCode', 'Postal code'],
  ['country', 'Country (code)']
] as const

type Values = Record<string, string>

/** The reject channel's own rule for the reason ("Give a reason"), checked before anything is sent. */
const RejectBoxes = channels['approvals.reject'].input.pick({ reason: true })

function initialValues(prefill: ApprovalItem['prefill']): Values {
  const values: Values = {}
  for (const [key, value] of Object.entries(prefill)) {
    if (typeof value === 'string') values[key] = value
    else if (key === 'ADDRESS' && value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) if (typeof v === 'string') values[`ADDRESS.${k}`] = v
    }
  }
  return values
}

/**
 * Approve with the receiver information prefilled from the customer record (the operator checks and edits it), or
 * reject with a reason. In production, approving asks a second time.
 */
export function ApprovalForm({ item, onDecided }: { item: ApprovalItem; onDecided(message: string): void }) {
  const t = item.transaction
  const profile = activeProfile(useProfiles((s) => s.list))
  const production = profile?.environment === 'production'
  // The boxes are keyed by the request's own paths ("ADDRESS.city"), so the shared schema's messages land at them.
  const form = useFlatForm(ReceiverCustomerInfo, initialValues(item.prefill))
  const rejection = useFlatForm(RejectBoxes, { reason: '' }, { toInput: (v) => ({ reason: v['reason'] ?? '' }) })
  const approving = useChannelMutation('approvals.approve')
  const rejecting = useChannelMutation('approvals.reject')
  const busy = approving.busy || rejecting.busy
  const failure = approving.error ?? rejecting.error
  const [reviewing, setReviewing] = useState(false)
  const [confirmed, setConfirmed] = useState(false)
  const values = form.values
  const extraKeys = Object.keys(values).filter((k) => !k.startsWith('ADDRESS.') && !TEXT_FIELDS.some(([f]) => f === k))
  const shownKeys = [...TEXT_FIELDS.map(([k]) => k), ...extraKeys, ...ADDRESS_FIELDS.map(([k]) => `ADDRESS.${k}`)]
  const amountText = formatMoney(t.receivedAmount.amount, {
    code: t.receivedAmount.currency.code,
    decimals: t.receivedAmount.currency.decimals ?? 0
  })

  const approve = async () => {
    const info = form.submit()
    if (!info) return
    if (production && !reviewing) {
      setReviewing(true)
      return
    }
    rejecting.clear()
    const result = await approving.run({
      transactionId: t.id,
      receiverCustomerInfo: info,
      // Main refuses a production approval without it; the review step above is where the operator gave it.
      ...(production && { confirmProduction: confirmed })
    })
    if (result.ok) onDecided(`Approved ${amountText}.`)
  }

  const reject = async () => {
    const request = rejection.submit()
    if (!request) return
    approving.clear()
    const result = await rejecting.run({ transactionId: t.id, reason: request.reason })
    if (result.ok) onDecided(`Rejected ${amountText}.`)
  }

  const input = (key: string, label: string) => (
    <Field key={key} id={`rci-${key}`} label={label} error={form.error(key)}>
      <input
        id={`rci-${key}`}
        value={values[key] ?? ''}
        onChange={(e) => form.set(key, e.target.value)}
        onBlur={() => form.blur(key)}
      />
    </Field>
  )

  return (
    <div data-testid="approval-form">
      <h2>
        Incoming <Money amount={t.receivedAmount.amount} currency={t.receivedAmount.currency} showCode />
      </h2>
      <dl className="facts">
        <dt>Payment</dt>
        <dd>
          <Id value={t.id} />
        </dd>
        <dt>For customer</dt>
        <dd>{item.customer?.fullName ?? <Id value={t.customerId} />}</dd>
        <dt>KYC</dt>
        <dd>{item.customer?.kycStatus ?? 'unknown'}</dd>
        <dt>Deadline</dt>
        <dd>
          <Deadline iso={item.deadline} />
        </dd>
      </dl>
      <FormFrame className="form" label="Receiver information" onSubmit={() => void approve()}>
        <h3>Receiver information sent with the approval</h3>
        {TEXT_FIELDS.map(([key, label]) => input(key, label))}
        {extraKeys.map((key) => input(key, key))}
        <fieldset>
          <legend>Address</legend>
          {ADDRESS_FIELDS.map(([key, label]) => input(`ADDRESS.${key}`, label))}
        </fieldset>
        {form.otherErrors(shownKeys).map((message) => (
          <p key={message} className="field-error">
            {message}
          </p>
        ))}
        {reviewing && (
          <div className="review" role="group" aria-label="Confirm approval">
            <p>
              <strong>Production:</strong> approving accepts {amountText} into {item.customer?.fullName ?? t.customerId}
              ’s account.
            </p>
            <label>
              <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} /> I checked
              the payment and the receiver information
            </label>
          </div>
        )}
        <div className="row">
          <button type="submit" className="primary" disabled={busy || (reviewing && !confirmed)}>
            {reviewing ? `Confirm: approve ${amountText}` : `Approve ${amountText}`}
          </button>
        </div>
      </FormFrame>
      <div className="form">
        <Field id="reject-reason" label="Reason for rejecting" error={rejection.error('reason')}>
          <input
            id="reject-reason"
            value={rejection.values['reason']}
            onChange={(e) => rejection.set('reason', e.target.value)}
          />
        </Field>
        <button className="danger" disabled={busy} onClick={() => void reject()}>
          Reject {amountText}
        </button>
      </div>
      <FailedAction error={failure} />
    </div>
  )
}
