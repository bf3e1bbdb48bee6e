import { useState } from 'react'
import { ExternalAccountCreateRequest, isWalletAccountType, type ExternalAccount } from '../../../../shared/api'
import { Field } from '../../ui/Field'
import { useFlatForm } from '../../ui/flat-form'
import { fieldId, FormErrors, SelectField, TextField } from '../../ui/FormFields'
import { FailedAction, FormFrame, SubmitRow, useFormSubmit } from '../../ui/form-submit'
import { useCustomerNames } from '../customers/names'
import { useChannelQuery } from '../../data/channel-query'
import {
  ACCOUNT_FIELDS,
  addFormChecks,
  beneficiaryFromCustomer,
  FORM_ACCOUNT_TYPES,
  BANK_NAME_REQUIRED,
  fixedCurrency,
  hasBankName,
  INITIAL_VALUES,
  networksOf,
  relevantKeys,
  toCreateRequest,
  WALLET_CURRENCIES
} from './account-form'
import { BeneficiaryFields, upperCaseCodes } from './BeneficiaryFields'
import { accountTypeName } from './describe'

const P = 'ea'

export function AddExternalAccountForm(props: {
  /** Preselected owner: a customer id, or null for the platform. */
  customerId?: string | null
  onCancel(): void
  onCreated(account: ExternalAccount): void
}) {
  const form = useFlatForm(
    ExternalAccountCreateRequest,
    {
      ...INITIAL_VALUES,
      ...(props.customerId === null ? { owner: 'platform' } : props.customerId ? { customerId: props.customerId } : {})
    },
    { toInput: toCreateRequest, normalize: upperCaseCodes, checks: addFormChecks }
  )
  const { submit, busy, error, formRef } = useFormSubmit(form, 'externalAccounts.create', props.onCreated)
  const v = form.values
  const type = v['accountInfo.accountType'] ?? 'USD_ACCOUNT'
  const isWallet = isWalletAccountType(type)
  const currency = v['currency'] ?? ''

  const { customers } = useCustomerNames({ enabled: v['owner'] === 'customer' })
  const customerId = v['owner'] === 'customer' ? (v['customerId'] ?? '') : ''
  const chosen = useChannelQuery(
    'customers.get',
    { id: customerId as `Customer:${string}` },
    { enabled: customerId !== '' }
  ).data?.customer
  // The beneficiary follows the chosen customer once per choice, keeping whatever the operator typed.
  const [prefill, setPrefill] = useState<{ id: string; filled: Record<string, string> } | null>(null)
  if (chosen && chosen.id === customerId && prefill?.id !== chosen.id) {
    const { patch, filled } = beneficiaryFromCustomer(v, prefill?.filled ?? {}, chosen)
    setPrefill({ id: chosen.id, filled })
    if (Object.keys(patch).length > 0) form.setMany(patch)
  }
  const prefilledFrom = prefill && prefill.id === customerId && Object.keys(prefill.filled).length > 0 ? chosen : null
  const banks = useChannelQuery(
    'discoveries.list',
    { currency: currency || undefined },
    { enabled: hasBankName(type) && /^[A-Z]{3}$/.test(currency) }
  )
  const bankOptions = hasBankName(type) ? (banks.data?.rows ?? []).filter((b) => b.currency === currency) : []

  const chooseType = (next: string) => {
    const patch: Record<string, string> = { 'accountInfo.accountType': next, 'accountInfo.bankName': '' }
    const fixed = fixedCurrency(next)
    patch['currency'] = fixed ?? (WALLET_CURRENCIES.includes(currency) ? currency : 'BTC')
    if (isWalletAccountType(next)) patch['cryptoNetwork'] = networksOf(next)[0] ?? ''
    form.setMany(patch)
  }

  /** Every box of this form is bound to it under the same id prefix. */
  const bound = { form, prefix: P }
  const bankNameRequired = BANK_NAME_REQUIRED.has(type)
  const shown = relevantKeys(v)

  return (
    <FormFrame formRef={formRef} className="form form-in-pane" labelledBy="add-ea-title" onSubmit={submit}>
      <div className="panel-head">
        <h2 id="add-ea-title">Add external account</h2>
        <button type="button" className="icon" aria-label="Cancel adding an external account" onClick={props.onCancel}>
          ×
        </button>
      </div>
      <div className="grid-2">
        <SelectField
          {...bound}
          name="owner"
          label="Belongs to"
          options={[
            { value: 'customer', label: 'A customer' },
            { value: 'platform', label: 'The platform' }
          ]}
        />
        {v['owner'] === 'customer' && (
          <SelectField
            {...bound}
            name="customerId"
            label="Customer"
            placeholder={customers.loading ? 'Loading customers…' : 'Choose a customer'}
            options={(customers.data?.rows ?? []).map((c) => ({
              value: c.id,
              label: `${c.fullName ?? c.platformCustomerId} (${c.platformCustomerId})`
            }))}
          />
        )}
      </div>
      <div className="grid-2">
        <SelectField
          {...bound}
          name="accountInfo.accountType"
          label="Account type"
          options={FORM_ACCOUNT_TYPES.map((t) => ({ value: t, label: accountTypeName(t) }))}
          onChange={chooseType}
        />
        {isWallet ? (
          <SelectField
            {...bound}
            name="currency"
            label="Currency"
            options={WALLET_CURRENCIES.map((c) => ({ value: c, label: c }))}
          />
        ) : (
          <Field id={fieldId(P, 'currency')} label="Currency" hint={`A ${type} account holds ${currency}`}>
            <input id={fieldId(P, 'currency')} value={currency} readOnly aria-readonly />
          </Field>
        )}
      </div>
      {isWallet && (
        <SelectField
          {...bound}
          name="cryptoNetwork"
          label="Network"
          options={networksOf(type).map((n) => ({ value: n, label: n }))}
        />
      )}
      {(ACCOUNT_FIELDS[type as keyof typeof ACCOUNT_FIELDS] ?? []).map((f) =>
        f.options ? (
          <SelectField
            key={f.name}
            {...bound}
            name={f.name}
            label={f.label}
            options={f.options.map((o) => ({ value: o, label: o }))}
            {...(f.optional ? { placeholder: 'Not given' } : {})}
          />
        ) : (
          <TextField
            key={f.name}
            {...bound}
            name={f.name}
            label={f.label}
            {...(f.hint ? { hint: f.hint } : {})}
            {...(f.placeholder ? { placeholder: f.placeholder } : {})}
            {...(f.numeric ? { inputMode: 'numeric' as const } : {})}
            className="mono"
          />
        )
      )}
      {hasBankName(type) &&
        (bankOptions.length > 0 || bankNameRequired ? (
          <SelectField
            {...bound}
            name="accountInfo.bankName"
            label="Bank"
            hint={
              bankNameRequired ? `Required for ${currency} accounts: names from the service’s bank list` : 'Optional'
            }
            placeholder={
              banks.loading
                ? 'Loading banks…'
                : bankOptions.length
                  ? 'Choose a bank'
                  : 'No banks listed for this currency'
            }
            options={bankOptions.map((b) => ({ value: b.bankName, label: b.displayName }))}
          />
        ) : (
          <TextField {...bound} name="accountInfo.bankName" label="Bank name" hint="Optional" />
        ))}

      {!isWallet && (
        <BeneficiaryFields {...bound} base="accountInfo.beneficiary" legend="Beneficiary: who receives the money">
          {prefilledFrom && (
            <p className="hint" data-testid="beneficiary-prefilled">
              Filled in from {prefilledFrom.fullName ?? prefilledFrom.platformCustomerId}’s customer record: change
              anything that differs for this account.
            </p>
          )}
        </BeneficiaryFields>
      )}
      <TextField
        {...bound}
        name="platformAccountId"
        label="Platform account id"
        hint="Your own id for this account (optional)"
      />
      {v['owner'] === 'customer' && (
        <label className="check">
          <input
            type="checkbox"
            checked={v['defaultUmaDepositAccount'] === 'true'}
            onChange={(e) => form.set('defaultUmaDepositAccount', e.target.checked ? 'true' : 'false')}
          />
          Deposit this customer’s incoming payments here (replaces any current default)
        </label>
      )}
      <FormErrors messages={form.otherErrors(shown)} />
      <FailedAction error={error} />
      <SubmitRow busy={busy} busyLabel="Adding…" label={`Add ${accountTypeName(type)}`} onCancel={props.onCancel} />
    </FormFrame>
  )
}
