import type { ReactNode } from 'react'
import type { z } from 'zod'
import { BENEFICIARY_TYPES } from '../../../../shared/api'
import type { FlatForm } from '../../ui/flat-form'
import { SelectField, TextField } from '../../ui/FormFields'

const ADDRESS_LABELS: Record<string, string> = {
  line1: 'Address line 1',
  line2: 'Address line 2',
  city: 'City',
  state: 'State',
  postalCode: 'Postal code',
  country: 'Country'
}
export const ADDRESS_MEMBERS = ['line1', 'line2', 'city', 'state', 'postalCode', 'country'] as const
/** Beneficiary members the forms edit, besides the type, names and address. */
export const BENEFICIARY_COMMON_MEMBERS = ['birthDate', 'nationality', 'email', 'phoneNumber', 'countryOfResidence']

/** Keys whose value is a code typed in capitals (countries, SWIFT, IBAN). */
const UPPER_CASE_KEY = /(country|nationality|countryOfResidence|swiftCode|iban)$/

/** A flat form's `normalize`: country codes, SWIFT codes and IBANs are kept in upper case. */
export const upperCaseCodes = (key: string, value: string) => (UPPER_CASE_KEY.test(key) ? value.toUpperCase() : value)

/**
 * The beneficiary boxes of the add and edit forms, keyed under `base` (`accountInfo.beneficiary` when creating,
 * `beneficiary` when updating), so the shared schema's issue paths land at each box.
 */
export function BeneficiaryFields<S extends z.ZodType>(props: {
  form: FlatForm<S>
  prefix: string
  base: string
  legend: string
  children?: ReactNode
}) {
  const { form, prefix: P, base } = props
  const k = (member: string) => `${base}.${member}`
  const business = form.values[k('beneficiaryType')] === 'BUSINESS'
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {props.children}
      <SelectField
        form={form}
        prefix={P}
        name={k('beneficiaryType')}
        label="Beneficiary type"
        options={BENEFICIARY_TYPES.map((t) => ({ value: t, label: t === 'INDIVIDUAL' ? 'Individual' : 'Business' }))}
      />
      {business ? (
        <div className="grid-2">
          <TextField form={form} prefix={P} name={k('legalName')} label="Legal name" />
          <TextField form={form} prefix={P} name={k('taxId')} label="Business tax id" />
        </div>
      ) : (
        <TextField form={form} prefix={P} name={k('fullName')} label="Full name" />
      )}
      <div className="grid-2">
        <TextField form={form} prefix={P} name={k('birthDate')} label="Birth date" placeholder="YYYY-MM-DD" />
        <TextField form={form} prefix={P} name={k('nationality')} label="Nationality" placeholder="US" />
      </div>
      <div className="grid-2">
        <TextField form={form} prefix={P} name={k('email')} label="Email" type="email" />
        <TextField form={form} prefix={P} name={k('phoneNumber')} label="Phone" placeholder="+14155550123" />
      </div>
      <TextField form={form} prefix={P} name={k('countryOfResidence')} label="Country of residence" placeholder="US" />
      <div className="grid-2">
        {ADDRESS_MEMBERS.map((member) => (
          <TextField
            key={member}
            form={form}
            prefix={P}
            name={k(`address.${member}`)}
            label={ADDRESS_LABELS[member] ?? member}
          />
        ))}
      </div>
    </fieldset>
  )
}
