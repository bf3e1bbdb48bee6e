import { useMemo, useState } from 'react'
import { externalAccountUpdateFor, isWalletAccountType, type ExternalAccount } from '../../../../shared/api'
import { nestFlat, useFlatForm } from '../../ui/flat-form'
import { FormErrors, TextField } from '../../ui/FormFields'
import { FailedAction, FormFrame, SubmitRow, useFormSubmit } from '../../ui/form-submit'
import { ActionResult } from '../../ui/view-states'
import { ReasonField, reasonInput } from '../history/ReasonField'
import { ADDRESS_MEMBERS, BeneficiaryFields, BENEFICIARY_COMMON_MEMBERS, upperCaseCodes } from './BeneficiaryFields'

const P = 'edit-ea'
const B = 'beneficiary'

/** The stored account as the edit form's boxes: platformAccountId and every beneficiary member the form edits. */
export function editValues(account: ExternalAccount): Record<string, string> {
  const values: Record<string, string> = { platformAccountId: account.platformAccountId ?? '' }
  const b = account.accountInfo.beneficiary
  if (!b) return values
  const put = (key: string, value: unknown) => {
    if (typeof value === 'string') values[`${B}.${key}`] = value
  }
  put('beneficiaryType', b.beneficiaryType)
  put('fullName', b.fullName)
  // Either shape of a business (published top level, or the spec's businessInfo) edits as the published one.
  put('legalName', b.legalName ?? b.businessInfo?.legalName)
  put('taxId', b.taxId ?? b.businessInfo?.taxId)
  put('registrationNumber', b.registrationNumber)
  for (const m of BENEFICIARY_COMMON_MEMBERS) put(m, (b as Record<string, unknown>)[m])
  for (const m of ADDRESS_MEMBERS) put(`address.${m}`, (b.address as Record<string, unknown> | undefined)?.[m])
  return values
}

/** The beneficiary boxes that belong to the chosen beneficiary type. */
function beneficiaryKeys(values: Record<string, string>): string[] {
  const business = values[`${B}.beneficiaryType`] === 'BUSINESS'
  const names = business ? ['legalName', 'taxId', 'registrationNumber'] : ['fullName']
  return [
    'beneficiaryType',
    ...names,
    ...BENEFICIARY_COMMON_MEMBERS,
    ...ADDRESS_MEMBERS.map((m) => `address.${m}`)
  ].map((m) => `${B}.${m}`)
}

const same = (a: Record<string, string>, b: Record<string, string>, keys: string[]) =>
  keys.every((k) => (a[k] ?? '').trim() === (b[k] ?? '').trim())

/**
 * The boxes → ExternalAccountUpdateRequest, sending only what changed: an unchanged beneficiary is left out, so saving
 * a new platformAccountId never starts a re-review.
 */
export function toUpdateRequest(initial: Record<string, string>, values: Record<string, string>): unknown {
  const body: Record<string, unknown> = {}
  if ((values['platformAccountId'] ?? '') !== (initial['platformAccountId'] ?? '')) {
    body['platformAccountId'] = values['platformAccountId'] ?? ''
  }
  const keys = beneficiaryKeys(values)
  if (!same(initial, values, [...new Set([...keys, ...beneficiaryKeys(initial)])])) {
    const picked = Object.fromEntries(keys.map((k) => [k, values[k] ?? '']))
    body[B] = nestFlat(picked)[B] ?? {}
  }
  return body
}

export function EditExternalAccountForm(props: {
  account: ExternalAccount
  onCancel(): void
  onSaved(account: ExternalAccount): void
}) {
  const { account } = props
  const wallet = isWalletAccountType(account.accountInfo.accountType)
  const initial = useMemo(() => editValues(account), [account])
  const schema = useMemo(
    () => externalAccountUpdateFor({ currency: account.currency, accountType: account.accountInfo.accountType }),
    [account.currency, account.accountInfo.accountType]
  )
  const toInput = useMemo(() => (values: Record<string, string>) => toUpdateRequest(initial, values), [initial])
  const form = useFlatForm(schema, initial, { toInput, normalize: upperCaseCodes })
  const [nothing, setNothing] = useState(false)
  const [reason, setReason] = useState('')
  const save = useFormSubmit(form, 'externalAccounts.update', props.onSaved, {
    toRequest: (update) => ({ id: account.id as `ExternalAccount:${string}`, update, ...reasonInput(reason) }),
    // Main's own checks name paths inside the channel input ({ id, update }); the service's, inside the body.
    serverPath: (path) => path.replace(/^update\./, '')
  })
  const { busy, error, formRef } = save

  const request = toUpdateRequest(initial, form.values) as Record<string, unknown>
  const beneficiaryChanged = B in request
  const unchanged = Object.keys(request).length === 0

  const submit = () => {
    setNothing(unchanged)
    if (!unchanged) save.submit()
  }

  const shown = ['platformAccountId', ...(wallet ? [] : beneficiaryKeys(form.values))]
  return (
    <FormFrame formRef={formRef} className="form" labelledBy="edit-ea-title" onSubmit={submit}>
      <h3 id="edit-ea-title">Edit account</h3>
      <TextField
        form={form}
        prefix={P}
        name="platformAccountId"
        label="Platform account id"
        hint="Your own id for this account"
        autoFocus
      />
      {!wallet && (
        <BeneficiaryFields form={form} prefix={P} base={B} legend="Beneficiary">
          <p className={beneficiaryChanged ? 'hint hint-waiting' : 'hint'} role="note" data-testid="re-review-warning">
            <strong>Changing the beneficiary may trigger a re-review.</strong> While the service reviews it, the account
            shows UNDER_REVIEW and payments to it are refused until it is ACTIVE again (moments in a sandbox, up to a
            few hours in production).
          </p>
        </BeneficiaryFields>
      )}
      <ReasonField id={`${P}-reason`} value={reason} onChange={setReason} />
      <FormErrors messages={form.otherErrors(shown)} />
      {nothing && (
        <ActionResult ok={false}>
          Nothing to save: change the platform account id or the beneficiary first.
        </ActionResult>
      )}
      <FailedAction error={error} />
      <SubmitRow
        busy={busy}
        busyLabel="Saving…"
        label={beneficiaryChanged ? 'Save changes and send for re-review' : 'Save changes'}
        onCancel={props.onCancel}
      />
    </FormFrame>
  )
}
