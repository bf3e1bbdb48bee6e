import { useState } from 'react'
import { ReceiverCustomerInfo, type ApprovalItem } from '../../../../shared/ipc/channels/approvals'
import type { IpcError } from '../../../../shared/ipc/define'
import { formatMoney } from '../../../../shared/format/money'
import { paydesk } from '../../bridge/paydesk'
import { activeProfile, useProfiles } from '../../stores/profiles'
import { Id, Money } from '../../ui/atoms'
import { Field } from '../../ui/Field'
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

function toReceiverInfo(values: Values): Record<string, unknown> {
  const info: Record<string, unknown> = {}
  const address: Record<string, string> = {}
  for (const [key, raw] of Object.entries(values)) {
    const value = raw.trim()
    if (!value) continue
    if (key.startsWith('ADDRESS.')) address[key.slice('ADDRESS.'.length)] = value
    else info[key] = value
  }
  if (Object.keys(address).length > 0) info['ADDRESS'] = address
  return info
}

/**
 * Approve with the receiver information prefilled from the customer record (the operator checks and edits it), or
 * reject with a reason. In production, approving asks a second time.
 */
export function ApprovalForm({ item, onDecided }: { item: ApprovalItem; onDecided(message: string): void }) {
  const t = item.transaction
  const profile = activeProfile(useProfiles((s) => s.list))
  const production = profile?.environment === 'production'
  const [values, setValues] = useState<Values>(() => initialValues(item.prefill))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [reviewing, setReviewing] = useState(false)
  const [confirmed, setConfirmed] = useState(false)
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<{ text: string; code: string } | null>(null)
  const extraKeys = Object.keys(values).filter((k) => !k.startsWith('ADDRESS.') && !TEXT_FIELDS.some(([f]) => f === k))
  const amountText = formatMoney(t.receivedAmount.amount, {
    code: t.receivedAmount.currency.code,
    decimals: t.receivedAmount.currency.decimals ?? 0
  })

  const validate = () => {
    const parsed = ReceiverCustomerInfo.safeParse(toReceiverInfo(values))
    if (parsed.success) {
      setErrors({})
      return parsed.data
    }
    const next: Record<string, string> = {}
    for (const issue of parsed.error.issues) next[issue.path.map(String).join('.') || '_form'] ??= issue.message
    setErrors(next)
    return null
  }

  const report = (result: { ok: true } | { ok: false; error: IpcError }, success: string) => {
    setBusy(false)
    if (result.ok) onDecided(success)
    else {
      setFailure({ text: result.error.message, code: result.error.serviceCode ?? result.error.code })
    }
  }

  const approve = async () => {
    const info = validate()
    if (!info) return
    if (production && !reviewing) {
      setReviewing(true)
      return
    }
    setBusy(true)
    const result = await paydesk.invoke('approvals.approve', {
      transactionId: t.id,
      receiverCustomerInfo: info,
      // Main refuses a production approval without it; the review step above is where the operator gave it.
      ...(production && { confirmProduction: confirmed })
    })
    report(result, `Approved ${amountText}.`)
  }

  const reject = async () => {
    if (!reason.trim()) {
      setErrors({ reason: 'Give a reason' })
      return
    }
    setBusy(true)
    const result = await paydesk.invoke('approvals.reject', { transactionId: t.id, reason: reason.trim() })
    report(result, `Rejected ${amountText}.`)
  }

  const input = (key: string, label: string) => (
    <Field key={key} id={`rci-${key}`} label={label} error={errors[key]}>
      <input
        id={`rci-${key}`}
        value={values[key] ?? ''}
        onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
        onBlur={() => void validate()}
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
      <form
        className="form"
        aria-label="Receiver information"
        onSubmit={(e) => {
          e.preventDefault()
          void approve()
        }}
      >
        <h3>Receiver information sent with the approval</h3>
        {TEXT_FIELDS.map(([key, label]) => input(key, label))}
        {extraKeys.map((key) => input(key, key))}
        <fieldset>
          <legend>Address</legend>
          {ADDRESS_FIELDS.map(([key, label]) => input(`ADDRESS.${key}`, label))}
        </fieldset>
        {errors['_form'] && <p className="field-error">{errors['_form']}</p>}
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
      </form>
      <div className="form">
        <Field id="reject-reason" label="Reason for rejecting" error={errors['reason']}>
          <input id="reject-reason" value={reason} onChange={(e) => setReason(e.target.value)} />
        </Field>
        <button className="danger" disabled={busy} onClick={() => void reject()}>
          Reject {amountText}
        </button>
      </div>
      {failure && (
        <p className="result result-bad" role="alert">
          {failure.text}
          <code className="code">{failure.code}</code>
        </p>
      )}
    </div>
  )
}
