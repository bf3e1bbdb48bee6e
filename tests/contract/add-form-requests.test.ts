import { describe, expect, it } from 'vitest'
import { ExternalAccountCreateRequest, type InputAccountType } from '../../src/shared/api'
import {
  FORM_ACCOUNT_TYPES,
  fixedCurrency,
  INITIAL_VALUES,
  networksOf,
  toCreateRequest
} from '../../src/renderer/src/views/external-accounts/account-form'
import { VALID_INFO } from '../shared/api/fixtures'
import { publishedValidator } from './published-openapi'

const validatePublished = publishedValidator()
const customer = 'Customer:019541a2-0000-7000-8000-000000000001'

const PERSON = {
  'accountInfo.beneficiary.fullName': 'Amelia Hughes',
  'accountInfo.beneficiary.birthDate': '1990-01-15',
  'accountInfo.beneficiary.nationality': 'US',
  'accountInfo.beneficiary.address.line1': '10 Main Street',
  'accountInfo.beneficiary.address.city': 'Springfield',
  'accountInfo.beneficiary.address.postalCode': '12345',
  'accountInfo.beneficiary.address.country': 'US'
}

/** The boxes a person fills for this account type, from the shared fixtures of valid accountInfo. */
function formValues(type: InputAccountType): Record<string, string> {
  const values: Record<string, string> = { ...INITIAL_VALUES, ...PERSON, customerId: customer }
  for (const [key, value] of Object.entries(VALID_INFO[type])) {
    if (typeof value === 'string') values[`accountInfo.${key}`] = value
  }
  values['accountInfo.accountType'] = type
  values['currency'] = fixedCurrency(type) ?? 'BTC'
  const network = networksOf(type)[0]
  if (network !== undefined) values['cryptoNetwork'] = network
  return values
}

describe('add-account form requests against the published OpenAPI', () => {
  it('the form opens on USD_ACCOUNT and sends checking/savings as bankAccountType, never accountCategory', () => {
    const body = toCreateRequest(formValues('USD_ACCOUNT')) as { accountInfo: Record<string, unknown> }
    expect(body.accountInfo['accountType']).toBe('USD_ACCOUNT')
    expect(body.accountInfo['bankAccountType']).toBe('CHECKING')
    expect(body.accountInfo).not.toHaveProperty('accountCategory')
    expect(INITIAL_VALUES['accountInfo.accountType']).toBe('USD_ACCOUNT')
    expect(FORM_ACCOUNT_TYPES).not.toContain('US_ACCOUNT')
    expect(validatePublished('ExternalAccountCreateRequest', body)).toEqual([])
  })

  it('a business beneficiary is sent with legalName at the top level, as the published API wants', () => {
    const values = {
      ...formValues('USD_ACCOUNT'),
      'accountInfo.beneficiary.beneficiaryType': 'BUSINESS',
      'accountInfo.beneficiary.legalName': 'Acme Widgets LLC',
      'accountInfo.beneficiary.taxId': '47-1234567'
    }
    const body = toCreateRequest(values) as { accountInfo: { beneficiary: Record<string, unknown> } }
    expect(body.accountInfo.beneficiary['legalName']).toBe('Acme Widgets LLC')
    expect(body.accountInfo.beneficiary).not.toHaveProperty('businessInfo')
    expect(body.accountInfo.beneficiary).not.toHaveProperty('fullName')
    const ours = ExternalAccountCreateRequest.safeParse(body)
    expect(ours.success ? [] : ours.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([])
    expect(validatePublished('ExternalAccountCreateRequest', body)).toEqual([])
  })

  it('the validator rejects the shapes the audit found the published API refuses', () => {
    const usAccount = {
      customerId: customer,
      currency: 'USD',
      accountInfo: { ...VALID_INFO.US_ACCOUNT, beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'A B' } }
    }
    expect(validatePublished('ExternalAccountCreateRequest', usAccount)).not.toEqual([])
    const nestedBusiness = {
      customerId: customer,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '123456789',
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'BUSINESS', businessInfo: { legalName: 'Acme' } }
      }
    }
    expect(validatePublished('ExternalAccountCreateRequest', nestedBusiness)).not.toEqual([])
  })

  it.each(FORM_ACCOUNT_TYPES)('%s: the form’s request passes our schema and the published one', (type) => {
    const body = toCreateRequest(formValues(type))
    const ours = ExternalAccountCreateRequest.safeParse(body)
    expect(ours.success ? [] : ours.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([])
    expect(validatePublished('ExternalAccountCreateRequest', body)).toEqual([])
  })
})
