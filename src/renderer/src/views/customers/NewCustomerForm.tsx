import { useRef, useState } from 'react'
import { CustomerCreateRequest, type Customer } from '../../../../shared/api'
import type { IpcError } from '../../../../shared/ipc/define'
import { paydesk } from '../../bridge/paydesk'
import { nestFlat, useFlatForm } from '../../ui/flat-form'
import { FormErrors, revealFirstError, TextField } from '../../ui/FormFields'
import { ActionResult } from '../../ui/view-states'

const INITIAL = {
  customerType: 'INDIVIDUAL',
  fullName: '',
  platformCustomerId: '',
  region: '',
  currencies: '',
  umaAddress: '',
  birthDate: '',
  nationality: '',
  'address.line1': '',
  'address.line2': '',
  'address.city': '',
  'address.state': '',
  'address.postalCode': '',
  'address.country': ''
}
const SHOWN = Object.keys(INITIAL)

/** Boxes → request: "USD, btc" becomes ["USD", "BTC"]; empty boxes are left out. */
function toRequest(values: Record<string, string>): unknown {
  const body = nestFlat(values)
  if (typeof body['currencies'] === 'string') {
    body['currencies'] = body['currencies']
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((c) => c.toUpperCase())
  }
  return body
}

/** Country and currency codes are upper case; typing them in lower case is not a mistake worth an error. */
const UPPER = new Set(['region', 'nationality', 'address.country'])

export function NewCustomerForm({ onCancel, onCreated }: { onCancel(): void; onCreated(customer: Customer): void }) {
  const form = useFlatForm(CustomerCreateRequest, INITIAL, toRequest)
  const [error, setError] = useState<IpcError | null>(null)
  const [busy, setBusy] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  const upper = { ...form, set: (k: string, v: string) => form.set(k, UPPER.has(k) ? v.toUpperCase() : v) }

  const submit = async () => {
    const body = form.submit()
    if (!body) return revealFirstError(formRef.current)
    setBusy(true)
    const result = await paydesk.invoke('customers.create', body)
    setBusy(false)
    if (!result.ok) {
      setError(result.error)
      if (result.error.fieldErrors) form.setServerErrors(result.error.fieldErrors)
      return
    }
    setError(null)
    onCreated(result.value)
  }

  const p = 'nc'
  return (
    <form
      ref={formRef}
      className="form form-in-pane"
      aria-labelledby="new-customer-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      <div className="panel-head">
        <h2 id="new-customer-title">New customer</h2>
        <button type="button" className="icon" aria-label="Cancel new customer" onClick={onCancel}>
          ×
        </button>
      </div>
      <p className="muted">
        An individual. Only the type is required; the service generates the platform id and UMA address when left empty.
      </p>
      <TextField form={upper} prefix={p} name="fullName" label="Full name" autoFocus />
      <div className="grid-2">
        <TextField form={upper} prefix={p} name="birthDate" label="Birth date" placeholder="YYYY-MM-DD" />
        <TextField
          form={upper}
          prefix={p}
          name="nationality"
          label="Nationality"
          placeholder="US"
          hint="Country code"
        />
      </div>
      <div className="grid-2">
        <TextField form={upper} prefix={p} name="region" label="Region" placeholder="US" hint="Fixed once created" />
        <TextField
          form={upper}
          prefix={p}
          name="currencies"
          label="Currencies"
          placeholder="USD, BTC"
          hint="Comma separated"
        />
      </div>
      <TextField
        form={upper}
        prefix={p}
        name="platformCustomerId"
        label="Platform customer id"
        hint="Your own id for this customer"
      />
      <TextField form={upper} prefix={p} name="umaAddress" label="UMA address" placeholder="$jane@uma.example.com" />
      <fieldset>
        <legend>Address</legend>
        <TextField form={upper} prefix={p} name="address.line1" label="Address line 1" />
        <TextField form={upper} prefix={p} name="address.line2" label="Address line 2" />
        <div className="grid-2">
          <TextField form={upper} prefix={p} name="address.city" label="City" />
          <TextField form={upper} prefix={p} name="address.state" label="State" />
        </div>
        <div className="grid-2">
          <TextField form={upper} prefix={p} name="address.postalCode" label="Postal code" />
          <TextField form={upper} prefix={p} name="address.country" label="Country" placeholder="US" />
        </div>
      </fieldset>
      <FormErrors messages={form.otherErrors(SHOWN)} />
      {error && (
        <ActionResult ok={false} code={error.serviceCode ?? error.code}>
          {error.message}
        </ActionResult>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy
            ? 'Creating…'
            : form.values['fullName']?.trim()
              ? `Create customer ${form.values['fullName'].trim()}`
              : 'Create customer'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
