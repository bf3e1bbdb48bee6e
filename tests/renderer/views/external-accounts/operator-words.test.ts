import { describe, expect, it } from 'vitest'
import {
  CustomerCreateRequest,
  ExternalAccountCreateRequest,
  externalAccountUpdateFor
} from '../../../../src/shared/api'
import { checkBoxes, nestFlat } from '../../../../src/renderer/src/ui/flat-form'
import {
  ACCOUNT_FIELDS,
  addFormChecks,
  BENEFICIARY_ADDRESS,
  FORM_ACCOUNT_TYPES,
  INITIAL_VALUES,
  relevantKeys,
  toCreateRequest
} from '../../../../src/renderer/src/views/external-accounts/account-form'

/** A request member's name as the schemas spell it: camelCase (fullName, postalCode) or a dotted path. */
const INTERNAL_NAME = /\b[a-z]+[A-Z][A-Za-z]*\b|\b(accountInfo|beneficiary|address|businessInfo)\.[a-z]/

const customer = 'Customer:019541a2-0000-7000-8000-000000000001'

/** Every message the add form would show under its boxes for these values, after a submit. */
function addFormMessages(values: Record<string, string>): Record<string, string> {
  return checkBoxes(ExternalAccountCreateRequest, values, true, { toInput: toCreateRequest, checks: addFormChecks })
    .issues
}

/** For every account type the form offers: every box left empty, then every box holding nonsense. */
function everyAddFormMessage(): Record<string, string>[] {
  const seen: Record<string, string>[] = []
  for (const type of FORM_ACCOUNT_TYPES) {
    const base = { ...INITIAL_VALUES, customerId: customer, 'accountInfo.accountType': type }
    const keys = relevantKeys(base).filter((k) => k !== 'owner' && k !== 'accountInfo.accountType')
    const empty = Object.fromEntries(keys.map((k) => [k, '']))
    const nonsense = Object.fromEntries(keys.map((k) => [k, '?!']))
    seen.push(addFormMessages({ ...base, ...empty, customerId: '' }))
    seen.push(addFormMessages({ ...base, ...nonsense, customerId: customer }))
    // The address started but not finished: each missing member speaks for itself.
    seen.push(addFormMessages({ ...base, [BENEFICIARY_ADDRESS[0] as string]: '1 Main St' }))
    seen.push(addFormMessages({ ...base, 'accountInfo.beneficiary.beneficiaryType': 'BUSINESS' }))
  }
  return seen
}

describe('the forms speak the operator’s words, not the request’s', () => {
  it('the add external account form never names a request member in a message', () => {
    const messages = everyAddFormMessage().flatMap((m) => Object.entries(m))
    expect(messages.length).toBeGreaterThan(FORM_ACCOUNT_TYPES.length * 4)
    const named = messages.filter(([, m]) => INTERNAL_NAME.test(m))
    expect(named).toEqual([])
  })

  it('every account-detail box of every type has a message of its own when left empty', () => {
    for (const type of FORM_ACCOUNT_TYPES) {
      const messages = addFormMessages({ ...INITIAL_VALUES, customerId: customer, 'accountInfo.accountType': type })
      for (const field of ACCOUNT_FIELDS[type].filter((f) => !f.options && f.hint !== 'Optional')) {
        expect(messages[field.name], `${type} ${field.name}`).toMatch(/^Enter the /)
      }
    }
  })

  it('says to choose the customer when "A customer" is picked and none is', () => {
    expect(addFormMessages({ ...INITIAL_VALUES })['customerId']).toBe('Choose the customer this account belongs to')
    expect(addFormMessages({ ...INITIAL_VALUES, owner: 'platform' })['customerId']).toBeUndefined()
  })

  it('the new customer form and the beneficiary edit never name a request member either', () => {
    const customerBoxes = {
      customerType: 'INDIVIDUAL',
      fullName: ' ',
      platformCustomerId: ' ',
      region: 'usa',
      birthDate: '2999-01-01',
      nationality: 'x',
      'address.line1': '1 Main St',
      'address.country': 'u'
    }
    const update = externalAccountUpdateFor({ currency: 'USD', accountType: 'USD_ACCOUNT' })
    const messages = [
      ...Object.values(checkBoxes(CustomerCreateRequest, customerBoxes, true).issues),
      ...Object.values(checkBoxes(update, { 'beneficiary.beneficiaryType': 'INDIVIDUAL' }, true).issues),
      ...Object.values(
        checkBoxes(update, { 'beneficiary.beneficiaryType': 'INDIVIDUAL', 'beneficiary.fullName': 'A' }, true, {
          toInput: nestFlat
        }).issues
      )
    ]
    expect(messages.length).toBeGreaterThan(5)
    expect(messages.filter((m) => INTERNAL_NAME.test(m))).toEqual([])
  })
})
