import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { CustomerCreateRequest } from '../../../src/shared/api'
import { checkBoxes, nestFlat } from '../../../src/renderer/src/ui/flat-form'
import { amountMessage, amountOf, currencyOf } from '../../../src/renderer/src/ui/MoneyField'

const Payment = z.strictObject({
  destinationAccountId: z.string().min(1, 'Give a destination'),
  amount: z.number({ error: 'Give an amount' }).int().positive()
})
const usd = currencyOf({ code: 'USD' })
const toInput = (v: Record<string, string>) => ({ ...v, amount: amountOf(v['amount'] ?? '', usd) })

describe('checkBoxes', () => {
  it('puts the shared schema’s message under the box its path names, and parses a good form', () => {
    const bad = checkBoxes(Payment, { destinationAccountId: '', amount: '12.50' }, false, { toInput })
    expect(bad.issues).toEqual({ destinationAccountId: 'Give a destination' })
    const good = checkBoxes(Payment, { destinationAccountId: 'ExternalAccount:1', amount: '12.50' }, false, { toInput })
    expect(good.issues).toEqual({})
    expect(good.result.success && good.result.data).toEqual({ destinationAccountId: 'ExternalAccount:1', amount: 1250 })
  })

  it('lets the form’s own checks speak first at a box, or stay quiet about an empty box until a submit', () => {
    const checks = (v: Record<string, string>, submitted: boolean) => ({
      amount: amountMessage(v['amount'] ?? '', usd, submitted, { max: 1000, maxText: 'More than this account holds' })
    })
    const empty = { destinationAccountId: 'ExternalAccount:1', amount: '' }
    expect(checkBoxes(Payment, empty, false, { toInput, checks }).issues).toEqual({})
    expect(checkBoxes(Payment, empty, true, { toInput, checks }).issues).toEqual({ amount: 'Enter an amount' })
    const tooMuch = { ...empty, amount: '10.01' }
    expect(checkBoxes(Payment, tooMuch, false, { toInput, checks }).issues).toEqual({
      amount: 'More than this account holds'
    })
  })

  it('maps request paths shaped unlike the boxes back to the box the operator typed in', () => {
    const Nested = z.strictObject({ destination: z.strictObject({ accountId: z.string().min(1, 'Choose one') }) })
    const { issues } = checkBoxes(Nested, { account: '' }, true, {
      toInput: (v) => ({ destination: { accountId: v['account'] } }),
      boxOf: (path) => (path === 'destination.accountId' ? 'account' : path)
    })
    expect(issues).toEqual({ account: 'Choose one' })
  })
})

describe('amount boxes', () => {
  it('mean exact minor units, or nothing when what is typed is not an amount', () => {
    expect(amountOf('1,250.10', usd)).toBe(125010)
    expect(amountOf('1.005', usd)).toBeUndefined()
    expect(amountOf('12', undefined)).toBeUndefined()
  })

  it('say why an amount is refused, and nothing while the box is empty before a submit', () => {
    expect(amountMessage('', usd, false)).toBeNull()
    expect(amountMessage('', usd, true)).toBe('Enter an amount')
    expect(amountMessage('0', usd, false)).toBe('Enter an amount greater than zero')
    expect(amountMessage('5', usd, false)).toBeUndefined()
  })
})

describe('nestFlat', () => {
  it('builds nested request members from dotted keys and leaves empty boxes out', () => {
    expect(nestFlat({ fullName: ' Nora ', 'address.line1': '9 Elm', 'address.city': '', region: '' })).toEqual({
      fullName: 'Nora',
      address: { line1: '9 Elm' }
    })
  })

  it('gives the schema paths that name the box the error belongs under', () => {
    const result = CustomerCreateRequest.safeParse({
      customerType: 'INDIVIDUAL',
      ...nestFlat({ 'address.line1': '9 Elm' })
    })
    expect(result.success).toBe(false)
    const paths = result.success ? [] : result.error.issues.map((i) => i.path.join('.'))
    expect(paths).toContain('address.postalCode')
  })
})
