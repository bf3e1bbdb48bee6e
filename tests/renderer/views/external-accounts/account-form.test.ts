import { describe, expect, it } from 'vitest'
import { ExternalAccountCreateRequest } from '../../../../src/shared/api'
import {
  beneficiaryFromCustomer,
  INITIAL_VALUES,
  relevantKeys,
  toCreateRequest
} from '../../../../src/renderer/src/views/external-accounts/account-form'

const customer = 'Customer:019541a2-0000-7000-8000-000000000001'

describe('add external account form → ExternalAccountCreateRequest', () => {
  it('a US account: only its own boxes are sent, and the shared schema accepts it', () => {
    const values = {
      ...INITIAL_VALUES,
      customerId: customer,
      'accountInfo.routingNumber': '021000021',
      'accountInfo.accountNumber': '55501234',
      'accountInfo.beneficiary.fullName': 'Amelia Hughes',
      'accountInfo.beneficiary.address.line1': '10 Downing Lane',
      'accountInfo.beneficiary.address.city': 'London',
      'accountInfo.beneficiary.address.postalCode': 'SW1A 2AA',
      'accountInfo.beneficiary.address.country': 'GB',
      // Left over from another type the person looked at first: must not be sent (the schema is strict).
      'accountInfo.clabeNumber': '012180015000000011'
    }
    const body = toCreateRequest(values)
    expect(ExternalAccountCreateRequest.safeParse(body).success).toBe(true)
    expect(JSON.stringify(body)).not.toContain('clabeNumber')
    expect(body).not.toHaveProperty('defaultUmaDepositAccount')
  })

  it('a bad routing number fails under the routing number box', () => {
    const result = ExternalAccountCreateRequest.safeParse(
      toCreateRequest({ ...INITIAL_VALUES, customerId: customer, 'accountInfo.routingNumber': '12345' })
    )
    expect(result.success).toBe(false)
    const issue = result.success
      ? undefined
      : result.error.issues.find((i) => i.path.join('.') === 'accountInfo.routingNumber')
    expect(issue?.message).toBe('US routing number must be exactly 9 digits')
  })

  it('a Spark wallet sends no beneficiary, carries its network, and the platform owns it when chosen', () => {
    const values = {
      ...INITIAL_VALUES,
      owner: 'platform',
      'accountInfo.accountType': 'SPARK_WALLET',
      currency: 'BTC',
      cryptoNetwork: 'SPARK_MAINNET',
      'accountInfo.address': 'spark1xyz',
      'accountInfo.beneficiary.fullName': 'Nobody'
    }
    const body = toCreateRequest(values) as Record<string, unknown>
    expect(body).toEqual({
      currency: 'BTC',
      cryptoNetwork: 'SPARK_MAINNET',
      accountInfo: { accountType: 'SPARK_WALLET', address: 'spark1xyz' }
    })
    expect(relevantKeys(values)).not.toContain('customerId')
  })

  it('the default-deposit tick becomes a boolean, only for a customer’s account', () => {
    const body = toCreateRequest({
      ...INITIAL_VALUES,
      customerId: customer,
      defaultUmaDepositAccount: 'true'
    }) as Record<string, unknown>
    expect(body['defaultUmaDepositAccount']).toBe(true)
  })
})

describe('the beneficiary prefilled from the chosen customer', () => {
  const amelia = {
    fullName: 'Amelia Hughes',
    address: { line1: '10 Downing Lane', city: 'London', postalCode: 'SW1A 2AA', country: 'GB' }
  }
  const nora = { fullName: 'Nora Lindqvist' }
  const b = (m: string) => `accountInfo.beneficiary.${m}`

  it('fills the name and the address, so a USD account for her passes the schema as chosen', () => {
    const { patch } = beneficiaryFromCustomer(INITIAL_VALUES, {}, amelia)
    expect(patch).toEqual({
      [b('fullName')]: 'Amelia Hughes',
      [b('address.line1')]: '10 Downing Lane',
      [b('address.city')]: 'London',
      [b('address.postalCode')]: 'SW1A 2AA',
      [b('address.country')]: 'GB'
    })
    const values = {
      ...INITIAL_VALUES,
      ...patch,
      customerId: customer,
      'accountInfo.routingNumber': '021-000-021',
      'accountInfo.accountNumber': '55501234'
    }
    const parsed = ExternalAccountCreateRequest.safeParse(toCreateRequest(values))
    expect(parsed.success).toBe(true)
    // What goes to the service is the published form: the dashes typed are gone.
    expect(parsed.data?.accountInfo).toMatchObject({ routingNumber: '021000021' })
  })

  it('keeps what the operator typed, and a new choice replaces only what the earlier one filled', () => {
    const first = beneficiaryFromCustomer(INITIAL_VALUES, {}, amelia)
    const typed = { ...INITIAL_VALUES, ...first.patch, [b('address.city')]: 'Cambridge' }
    const second = beneficiaryFromCustomer(typed, first.filled, nora)
    expect(second.patch).toEqual({
      [b('fullName')]: 'Nora Lindqvist',
      [b('address.line1')]: '',
      [b('address.postalCode')]: '',
      [b('address.country')]: ''
    })
    expect(second.filled).toEqual({ [b('fullName')]: 'Nora Lindqvist' })
  })
})
