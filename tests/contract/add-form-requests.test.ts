import { describe, expect, it } from 'vitest'
import { ExternalAccountCreateRequest, type InputAccountType } from '../../src/shared/api'
import {
  FORM_ACCOUNT_TYPES,
  INITIAL_VALUES,
  toCreateRequest
} from '../../src/renderer/src/views/external-accounts/account-form'
import { VALID_INFO } from '../shared/api/fixtures'
import { formValues as formValuesOf } from './form-values'
import { publishedValidator } from './published-openapi'

const validatePublished = publishedValidator()
const customer = 'Customer:019541a2-0000-7000-8000-000000000001'

function formValues(type: InputAccountType): Record<string, string> {
  return formValuesOf(type, customer)
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
