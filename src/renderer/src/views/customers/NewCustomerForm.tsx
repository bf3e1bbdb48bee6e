import { CustomerCreateRequest, type Customer } from '../../../../shared/api'
import { nestFlat, useFlatForm } from '../../ui/flat-form'
import { FormErrors, TextField } from '../../ui/FormFields'
import { FailedAction, FormFrame, SubmitRow, useFormSubmit } from '../../ui/form-submit'

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
const upperCaseCodes = (key: string, value: string) => (UPPER.has(key) ? value.toUpperCase() : value)

export function NewCustomerForm({ onCancel, onCreated }: { onCancel(): void; onCreated(customer: Customer): void }) {
  const form = useFlatForm(CustomerCreateRequest, INITIAL, { toInput: toRequest, normalize: upperCaseCodes })
  const { submit, busy, error, formRef } = useFormSubmit(form, 'customers.create', onCreated)

  const p = 'nc'
  return (
    <FormFrame formRef={formRef} className="form form-in-pane" labelledBy="new-customer-title" onSubmit={submit}>
      <div className="panel-head">
        <h2 id="new-customer-title">New customer</h2>
        <button type="button" className="icon" aria-label="Cancel new customer" onClick={onCancel}>
          ×
        </button>
      </div>
      <p className="muted">
        An individual. Only the type is required; the service generates the platform id and UMA address when left empty.
      </p>
      <TextField form={form} prefix={p} name="fullName" label="Full name" autoFocus />
      <div className="grid-2">
        <TextField form={form} prefix={p} name="birthDate" label="Birth date" placeholder="YYYY-MM-DD" />
        <TextField form={form} prefix={p} name="nationality" label="Nationality" placeholder="US" hint="Country code" />
      </div>
      <div className="grid-2">
        <TextField form={form} prefix={p} name="region" label="Region" placeholder="US" hint="Fixed once created" />
        <TextField
          form={form}
          prefix={p}
          name="currencies"
          label="Currencies"
          placeholder="USD, BTC"
          hint="Comma separated"
        />
      </div>
      <TextField
        form={form}
        prefix={p}
        name="platformCustomerId"
        label="Platform customer id"
        hint="Your own id for this customer"
      />
      <TextField form={form} prefix={p} name="umaAddress" label="UMA address" placeholder="$jane@uma.example.com" />
      <fieldset>
        <legend>Address</legend>
        <TextField form={form} prefix={p} name="address.line1" label="Address line 1" />
        <TextField form={form} prefix={p} name="address.line2" label="Address line 2" />
        <div className="grid-2">
          <TextField form={form} prefix={p} name="address.city" label="City" />
          <TextField form={form} prefix={p} name="address.state" label="State" />
        </div>
        <div className="grid-2">
          <TextField form={form} prefix={p} name="address.postalCode" label="Postal code" />
          <TextField form={form} prefix={p} name="address.country" label="Country" placeholder="US" />
        </div>
      </fieldset>
      <FormErrors messages={form.otherErrors(SHOWN)} />
      <FailedAction error={error} />
      <SubmitRow
        busy={busy}
        busyLabel="Creating…"
        label={
          form.values['fullName']?.trim() ? `Create customer ${form.values['fullName'].trim()}` : 'Create customer'
        }
        onCancel={onCancel}
      />
    </FormFrame>
  )
}
