import type { InputAccountType } from '../../src/shared/api'
import { fixedCurrency, INITIAL_VALUES, networksOf } from '../../src/renderer/src/views/external-accounts/account-form'
import { VALID_INFO } from '../shared/api/fixtures'

const PERSON = {
  'accountInfo.beneficiary.fullName': 'Amelia Hughes',
  'accountInfo.beneficiary.birthDate': '1990-01-15',
  'accountInfo.beneficiary.nationality': 'US',
  'accountInfo.beneficiary.address.line1': '10 Main Street',
  'accountInfo.beneficiary.address.city': 'Springfield',
  'accountInfo.beneficiary.address.postalCode': '12345',
  'accountInfo.beneficiary.address.country': 'US'
}

/** The boxes a person fills in the add form for this account type, from the shared fixtures of valid accountInfo. */
export function formValues(type: InputAccountType, customerId: string): Record<string, string> {
  const values: Record<string, string> = { ...INITIAL_VALUES, ...PERSON, customerId }
  for (const [key, value] of Object.entries(VALID_INFO[type])) {
    if (typeof value === 'string') values[`accountInfo.${key}`] = value
  }
  values['accountInfo.accountType'] = type
  values['currency'] = fixedCurrency(type) ?? 'BTC'
  const network = networksOf(type)[0]
  if (network !== undefined) values['cryptoNetwork'] = network
  return values
}
