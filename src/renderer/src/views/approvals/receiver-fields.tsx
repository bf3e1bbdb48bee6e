import type { z } from 'zod'
import type { FlatForm } from '../../ui/flat-form'
import { TextField } from '../../ui/FormFields'

/** The published receiverCustomerInfo names the operator is most often asked for, in the words of the form. */
export const FIELD_LABELS: Record<string, string> = {
  FULL_NAME: 'Full name',
  BIRTH_DATE: 'Birth date (YYYY-MM-DD)',
  NATIONALITY: 'Nationality (country code)',
  COUNTRY_OF_RESIDENCE: 'Country of residence (country code)',
  EMAIL: 'Email',
  PHONE_NUMBER: 'Phone number',
  ADDRESS: 'Address',
  POSTAL_ADDRESS: 'Postal address'
}
export const COMMON_FIELDS = ['FULL_NAME', 'BIRTH_DATE', 'NATIONALITY', 'COUNTRY_OF_RESIDENCE', 'ADDRESS'] as const

/** Fields whose value is an address object rather than a line of text. */
export const isAddressField = (name: string) => name === 'ADDRESS' || name === 'POSTAL_ADDRESS'

const ADDRESS_PARTS = [
  ['line1', 'Line 1'],
  ['line2', 'Line 2 (optional)'],
  ['city', 'City'],
  ['state', 'State or region'],
  ['postalCode', 'Postal code'],
  ['country', 'Country (code)']
] as const

export const fieldLabel = (name: string) => FIELD_LABELS[name] ?? name

/** The boxes of a flat form keyed by the fields' own paths ("FULL_NAME", "ADDRESS.city"), for these names. */
export function boxKeys(names: readonly string[]): string[] {
  return names.flatMap((n) => (isAddressField(n) ? ADDRESS_PARTS.map(([part]) => `${n}.${part}`) : [n]))
}

/** A box per field, an address as a group of its parts; the shared schema's messages land under each. */
export function ReceiverInfoFields<S extends z.ZodType>(props: {
  form: FlatForm<S>
  prefix: string
  names: readonly string[]
}) {
  return (
    <>
      {props.names.map((name) =>
        isAddressField(name) ? (
          <fieldset key={name}>
            <legend>{fieldLabel(name)}</legend>
            {ADDRESS_PARTS.map(([part, label]) => (
              <TextField
                key={part}
                form={props.form}
                prefix={props.prefix}
                name={`${name}.${part}`}
                label={`${fieldLabel(name)}: ${label}`}
              />
            ))}
          </fieldset>
        ) : (
          <TextField key={name} form={props.form} prefix={props.prefix} name={name} label={fieldLabel(name)} />
        )
      )}
    </>
  )
}
