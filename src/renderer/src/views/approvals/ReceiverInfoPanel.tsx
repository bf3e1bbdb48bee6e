import { useState } from 'react'
import { ReceiverCustomerInfo } from '../../../../shared/approval-rules'
import { useChannelMutation, useChannelQuery } from '../../data/channel-query'
import { ErrorNotice } from '../../ui/atoms'
import { Field } from '../../ui/Field'
import { FormErrors } from '../../ui/FormFields'
import { useFlatForm } from '../../ui/flat-form'
import { FormFrame } from '../../ui/form-submit'
import { SkeletonRows } from '../../ui/view-states'
import { customerName, useCustomerNames } from '../customers/names'
import { ConfirmedSubmit, useProductionAsk } from './ConfirmTwice'
import { boxKeys, COMMON_FIELDS, ReceiverInfoFields } from './receiver-fields'

/** The stored information as boxes: text fields by name, an address by its parts ("ADDRESS.city"). */
export function toBoxes(info: Record<string, unknown>): Record<string, string> {
  const boxes: Record<string, string> = {}
  for (const [key, value] of Object.entries(info)) {
    if (typeof value === 'string') boxes[key] = value
    else if (value && typeof value === 'object') {
      for (const [part, v] of Object.entries(value)) if (typeof v === 'string') boxes[`${key}.${part}`] = v
    }
  }
  return boxes
}

/**
 * What the gate answers about a customer when a sender asks (receiverCustomerInfo): chosen by name, read from the gate
 * and edited here. The gate keeps it sealed; Paydesk shows it only on this screen.
 */
export function ReceiverInfoPanel() {
  const { customers } = useCustomerNames()
  const [customerId, setCustomerId] = useState('')
  return (
    <div className="panel">
      <h2>Receiver information</h2>
      <p className="muted">
        When a sender asks for the receiver’s details, the gate answers with exactly the fields asked for, from here (or
        from your platform’s lookup). The service’s own customer record is never used.
      </p>
      <Field id="rinfo-customer" label="Customer">
        <select id="rinfo-customer" value={customerId} onChange={(e) => setCustomerId(e.target.value)}>
          <option value="">{customers.data ? 'Choose a customer' : 'Loading customers…'}</option>
          {(customers.data?.rows ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {customerName(c) ?? c.id}
            </option>
          ))}
        </select>
      </Field>
      {customerId && <CustomerInfo key={customerId} customerId={customerId} />}
    </div>
  )
}

function CustomerInfo({ customerId }: { customerId: string }) {
  const stored = useChannelQuery('gate.receiverInfo.get', { customerId })
  // Kept here: the form below starts again (a new key) from what the gate holds once the save is read back.
  const [saved, setSaved] = useState(false)
  if (stored.error) return <ErrorNotice error={stored.error} onRetry={stored.reload} />
  if (stored.loading) return <SkeletonRows label="receiver information" />
  const info = stored.data?.info ?? {}
  // Keyed by what the gate holds, so the boxes start again from it after each save.
  return (
    <InfoForm
      key={JSON.stringify(info)}
      customerId={customerId}
      info={info}
      updatedBy={stored.data?.updatedBy ?? null}
      saved={saved}
      onSaved={setSaved}
    />
  )
}

function InfoForm(props: {
  customerId: string
  info: Record<string, unknown>
  updatedBy: string | null
  saved: boolean
  onSaved(saved: boolean): void
}) {
  const ask = useProductionAsk()
  const names = [...new Set([...COMMON_FIELDS, ...Object.keys(props.info)])]
  const form = useFlatForm(ReceiverCustomerInfo, toBoxes(props.info))
  const saving = useChannelMutation('gate.receiverInfo.set', { invalidates: ['gate.receiverInfo.get', 'gate.log'] })
  const submit = async () => {
    const info = form.submit()
    if (!info) return
    const result = await saving.run({
      customerId: props.customerId,
      info,
      ...(ask.production && { confirmProduction: true })
    })
    props.onSaved(result.ok)
  }
  return (
    <FormFrame className="form" label="Receiver information" onSubmit={() => void submit()}>
      <p className="muted">
        {props.updatedBy ? `Last changed by ${props.updatedBy}.` : 'The gate holds nothing for this customer yet.'}{' '}
        Empty boxes are not sent.
      </p>
      <ReceiverInfoFields form={form} prefix="rinfo" names={names} />
      <FormErrors messages={form.otherErrors(boxKeys(names))} />
      <ConfirmedSubmit
        ask={ask}
        warning="Production: senders of real payments will receive these details."
        action={saving}
        label="Save receiver information"
        busyLabel="Saving…"
        done={props.saved && 'Saved at the gate.'}
      />
    </FormFrame>
  )
}
